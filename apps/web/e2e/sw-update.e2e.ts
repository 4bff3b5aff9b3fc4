import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { startServer } from './fixtures.ts';

const builtApp = path.resolve(import.meta.dirname, '../dist');

/**
 * "A new build": the entry script under a new name (its imports are relative, so it runs as it is),
 * index.html pointing at it, and sw.js with the new file list and a new build id — what a deployment
 * of changed sources looks like to a browser.
 */
async function deployNewBuild(dist: string): Promise<string> {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]* src="(\/assets\/index-[^"]+\.js)"/.exec(html)![1]!;
  const next = '/assets/index-nextbuild.js';
  await cp(path.join(dist, entry), path.join(dist, next));
  await writeFile(path.join(dist, 'index.html'), html.replace(entry, next));
  const worker = await readFile(path.join(dist, 'sw.js'), 'utf8');
  await writeFile(
    path.join(dist, 'sw.js'),
    worker.replace(/const BUILD = "[^"]+"/, 'const BUILD = "nextbuild"').replace(`"${entry}"`, `"${next}"`),
  );
  return next;
}

describe('a new deployment reaches an open app through the service worker', () => {
  let browser: Browser;
  let dist: string;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  beforeAll(async () => {
    // A server of its own, serving a copy of the built app that the test can redeploy.
    dist = await mkdtemp(path.join(os.tmpdir(), 'yidu-sw-dist-'));
    await cp(builtApp, dist, { recursive: true });
    process.env.WEB_DIST_DIR = dist;
    server = await startServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    delete process.env.WEB_DIST_DIR;
    await rm(dist, { recursive: true, force: true });
  });

  it(
    'takes the new build with one automatic reload, never a loop, and keeps it offline',
    { timeout: 120_000 },
    async () => {
      const { context, page } = await newPage(browser, 'zh', server!.baseUrl);
      try {
        await page.goto('/login');
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
        const entry = () => page.evaluate(() => document.querySelector('script[type="module"]')?.getAttribute('src'));
        expect(await entry()).not.toContain('nextbuild');
        let loads = 0;
        page.on('load', () => (loads += 1));

        const next = await deployNewBuild(dist);
        // The app looks for an update when it comes back to the foreground.
        await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
        await page.waitForFunction(
          (src) => document.querySelector('script[type="module"]')?.getAttribute('src') === src,
          next,
          {
            timeout: 60_000,
          },
        );
        // The new page may have its script before it has finished loading.
        await expect.poll(() => loads).toBe(1);
        await expect.poll(() => page.evaluate(() => localStorage.getItem('swReloadedFor'))).toBeNull();
        // Settled: the page runs the worker's build and does not reload again.
        await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
        await page.waitForTimeout(3000);
        expect(loads).toBe(1);

        // The new build is the one kept for starting without a network: with the server gone
        // altogether (not only the browser told it is offline), the app still starts.
        await server!.stop();
        server = undefined;
        await page.reload();
        expect(await entry()).toBe(next);
        await page.locator('#root *').first().waitFor();
      } finally {
        await context.close();
      }
    },
  );
});
