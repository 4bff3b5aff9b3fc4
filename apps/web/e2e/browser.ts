import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's chromium, headless, with the flags this machine needs (no network beyond loopback), and
 * any further flags a journey needs (a host name mapped to loopback).
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}

/** A fresh browser profile with the interface language preset (zh or en). */
export async function newPage(
  browser: Browser,
  uiLanguage: string,
  baseUrl: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: uiLanguage === 'zh' ? 'zh-CN' : 'en-US',
    viewport: { width: 1280, height: 800 },
    // Dialogs and drawers then open without animating (AppProviders follows the system setting), so a
    // click never lands on a button still zooming in, or on the mask beside it, on a busy machine.
    reducedMotion: 'reduce',
  });
  await context.addInitScript((lang) => {
    if (!window.localStorage.getItem('uiLanguage')) window.localStorage.setItem('uiLanguage', lang);
  }, uiLanguage);
  // Content security policy violations, for journeys to check that none happened.
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  const page = await context.newPage();
  return { context, page };
}

/** What the page's content security policy refused so far (see newPage). */
export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
}

/** Polls the development outbox for the newest mail to `to` and returns its first link. */
export async function activationLinkFor(dataDir: string, to: string, timeoutMs = 20_000): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    for (const file of files
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .reverse()) {
      const raw = await readFile(path.join(outbox, file), 'utf8');
      if (!raw.toLowerCase().includes(to.toLowerCase())) continue;
      const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = /https?:\/\/[^\s"<>]+\/user\/confirm\?code=[A-Za-z0-9_%-]+/.exec(unfolded);
      if (link) return link[0];
    }
    if (Date.now() > deadline) throw new Error(`no activation mail for ${to}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
