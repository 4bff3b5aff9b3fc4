import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256InSlices } from './hash.ts';

describe('sha256InSlices', () => {
  it('is the SHA-256 of the whole buffer, whatever its size against the slices', async () => {
    for (const size of [0, 1, 1024 * 1024, 1024 * 1024 + 1, 3.5 * 1024 * 1024]) {
      const data = randomBytes(size);
      expect(await sha256InSlices(data)).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });
});
