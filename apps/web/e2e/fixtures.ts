import type {} from './provided.d.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { activationLinkFor } from './browser.ts';
import { buttonName, type wording } from './i18n.ts';

/** Shared by the journeys, the reader bench and the screenshot script: users and books through the API, selections. */
export const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../shared/corpus');

export async function api<T>(baseUrl: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${baseUrl}/api${url}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { code: number; data: T; msg: string };
  if (json.code !== 0) throw new Error(`${method} ${url}: ${json.msg}`);
  return json.data;
}

/** A registered, activated reader (invite code from the admin, activation link from the outbox). */
export async function activatedReader(
  baseUrl: string,
  dataDir: string,
  admin: { account: string; password: string },
  uiLanguage = 'zh',
  nickname?: string,
): Promise<{ email: string; password: string; token: string }> {
  const adminSession = await api<{ token: string }>(baseUrl, 'POST', '/auth/login', admin);
  const { codes } = await api<{ codes: string[] }>(
    baseUrl,
    'POST',
    '/admin/invite-codes',
    { count: 1, maxUses: 1 },
    adminSession.token,
  );
  const email = `reader-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  const password = 'Reading2026';
  await api(baseUrl, 'POST', '/auth/register', {
    method: 'email',
    email,
    password,
    ...(nickname ? { nickname } : {}),
    inviteCode: codes[0],
    language: 'Chinese',
    uiLanguage,
  });
  const link = await activationLinkFor(dataDir, email);
  const code = new URL(link).searchParams.get('code')!;
  await api(baseUrl, 'POST', `/auth/confirmAccount?code=${encodeURIComponent(code)}`);
  const { token } = await api<{ token: string }>(baseUrl, 'POST', '/auth/login', { account: email, password });
  return { email, password, token };
}

const STAGES: [string, string][] = [
  ['parsingFile', '/book/analysis'],
  ['detectingLanguage', '/book/languageDetection'],
  ['translatingTitle', '/book/translationBookName'],
  ['saving', '/book/saveBookById'],
];

/** A file made by the journey itself (a fixture builder's book), uploaded as it is. */
export interface MadeFile {
  name: string;
  data: Buffer;
}

/** Uploads a corpus file (or a made one) and starts its pipeline (Path B); returns the request id without waiting. */
export async function startUpload(
  baseUrl: string,
  token: string,
  file: string | MadeFile,
  bookName: string,
  language?: string,
): Promise<string> {
  const form = new FormData();
  const { name, data } =
    typeof file === 'string' ? { name: path.basename(file), data: await readFile(path.join(corpus, file)) } : file;
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const res = await fetch(`${baseUrl}/api/book/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const uploaded = (await res.json()) as { code: number; data: { fileId: string }; msg: string };
  if (uploaded.code !== 0) throw new Error(`upload: ${uploaded.msg}`);
  const { requestId } = await api<{ requestId: string }>(
    baseUrl,
    'POST',
    '/book/saveNew',
    { fileId: uploaded.data.fileId, bookName, bookStatus: 0, ...(language ? { language } : {}) },
    token,
  );
  return requestId;
}

/** Uploads a corpus file (or a made one) and runs the pipeline (Path B) to the end; returns the book code. */
export async function uploadBook(
  baseUrl: string,
  token: string,
  file: string | MadeFile,
  bookName: string,
  language = 'zh',
): Promise<string> {
  const requestId = await startUpload(baseUrl, token, file, bookName, language);
  let bookCode = '';
  for (const [stage, url] of STAGES) {
    const extra =
      stage === 'translatingTitle'
        ? `&userLanguage=${language}`
        : stage === 'saving'
          ? `&bookName=${encodeURIComponent(bookName)}`
          : '';
    const deadline = Date.now() + 180_000;
    for (;;) {
      let state: { status: string; message?: string; result?: Record<string, unknown> };
      try {
        state = await api(baseUrl, 'GET', `${url}?requestId=${requestId}${extra}`, undefined, token);
      } catch (error) {
        // The title translation may fail without stopping the book.
        if (stage === 'translatingTitle') break;
        throw error;
      }
      if (state.status === 'done') {
        if (stage === 'saving') bookCode = String(state.result?.bookCode ?? '');
        break;
      }
      if (state.status === 'failed') {
        if (stage === 'translatingTitle') break;
        throw new Error(`${stage} failed for ${bookName}: ${state.message ?? ''}`);
      }
      if (Date.now() > deadline) throw new Error(`${stage} did not finish for ${bookName}`);
      await new Promise((r) => setTimeout(r, 400));
    }
  }
  if (!bookCode) throw new Error(`no book code for ${bookName}`);
  return bookCode;
}

/** Starts the server exactly as the journeys do (server.setup.ts), outside vitest. */
export async function startServer(): Promise<{
  baseUrl: string;
  dataDir: string;
  admin: { account: string; password: string };
  translatorControl: string;
  stop: () => Promise<void>;
}> {
  const { default: setup } = await import('./server.setup.ts');
  const provided: Record<string, unknown> = {};
  const stop = await setup({ provide: (key: string, value: unknown) => (provided[key] = value) } as never);
  return {
    baseUrl: provided.baseUrl as string,
    dataDir: provided.dataDir as string,
    admin: provided.admin as { account: string; password: string },
    translatorControl: provided.translatorControl as string,
    stop,
  };
}

/**
 * Steers the fake translator the server under test uses (FakeBehaviour as JSON): `{down: true}` takes
 * it off the network, `{latencyMs: 3000}` slows it, `{down: false, latencyMs: 120}` brings it back.
 */
export async function setTranslator(controlUrl: string, behaviour: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${controlUrl}/behaviour`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(behaviour),
  });
  if (!res.ok) throw new Error(`the fake translator refused ${JSON.stringify(behaviour)}`);
}

/** The latency the journeys run the fake translator with (server.setup.ts). */
export const TRANSLATOR_NORMAL = { down: false, hang: false, latencyMs: 120, perItemLatencyMs: 20 };

/** Selects characters [start, end) of the first text node of an element, as a user would with the mouse. */
export async function selectText(page: Page, selector: string, start: number, end: number): Promise<string> {
  return page.evaluate(
    ({ selector, start, end }) => {
      const element = document.querySelector(selector)!;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      let node = walker.nextNode();
      while (node && (node.nodeValue ?? '').length < end) node = walker.nextNode();
      const range = document.createRange();
      range.setStart(node!, start);
      range.setEnd(node!, end);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return range.toString();
    },
    { selector, start, end },
  );
}

/** Uploads one file through the wizard and returns once the success page shows. */
export async function uploadThroughWizard(page: Page, t: ReturnType<typeof wording>, file: string, title: string) {
  await page.locator('.yd-dropzone input[type=file]').setInputFiles(path.join(corpus, file));
  await page.getByText(t('books.upload.uploaded'), { exact: true }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: buttonName(t('books.wizard.next')) }).click();
  const titleInput = page.locator('#book-upload-info_bookName');
  await titleInput.waitFor();
  await titleInput.fill(title);
  await page.getByRole('button', { name: buttonName(t('books.wizard.next')) }).click();

  // The stages run in turn; the title translation may fail (no engine reachable) or propose a title.
  const saved = page.locator('[data-testid=stage-saving][data-status=done]');
  const deadline = Date.now() + 150_000;
  while (!(await saved.isVisible())) {
    if (Date.now() > deadline) throw new Error(`the pipeline did not finish for ${file}`);
    const keepAfterFailure = page.getByRole('button', { name: buttonName(t('books.title.continueOriginal')) });
    const keepProposed = page.getByRole('button', { name: buttonName(t('books.title.keepOriginal')) });
    if (await keepAfterFailure.isVisible()) await keepAfterFailure.click();
    else if (await keepProposed.isVisible()) await keepProposed.click();
    else {
      const failed = page.locator('.yd-stage.is-failed');
      if (
        (await failed.count()) > 0 &&
        !(await page.locator('[data-testid=stage-translatingTitle].is-failed').count())
      ) {
        throw new Error(`a stage failed for ${file}: ${await page.locator('.yd-stage-alert').innerText()}`);
      }
    }
    await page.waitForTimeout(300);
  }
  await page.getByRole('button', { name: buttonName(t('books.wizard.complete')) }).click();
  await page.getByText(t('books.wizard.successTitle')).waitFor();
}
