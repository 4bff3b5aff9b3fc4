import type {} from './provided.d.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { activationLinkFor } from './browser.ts';

/** Shared by the reader journey, the reader bench and the screenshot script: users and books through the API. */
export const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus');

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

/** Uploads a corpus file and runs the pipeline (Path B) to the end; returns the book code. */
export async function uploadBook(
  baseUrl: string,
  token: string,
  file: string,
  bookName: string,
  language = 'zh',
): Promise<string> {
  const form = new FormData();
  const bytes = await readFile(path.join(corpus, file));
  form.append('file', new Blob([bytes]), path.basename(file));
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
    { fileId: uploaded.data.fileId, bookName, bookStatus: 0, language },
    token,
  );
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
        throw new Error(`${stage} failed for ${file}: ${state.message ?? ''}`);
      }
      if (Date.now() > deadline) throw new Error(`${stage} did not finish for ${file}`);
      await new Promise((r) => setTimeout(r, 400));
    }
  }
  if (!bookCode) throw new Error(`no book code for ${file}`);
  return bookCode;
}

/** Starts the server exactly as the journeys do (server.setup.ts), outside vitest. */
export async function startServer(): Promise<{
  baseUrl: string;
  dataDir: string;
  admin: { account: string; password: string };
  stop: () => Promise<void>;
}> {
  const { default: setup } = await import('./server.setup.ts');
  const provided: Record<string, unknown> = {};
  const stop = await setup({ provide: (key: string, value: unknown) => (provided[key] = value) } as never);
  return {
    baseUrl: provided.baseUrl as string,
    dataDir: provided.dataDir as string,
    admin: provided.admin as { account: string; password: string },
    stop,
  };
}
