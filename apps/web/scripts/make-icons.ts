/**
 * Draws the app icons of the web app manifest from the logo (public/favicon.svg) with Debian's
 * chromium: 192 and 512 px, and maskable versions whose mark stays inside the central 80 % safe zone
 * on a full-bleed background. Run once after changing the logo; the PNGs are committed.
 *
 *   node apps/web/scripts/make-icons.ts
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser } from '../e2e/browser.ts';

const publicDir = path.resolve(import.meta.dirname, '../public');
const svg = await readFile(path.join(publicDir, 'favicon.svg'), 'utf8');
const browser = await launchBrowser();
try {
  for (const size of [192, 512]) {
    for (const maskable of [false, true]) {
      const page = await browser.newPage({ viewport: { width: size, height: size } });
      // A maskable icon is cropped to a circle by some launchers: the mark at 60 % on the logo's colour.
      const inner = maskable ? Math.round(size * 0.6) : size;
      await page.setContent(
        `<html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${
          maskable ? '#b4562f' : 'transparent'
        }"><div style="width:${inner}px;height:${inner}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body></html>`,
      );
      const file = path.join(publicDir, 'icons', `icon-${size}${maskable ? '-maskable' : ''}.png`);
      await page.screenshot({ path: file, omitBackground: !maskable });
      await page.close();
      console.log(file);
    }
  }
} finally {
  await browser.close();
}
