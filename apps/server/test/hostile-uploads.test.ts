/**
 * Hostile files uploaded to a running Yidu (in a process of its own, measured from outside): each is
 * refused with a key and never retried, the server's processes together stay under 1 GB, its
 * health answer is never silent for a second, and a good book is read afterwards.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  deeplyNestedDocx,
  deeplyNestedEpub,
  deeplyNestedRtf,
  flateBombPdf,
  hugePagePdf,
  paragraphFloodEpub,
  paragraphFloodRtf,
  tinyLinesTxt,
} from '../src/engines/parsers/testing/hostile-files.ts';
import { CORPUS, createTestDatabase, STRONG_PASSWORD } from './helpers.ts';
import { api, freePort, parsed, startYidu, waitHealthy, yiduEnv } from './yidu-process.ts';

/** Resident memory of a process and all its descendants, in MB (Linux /proc). */
async function treeRssMb(pid: number): Promise<number> {
  let total = 0;
  const visit = async (id: number) => {
    try {
      const status = await readFile(`/proc/${id}/status`, 'utf8');
      total += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
      const children = await readFile(`/proc/${id}/task/${id}/children`, 'utf8');
      for (const child of children.trim().split(/\s+/).filter(Boolean)) await visit(Number(child));
    } catch {
      // gone meanwhile
    }
  };
  await visit(pid);
  return total;
}

describe.skipIf(process.platform !== 'linux')('hostile uploads', () => {
  let yidu: ChildProcess | undefined;
  let dataDir = '';
  afterAll(async () => {
    yidu?.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('are refused with a key while the server stays small and answers', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-hostile-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    yidu = startYidu({
      ...yiduEnv({ databaseUrl: await createTestDatabase(), dataDir, port }),
      STAGE_STALE_SECONDS: '60',
      UPLOAD_MAX_MB: '40',
    });
    await waitHealthy(base);
    const { token } = await api(base, '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({ method: 'email', email: 'hostile@example.com', password: STRONG_PASSWORD }),
    });

    // Made before the watching starts: making them takes seconds of this process's own time.
    const files: [string, Buffer, boolean][] = [
      ['flood.epub', paragraphFloodEpub(), false],
      ['bomb.pdf', await flateBombPdf(), false],
      ['huge-page.pdf', hugePagePdf(), true],
      ['tiny-lines.txt', tinyLinesTxt(), false],
      ['nested.epub', deeplyNestedEpub(), false],
      ['nested.docx', deeplyNestedDocx(), false],
      ['par-flood.doc', paragraphFloodRtf(), false],
      ['nested-rtf.doc', deeplyNestedRtf(), false],
    ];
    const moby = await readFile(path.join(CORPUS, 'epub/en-moby-dick-epub3.epub'));

    // Watch from outside: the longest silence of /api/health, and the peak memory of all processes.
    let watching = true;
    let longestSilenceMs = 0;
    let peakMb = 0;
    const health = (async () => {
      while (watching) {
        const asked = performance.now();
        const res = await fetch(`${base}/api/health`);
        expect(res.status).toBe(200);
        longestSilenceMs = Math.max(longestSilenceMs, performance.now() - asked);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const memory = (async () => {
      while (watching) {
        peakMb = Math.max(peakMb, await treeRssMb(yidu!.pid!));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const upload = async (name: string, data: Buffer, forceOCR = false) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(data)]), name);
      const { fileId } = await api(base, '/api/book/upload', { method: 'POST', body: form }, token);
      const { requestId } = await api(
        base,
        '/api/book/saveNew',
        { method: 'POST', body: JSON.stringify({ fileId, bookName: name, bookStatus: 0, forceOCR }) },
        token,
      );
      await api(base, `/api/book/analysis?requestId=${requestId}`, {}, token);
      return parsed(base, requestId, token);
    };
    try {
      for (const [name, file, forceOCR] of files) {
        const state = await upload(name, file, forceOCR);
        expect(state, name).toMatchObject({ stage: 'parsingFile', status: 'failed' });
        expect(['fileTooComplex', 'noTextFound', 'fileCorrupted'], name).toContain(state.errorKey);
      }
      // The server is the one it was, and still reads books.
      expect(yidu.exitCode).toBeNull();
      const good = await upload('moby.epub', moby);
      expect(good).toMatchObject({ stage: 'parsingFile', status: 'done' });
    } finally {
      watching = false;
      await Promise.all([health, memory]);
    }
    expect(peakMb).toBeLessThan(1024);
    // A liveness bound from the issue (the health answer never silent for 1 s), not a speed figure.
    expect(longestSilenceMs).toBeLessThan(1000);
  }, 300_000);
});
