import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { transformWithOxc, type Plugin } from 'vite';

const SOURCE = path.resolve(import.meta.dirname, '../src/sw/service-worker.ts');

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    const name = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await filesUnder(path.join(dir, entry.name), name)));
    else out.push(name);
  }
  return out;
}

/**
 * Writes `sw.js` into the build: the worker of src/sw/service-worker.ts with the list of the build's
 * files (every chunk, asset and public file, index.html included) and an id made of their names and
 * contents. The same sources give the same id, so a rebuild without changes is no new version; any
 * change gives a new sw.js, which browsers find on their next check and install.
 */
export function serviceWorkerPlugin(): Plugin {
  let publicDir = '';
  return {
    name: 'yidu-service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    async generateBundle(_options, bundle) {
      const hash = createHash('sha256');
      const files: string[] = [];
      for (const item of Object.values(bundle).sort((a, b) => a.fileName.localeCompare(b.fileName))) {
        if (item.fileName.endsWith('.map')) continue;
        files.push(`/${item.fileName}`);
        hash.update(item.fileName);
        hash.update(item.type === 'chunk' ? item.code : item.source);
      }
      for (const file of (await filesUnder(publicDir)).sort()) {
        files.push(file);
        hash.update(file);
        hash.update(await readFile(path.join(publicDir, file)));
      }
      const build = hash.digest('hex').slice(0, 16);
      const { code } = await transformWithOxc(await readFile(SOURCE, 'utf8'), SOURCE, { lang: 'ts' });
      const worker = code
        .replace(/^export\s*\{\s*\};?\s*$/m, '')
        .replace('__YIDU_BUILD__', JSON.stringify(build))
        .replace('__YIDU_FILES__', JSON.stringify(files.filter((f) => f !== '/index.html').concat('/index.html')));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: worker });
    },
  };
}
