/**
 * What the benchmarks that start Yidu in a process of its own share: free ports, waiting for it,
 * its calls, and stopping it (gracefully, so that it can write a CPU profile).
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the envelope's data is whatever the call answers
export async function api(base: string, pathName: string, init: RequestInit = {}, token?: string): Promise<any> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (typeof init.body === 'string') headers['content-type'] = 'application/json';
  const body = (await (await fetch(`${base}${pathName}`, { ...init, headers })).json()) as {
    code: number;
    data: unknown;
  };
  if (body.code !== 0) throw new Error(`${pathName}: ${JSON.stringify(body)}`);
  return body.data;
}

/** Stops the processes with SIGTERM and waits (30 s at most) for each to exit. */
export async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGTERM');
          setTimeout(resolve, 30_000).unref();
        }),
    ),
  );
}
