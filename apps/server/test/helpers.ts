import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../src/config/env.ts';
import { boot, type Running } from '../src/boot.ts';
import { createLogger } from '../src/lib/logger.ts';
import { withDatabase } from './global-setup.ts';
import { writeReadyBook } from './seed-book.ts';

export interface TestApp {
  app: FastifyInstance;
  running: Running;
  dataDir: string;
  databaseUrl: string;
  /** Sends a request through the whole HTTP stack and parses the envelope. */
  call(method: InjectOptions['method'], url: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export interface CallResult {
  status: number;
  code: number;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever the envelope holds
  msg: string;
  headers: LightMyRequestResponse['headers'];
}

/** A fresh database cloned from the migrated template. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('pgAdminUrl');
  const name = `yidu_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}

/**
 * Boots the real application (role all: API and workers) on its own database and data directory.
 * `env` overrides the test defaults, exactly as environment variables would.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  // A DATABASE_URL in `env` makes a second process of the same deployment (several API processes).
  const databaseUrl = env.DATABASE_URL ?? (await createTestDatabase());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-test-data-'));
  const loaded = loadConfig(
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      LOGIN_FAILURE_DELAY_MS: '0',
      PUBLIC_URL: 'http://yidu.test',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      // Tests never reach real services: an unused local port refuses at once unless a test starts a fake.
      MICROSOFT_TRANSLATOR_ENDPOINT: 'http://127.0.0.1:9',
      // No engine probes unless a test asks: they would add calls to the fakes tests count.
      ENGINE_PROBE_MINUTES: '0',
      // No first shelf unless a test asks: its books would be in every public library.
      FIRST_SHELF: 'false',
      ...env,
    },
    'all',
    'test',
  );
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  const running = await boot(loaded.config, createLogger(loaded.config.logLevel));
  const app = running.app!;
  await app.ready();

  const call: TestApp['call'] = async (method, url, options = {}) => {
    const response = await app.inject({
      method,
      url,
      payload: options.body as InjectOptions['payload'],
      remoteAddress: options.ip ?? '127.0.0.1',
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
    });
    const json = response.headers['content-type']?.toString().includes('json') ? response.json() : {};
    return { status: response.statusCode, code: json.code, data: json.data, msg: json.msg, headers: response.headers };
  };

  return {
    app,
    running,
    dataDir,
    databaseUrl,
    call,
    close: async () => {
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** The mails the development outbox has written, oldest first. */
export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  const mails: OutboxMail[] = [];
  for (const file of files) {
    const raw = await readFile(path.join(dir, file), 'utf8');
    const headerEnd = raw.indexOf('\n\n');
    const headers = raw.slice(0, headerEnd);
    const decoded = decodeMime(raw);
    mails.push({
      file,
      to: /^To: (.*)$/m.exec(headers)?.[1]?.trim() ?? '',
      subject: decodeHeader(/^Subject: (.*(?:\n[ \t].*)*)$/m.exec(headers)?.[1] ?? ''),
      text: decoded,
      links: [...decoded.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]),
    });
  }
  return mails;
}

/**
 * Waits until the outbox holds at least `count` mails to `to` (the worker sends them asynchronously)
 * and returns those mails, oldest first.
 */
export async function waitForMail(dataDir: string, to: string, count = 1, timeoutMs = 15_000): Promise<OutboxMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await readOutbox(dataDir)).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
    if (mails.length >= count) return mails;
    if (Date.now() > deadline)
      throw new Error(`expected ${count} mail(s) to ${to} in the outbox, found ${mails.length}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Reads the text/plain part of a nodemailer message (quoted-printable or base64). */
function decodeMime(raw: string): string {
  const parts = raw.split(/\n--[^\n]+\n/);
  const textPart = parts.find((p) => /content-type: text\/plain/i.test(p)) ?? raw;
  const bodyStart = textPart.indexOf('\n\n');
  const body = textPart.slice(bodyStart + 2);
  if (/content-transfer-encoding: base64/i.test(textPart))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding: quoted-printable/i.test(textPart)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function decodeHeader(value: string): string {
  return value
    .replace(/\n[ \t]/g, '')
    .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .trim();
}

/** The SMS texts the development outbox has written. */
export async function readSmsOutbox(dataDir: string): Promise<{ to: string; text: string }[]> {
  try {
    const raw = await readFile(path.join(dataDir, 'outbox', 'sms.log'), 'utf8');
    return raw
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { to: string; text: string });
  } catch {
    return [];
  }
}

export const STRONG_PASSWORD = 'Reading2026';

/** The real books of ../shared/corpus (next to the repository, as CI has it). */
export const CORPUS = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../shared/corpus');

/** Sends a multipart upload with one file part (and optional text fields) through the HTTP stack. */
export async function uploadFile(
  t: TestApp,
  url: string,
  file: { name: string; data: Buffer } | undefined,
  token: string,
  fields: Record<string, string> = {},
  ip = '127.0.0.1',
): Promise<CallResult> {
  const boundary = `----yidu${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const response = await t.app.inject({
    method: 'POST',
    url,
    payload: Buffer.concat(parts),
    remoteAddress: ip,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  const json = response.json();
  return { status: response.statusCode, code: json.code, data: json.data, msg: json.msg, headers: response.headers };
}

/** Calls a stage until it is no longer running. */
export async function pollStage(t: TestApp, url: string, token: string, timeoutMs = 60_000): Promise<CallResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.call('GET', url, { token });
    if (res.code !== 0 || res.data.status !== 'running') return res;
    if (Date.now() > deadline) throw new Error(`${url} still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Opens a page in `language` (which pays for it) and waits until its translation is complete; returns its data. */
export async function readTranslatedPage(t: TestApp, token: string, code: string, page: number, language = 'zh') {
  for (let i = 0; i < 200; i++) {
    const res = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=${language}&page=${page}`, {
      token,
    });
    if (res.data.blocks.every((b: { status: string }) => b.status === 'done')) return res.data;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`page ${page} was not translated`);
}

/** Registers a user that is logged in at once (the app must run with EMAIL_ACTIVATION=false, REQUIRE_INVITE=false). */
export async function registerUser(t: TestApp, name: string): Promise<string> {
  const res = await t.call('POST', '/api/auth/register', {
    body: { method: 'email', email: `${name}@example.com`, account: name, password: STRONG_PASSWORD },
  });
  if (res.code !== 0) throw new Error(`register ${name}: ${JSON.stringify(res.data)}`);
  return res.data.token;
}

/** A small ready book with Chinese text, written straight into the database. */
export async function seedChineseBook(t: TestApp, owner: string): Promise<string> {
  const texts = [
    '第一回　甄士隐梦幻识通灵　贾雨村风尘怀闺秀',
    '此开卷第一回也。作者自云：因曾历过一番梦幻之后，故将真事隐去，而借通灵之说，撰此石头记一书也。',
    '列位看官：你道此书从何而来？说起根由虽近荒唐，细按则深有趣味。',
    '原来女娲氏炼石补天之时，于大荒山无稽崖练成高经十二丈、方经二十四丈顽石三万六千五百零一块。',
  ];
  return writeReadyBook(t, owner, {
    codePrefix: 'hlm',
    title: '红楼梦',
    author: '曹雪芹',
    language: 'zh',
    chapterTitle: texts[0]!,
    blocks: texts.map((text, i) => ({ text, page: 1, heading: i === 0 })),
  });
}

/**
 * A public English book written straight into the database: `pages` pages of `paragraphsPerPage`
 * paragraphs each, one chapter, the text of paragraph i (1-based) on page p from `text`.
 */
export async function seedPagedBook(
  t: TestApp,
  owner: string,
  shape: { pages: number; paragraphsPerPage: number; text: (i: number, page: number) => string },
): Promise<string> {
  const blocks = Array.from({ length: shape.pages * shape.paragraphsPerPage }, (_, i) => {
    const page = Math.floor(i / shape.paragraphsPerPage) + 1;
    return { text: shape.text(i + 1, page), page };
  });
  return writeReadyBook(t, owner, {
    title: 'Moby-Dick',
    author: 'Herman Melville',
    language: 'en',
    chapterTitle: 'Loomings',
    blocks,
  });
}
