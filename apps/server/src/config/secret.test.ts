import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readOrCreateSecret } from './secret.ts';

describe('a secret kept under DATA_DIR', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is the same for every process that asks at once on a new data directory', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-secret-'));
    // Many at once: some find the file created but not written yet, and must wait for it.
    const secrets = await Promise.all(Array.from({ length: 40 }, () => readOrCreateSecret(dir, 'app-secret')));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(32);
    expect(await readOrCreateSecret(dir, 'app-secret')).toBe(secrets[0]);
  });

  it('is refused when the file holds too little, rather than used', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-secret-'));
    await writeFile(path.join(dir, 'app-secret'), 'short\n');
    await expect(readOrCreateSecret(dir, 'app-secret')).rejects.toThrow(/less than 32 characters/);
  });
});
