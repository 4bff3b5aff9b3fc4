/**
 * A throwaway cluster of the operating system's PostgreSQL (Debian's `postgresql` package, which
 * `.ci/run` installs): the external database an operator would give Yidu, not the embedded one.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SystemPostgres {
  /** The major version found under /usr/lib/postgresql. */
  version: string;
  port: number;
  /** A superuser connection (the operator's own). */
  adminUrl: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** The newest PostgreSQL under /usr/lib/postgresql, or undefined. */
export function systemPostgresBin(): { version: string; bin: string } | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? { version: versions[0], bin: path.join(root, versions[0], 'bin') } : undefined;
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` user the package created. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function startSystemPostgres(port: number): Promise<SystemPostgres> {
  const found = systemPostgresBin();
  if (!found) throw new Error("Debian's PostgreSQL is not installed (apt-get install postgresql; .ci/run does)");
  const user = runAs();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-system-pg-'));
  if (user) await chown(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const as = { ...(user ?? {}), env: { PATH: process.env.PATH, LANG: 'C.UTF-8' } };
  await run(
    path.join(found.bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'],
    as,
  );
  const pgCtl = (...args: string[]) =>
    run(path.join(found.bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', ...args], as);
  // A throwaway cluster: no fsync; enough connections for four Yidu processes and the test.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  await pgCtl('-o', options, 'start');
  return {
    version: found.version,
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: async () => {
      await pgCtl('-m', 'fast', 'stop');
      await pgCtl('-o', options, 'start');
    },
    stop: async () => {
      await pgCtl('-m', 'fast', 'stop').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
