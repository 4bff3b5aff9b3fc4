import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Where the page view finds pdf.js's data files (see features/reader/pdf/pdfjs.ts). */
export const PDFJS_ASSETS_PATH = 'pdfjs';

/**
 * pdf.js's data files, served from our own origin (the content security policy allows nothing else):
 * the CMaps of CJK fonts that are not embedded, the standard fonts, and the JavaScript JPEG 2000
 * decoder used instead of WebAssembly (which the policy does not allow). They are fetched only when a
 * PDF needs them: copied into the build, served from node_modules by the dev server.
 */
export function pdfjsAssets(): Plugin {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const files = [...listDir(root, 'cmaps'), ...listDir(root, 'standard_fonts'), 'wasm/openjpeg_nowasm_fallback.js'];
  return {
    name: 'yidu-pdfjs-assets',
    configureServer(server) {
      server.middlewares.use(`/${PDFJS_ASSETS_PATH}/`, (request, response, next) => {
        const name = decodeURIComponent((request.url ?? '').split('?')[0]!.replace(/^\//, ''));
        if (!files.includes(name)) return next();
        response.setHeader('content-type', name.endsWith('.js') ? 'text/javascript' : 'application/octet-stream');
        createReadStream(path.join(root, name)).pipe(response);
      });
    },
    generateBundle() {
      for (const name of files)
        this.emitFile({
          type: 'asset',
          fileName: `${PDFJS_ASSETS_PATH}/${name}`,
          source: readFileSync(path.join(root, name)),
        });
    },
  };
}

function listDir(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full)
    .filter((name) => statSync(path.join(full, name)).isFile())
    .map((name) => `${dir}/${name}`);
}
