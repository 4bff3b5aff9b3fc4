/**
 * A real file system that really fills: a tmpfs of a few MB mounted on a temporary directory (root
 * only; CI runs as root). Tests that need one skip, saying why, where mounting is impossible.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { mkdtemp, open, rm, rmdir, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Why no small disk can be mounted here, or undefined when one can (tried once, at load). */
export const smallDiskUnavailable: string | undefined = (() => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yidu-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const reason = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
    return `a small file system cannot be mounted here (needs root and CAP_SYS_ADMIN): ${reason}`;
  } finally {
    rmdirSync(dir);
  }
})();

export interface SmallDisk {
  /** The mount point. */
  dir: string;
  /** Fills the file system until it refuses a byte more, then gives back `leaveBytes`. */
  fill(leaveBytes?: number): Promise<void>;
  /** Removes what `fill` wrote. */
  free(): Promise<void>;
  unmount(): Promise<void>;
}

const FILLER = '.filler';

export async function mountSmallDisk(sizeKb: number, owner?: { uid: number; gid: number }): Promise<SmallDisk> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-small-disk-'));
  const options = [`size=${sizeKb}k`, ...(owner ? [`uid=${owner.uid}`, `gid=${owner.gid}`, 'mode=0700'] : [])];
  execFileSync('mount', ['-t', 'tmpfs', '-o', options.join(','), 'tmpfs', dir], { stdio: 'pipe' });
  const filler = path.join(dir, FILLER);
  return {
    dir,
    async fill(leaveBytes = 0) {
      const handle = await open(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 0x55);
      try {
        for (;;) await handle.write(chunk);
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error;
      } finally {
        await handle.close();
      }
      if (leaveBytes > 0) await truncate(filler, Math.max(0, (await stat(filler)).size - leaveBytes));
    },
    async free() {
      await rm(filler, { force: true });
    },
    async unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      await rmdir(dir);
    },
  };
}
