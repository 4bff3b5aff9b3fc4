/**
 * Every call of the OpenAPI document, sent what its schema allows at the edges and what it does not:
 * numbers beyond what the columns hold, impossible dates, wrong types, broken JSON, broken multipart.
 * Each must be answered — refused with a key, or served — never with a 5xx. Built from the document
 * itself, so a route added tomorrow is covered tomorrow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeMicrosoft,
  startFakeOpenAi,
  type FakeServer,
} from '../src/engines/translation/testing/fake-servers.ts';
import { startFakeReadwise, type FakeReadwise } from '../src/modules/integrations/testing/fake-readwise.ts';
import { registerUser, seedChineseBook, startTestApp, STRONG_PASSWORD, type TestApp } from './helpers.ts';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  minimum?: number;
  default?: unknown;
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}
interface Operation {
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** A stream that stays open while the page changes: its own tests hold its limits (reader, streams). */
const SKIPPED = ['GET /api/reader/events'];
/** Calls that end the caller's session or account: sent last of all, once. */
const ENDS_SESSION = ['POST /api/auth/logout', 'DELETE /api/user/account', 'POST /api/user/logoutOthers'];

const NUMBERS: unknown[] = [2 ** 31, 2 ** 53 - 1, -(2 ** 31) - 1, -1, 0, 1.5, 1e308, '12abc', null, true];
const STRINGS: unknown[] = [
  '',
  '2024-02-30',
  '2024-13-01',
  '2024-02-30T25:61:00Z',
  'not a url',
  'javascript:alert(1)',
  'http://',
  '../../etc/passwd',
  '💥'.repeat(300),
  'x'.repeat(20_000),
  12345,
  [],
  {},
];
/** Query strings and path segments travel as text. */
const TEXTS = [
  String(2 ** 31),
  String(2 ** 53 - 1),
  String(2 ** 63),
  '-1',
  '0',
  '1.5',
  '1e308',
  'abc',
  '',
  '2024-02-30',
  '2024-13-01',
  '9999-99-99',
  '%E0%A4%A',
  'x'.repeat(5_000),
];
const BROKEN_JSON = ['{', '{"a":', '[]', 'null', '"text"', '1', '{"__proto__":{"admin":true}}', 'not json'];
const BROKEN_MULTIPART: Array<{ type: string; body: string }> = [
  { type: 'multipart/form-data', body: '--x\r\n' },
  { type: 'multipart/form-data; boundary=x', body: '' },
  {
    type: 'multipart/form-data; boundary=x',
    body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc',
  },
  { type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data\r\n\r\n--x--' },
  { type: 'multipart/form-data; boundary=x', body: '--x\r\n\r\n\r\n--x--\r\n' },
  {
    type: 'multipart/form-data; boundary=x',
    body: `--x\r\nContent-Disposition: form-data; name="${'f'.repeat(10_000)}"; filename="b"\r\n\r\nz\r\n--x--\r\n`,
  },
];

describe('every call, sent edge and broken input', () => {
  let t: TestApp;
  let microsoft: FakeServer;
  let llm: FakeServer;
  /** Readwise answers the tokens sent here (refused) rather than being unreachable (a fair 502). */
  let readwise: FakeReadwise;
  let doc: Doc;
  const tokens: Record<'admin' | 'user', string> = { admin: '', user: '' };
  let bookCode = '';
  const failures: string[] = [];

  beforeAll(async () => {
    microsoft = await startFakeMicrosoft();
    llm = await startFakeOpenAi();
    readwise = await startFakeReadwise();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      RATE_LIMIT_PER_MINUTE: '1000000',
      MICROSOFT_TRANSLATOR_ENDPOINT: microsoft.url,
      LLM_BASE_URL: `${llm.url}/v1`,
      LLM_MODEL: 'fake-model',
      READWISE_API_URL: readwise.url,
      ADMIN_ACCOUNT: 'root-admin',
      ADMIN_PASSWORD: STRONG_PASSWORD,
      LOG_LEVEL: 'fatal',
    });
    tokens.user = await registerUser(t, 'fuzzer');
    tokens.admin = await login('root-admin');
    bookCode = await seedChineseBook(t, 'fuzzer');
    doc = (await t.app.inject({ url: '/api/docs/json' })).json() as Doc;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await microsoft?.close();
    await llm?.close();
    await readwise?.close();
  });

  async function login(account: string): Promise<string> {
    const res = await t.call('POST', '/api/auth/login', { body: { account, password: STRONG_PASSWORD } });
    if (res.code !== 0) throw new Error(`login ${account}: ${JSON.stringify(res.data)}`);
    return res.data.token;
  }
  /** A fuzzed call may end a session (a session id of 1): log in again. */
  async function keepLoggedIn(): Promise<void> {
    for (const role of ['admin', 'user'] as const) {
      const me = await t.call('GET', '/api/user/getUserinfo', { token: tokens[role] });
      if (me.status === 401) tokens[role] = await login(role === 'admin' ? 'root-admin' : 'fuzzer');
    }
  }

  const resolve = (schema: Schema | undefined): Schema => {
    let s = schema ?? {};
    for (let depth = 0; s.$ref && depth < 10; depth += 1)
      s = doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')] ?? {};
    if (s.allOf) s = Object.assign({}, ...s.allOf.map(resolve));
    return s;
  };

  /** A value the schema accepts, as far as a sample can: the baseline each mutation starts from. */
  const sample = (schema: Schema | undefined, name = '', depth = 0): unknown => {
    const s = resolve(schema);
    if (depth > 6) return null;
    if (s.default !== undefined) return s.default;
    if (s.enum?.length) return s.enum[0];
    const choice = s.anyOf ?? s.oneOf;
    if (choice?.length) return sample(choice.find((c) => resolve(c).type !== 'null') ?? choice[0], name, depth + 1);
    const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
    if (type === 'object' || s.properties) {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(s.properties ?? {})) out[key] = sample(value, key, depth + 1);
      return out;
    }
    if (type === 'array') return [sample(s.items, name, depth + 1)];
    if (type === 'integer' || type === 'number') return Math.max(1, s.minimum ?? 1);
    if (type === 'boolean') return false;
    if (/code/i.test(name)) return bookCode;
    // A paragraph of the seeded book, so that offsets and pages reach the database.
    if (/blockId/i.test(name)) return 'c1-b2';
    if (/lang/i.test(name)) return 'zh';
    if (/url/i.test(name)) return 'http://127.0.0.1:9/';
    if (/date|from|to$/i.test(name)) return '2026-01-01';
    return 'x';
  };
  const textOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

  let sent = 0;
  async function send(label: string, method: string, url: string, options: Parameters<TestApp['call']>[2]) {
    let status: number;
    // Each call from its own address: per-address limits (failed logins, codes) must not stop the sweep.
    sent += 1;
    const ip = `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
    try {
      status = (await t.call(method as 'GET', url, { ...options, ip })).status;
    } catch (error) {
      status = 599;
      label += ` (${String(error)})`;
    }
    if (status >= 500) failures.push(`${status} ${label}`);
  }

  async function fuzz(method: string, route: string, op: Operation): Promise<void> {
    const params = op.parameters ?? [];
    const pathParams = params.filter((p) => p.in === 'path');
    const queryParams = params.filter((p) => p.in === 'query');
    const base = {
      path: Object.fromEntries(pathParams.map((p) => [p.name, textOf(sample(p.schema, p.name))])),
      query: Object.fromEntries(queryParams.map((p) => [p.name, textOf(sample(p.schema, p.name))])),
    };
    const urlOf = (path: Record<string, string>, query: Record<string, string>) => {
      const filled = route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? '1'));
      const qs = new URLSearchParams(query).toString();
      return qs ? `${filled}?${qs}` : filled;
    };
    const content = op.requestBody?.content ?? {};
    // Uploads read their multipart body themselves: their summaries say so (no body schema to show).
    const multipart =
      Object.keys(content).some((c) => c.startsWith('multipart/')) || /multipart/i.test(op.summary ?? '');
    const bodySchema = resolve(content['application/json']?.schema);
    const baseBody = content['application/json'] ? sample(bodySchema) : undefined;

    for (const role of ['admin', 'user'] as const) {
      const token = tokens[role];
      const call = (label: string, url: string, extra: Parameters<TestApp['call']>[2] = {}) =>
        send(`${role} ${method} ${route} ${label}`, method, url, { token, ...extra });
      const withBody = baseBody === undefined ? {} : { body: baseBody };

      await call('baseline', urlOf(base.path, base.query), withBody);
      for (const p of pathParams)
        for (const value of TEXTS)
          await call(
            `path ${p.name}=${value.slice(0, 30)}`,
            urlOf({ ...base.path, [p.name]: value }, base.query),
            withBody,
          );
      for (const p of queryParams)
        for (const value of TEXTS)
          await call(
            `query ${p.name}=${value.slice(0, 30)}`,
            urlOf(base.path, { ...base.query, [p.name]: value }),
            withBody,
          );

      const url = urlOf(base.path, base.query);
      if (baseBody && typeof baseBody === 'object' && !Array.isArray(baseBody)) {
        for (const [key, value] of Object.entries(bodySchema.properties ?? {})) {
          const s = resolve(value);
          const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
          const edges = type === 'integer' || type === 'number' ? NUMBERS : STRINGS;
          for (const edge of edges)
            await call(`body ${key}=${textOf(edge).slice(0, 30)}`, url, { body: { ...baseBody, [key]: edge } });
        }
      }
      if (method !== 'GET' && method !== 'DELETE') {
        for (const raw of BROKEN_JSON)
          await call(`json ${raw.slice(0, 20)}`, url, { headers: { 'content-type': 'application/json' }, body: raw });
      }
      if (multipart)
        for (const broken of BROKEN_MULTIPART)
          await call(`multipart ${broken.body.slice(0, 30)}`, url, {
            headers: { 'content-type': broken.type },
            body: broken.body,
          });
      await keepLoggedIn();
    }
  }

  it('answers every call of the document without a 5xx', { timeout: 1_200_000 }, async () => {
    const operations = Object.entries(doc.paths).flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), route, op })),
    );
    expect(operations.length).toBeGreaterThan(100);
    const last = operations.filter((o) => ENDS_SESSION.includes(`${o.method} ${o.route}`));
    const first = operations.filter((o) => !last.includes(o) && !SKIPPED.includes(`${o.method} ${o.route}`));
    for (const { method, route, op } of first) await fuzz(method, route, op);
    for (const { method, route, op } of last) await fuzz(method, route, op);
    expect(failures).toEqual([]);
  });
});
