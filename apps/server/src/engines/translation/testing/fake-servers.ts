/**
 * Local stand-ins for the translation and LLM services, speaking each one's real HTTP protocol on
 * 127.0.0.1 (port 0). Unit tests, the server's integration tests, benchmarks and browser tests all
 * point engines at these through `endpoint` / `baseUrl`; nothing here ever reaches the internet.
 *
 * Every fake "translates" deterministically by prefixing the text with the service's own target code
 * (`[zh-Hans] original`), leaving inline tags untouched, so tests can assert mapping and order.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeFailure {
  status: number;
  /** An object is sent as JSON, a string as it is; by default the service's own error shape. */
  body?: unknown;
  /** Retry-After in seconds (decimals allowed, e.g. 0.01). */
  retryAfter?: number;
  headers?: Record<string, string>;
  /** Only a request to this path consumes the failure; by default the service's main call (translate, chat). */
  path?: string;
}

export interface FakeBehaviour {
  /** Delay of every main request (translate / chat) before it answers, e.g. 300 for a benchmark. */
  latencyMs?: number;
  /** Added delay per paragraph beyond the first in one request (e.g. 50). */
  perItemLatencyMs?: number;
  /** Failures served in order to the next matching requests, before normal answers resume. */
  failNext?: FakeFailure[];
  /** Main requests are accepted but never answered (until close()). */
  hang?: boolean;
  /**
   * The service is down: every request (token and other calls too) loses its connection without an
   * answer, as when its host cannot be reached. Requests are still recorded in `calls`.
   */
  down?: boolean;
  /** OpenAI streaming: delay between SSE chunks. */
  chunkDelayMs?: number;
  /** OpenAI streaming: characters per content chunk (default 12). */
  chunkChars?: number;
  /**
   * OpenAI: reasoning written into the answer before it, as `<think>…</think>` (Qwen3, R1 distills,
   * models behind Ollama/vLLM). Streamed in chunks like the answer, so tags are split across chunks.
   */
  think?: string;
  /** OpenAI: reasoning sent in `reasoning_content` before the answer (DeepSeek, DashScope, Kimi). */
  reasoningContent?: string;
  /**
   * OpenAI: replaces the assistant's answer. Return undefined for the default echo. `callIndex`
   * counts chat requests from 0, so tests can misbehave once and then recover.
   */
  reply?: (request: {
    messages: { role: string; content: string }[];
    body: Record<string, unknown>;
    callIndex: number;
  }) => string | undefined;
}

export interface RecordedCall {
  method: string;
  /** Path without the query string, e.g. '/translate'. */
  path: string;
  /** Path with the query string, as sent. */
  url: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Raw request body. */
  body: string;
  /** The body parsed as JSON (or a form body as an object), when it is one. */
  json?: unknown;
  /** Paragraphs in the request (items of a translate call, numbered segments of a chat call). */
  items: number;
  /** Milliseconds since the fake started, when the request arrived. */
  at: number;
}

export interface FakeServer {
  /** Base URL to give the engine as `endpoint` (OpenAI: the `/v1` base URL to give as `baseUrl`). */
  url: string;
  /**
   * Where another process (a browser test beside the server under test) steers this fake while it
   * runs: `POST {controlUrl}/behaviour` with a JSON FakeBehaviour (what JSON can carry) calls
   * setBehaviour; `GET {controlUrl}/calls` answers `{main}`, the main requests so far. Never part of
   * the service's protocol, never recorded.
   */
  controlUrl: string;
  /** Every request, in arrival order (auth and other calls included). */
  calls: RecordedCall[];
  /** Main requests being handled right now, and the most at any one time since start or resetStats(). */
  readonly inFlight: number;
  readonly maxInFlight: number;
  setBehaviour(behaviour: FakeBehaviour): void;
  /** Clears recorded calls and the in-flight peak. */
  resetStats(): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Streams the answer itself (SSE). */
  stream?: (res: ServerResponse, sleep: (ms: number) => Promise<void>) => Promise<void>;
}

interface FakeSpec {
  /** Whether a request is the service's main call (subject to latency, failures, hang). */
  isMain: (call: RecordedCall) => boolean;
  /** Paragraph count of a main call (for perItemLatencyMs). */
  items: (call: RecordedCall) => number;
  /** The service's error body for a scripted failure without one. */
  errorBody: (status: number) => unknown;
  handle: (call: RecordedCall, behaviour: FakeBehaviour) => Reply;
  /** Path appended to the origin for `url`. */
  basePath?: string;
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw) return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** Path prefix of the control calls (see FakeServer.controlUrl); no real service has it. */
const CONTROL_PATH = '/__fake';

async function startFake(spec: FakeSpec): Promise<FakeServer> {
  const started = Date.now();
  const calls: RecordedCall[] = [];
  let behaviour: FakeBehaviour = {};
  let inFlight = 0;
  let maxInFlight = 0;
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || closed) return resolve();
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const send = (res: ServerResponse, reply: Reply) => {
    if (res.destroyed || res.writableEnded) return;
    const isString = typeof reply.body === 'string';
    const body = reply.body === undefined ? '' : isString ? (reply.body as string) : JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      'content-type': isString ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
      ...reply.headers,
    });
    res.end(body);
  };

  const setBehaviour = (next: FakeBehaviour) => {
    behaviour = { ...behaviour, ...next, failNext: [...(next.failNext ?? behaviour.failNext ?? [])] };
  };
  let mainCalls = 0;
  const control = (req: IncomingMessage, res: ServerResponse, path: string, raw: string) => {
    if (req.method === 'POST' && path === `${CONTROL_PATH}/behaviour`) {
      setBehaviour((parseBody(raw, 'application/json') ?? {}) as FakeBehaviour);
      return send(res, { status: 200, body: { ok: true } });
    }
    if (path === `${CONTROL_PATH}/calls`) return send(res, { status: 200, body: { main: mainCalls } });
    send(res, { status: 404, body: { error: 'unknown control call' } });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (url.pathname.startsWith(`${CONTROL_PATH}/`)) return control(req, res, url.pathname, raw);
        const call: RecordedCall = {
          method: req.method ?? 'GET',
          path: url.pathname,
          url: req.url ?? '/',
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body: raw,
          json: parseBody(raw, req.headers['content-type']),
          items: 0,
          at: Date.now() - started,
        };
        const main = spec.isMain(call);
        if (main) call.items = spec.items(call);
        calls.push(call);
        if (main) mainCalls++;
        if (behaviour.down) return void req.socket.destroy();
        const failures = behaviour.failNext ?? [];
        const at = failures.findIndex((f) => (f.path ? f.path === call.path : main));
        const failure = at === -1 ? undefined : failures.splice(at, 1)[0];
        if (!main && !failure) return send(res, spec.handle(call, behaviour));

        if (main) {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          res.on('close', () => inFlight--);
        }
        if (main && behaviour.hang) return; // held open until the client gives up or close() runs
        if (main) {
          await sleep((behaviour.latencyMs ?? 0) + (behaviour.perItemLatencyMs ?? 0) * Math.max(0, call.items - 1));
        }
        if (failure) {
          return send(res, {
            status: failure.status,
            body: failure.body ?? spec.errorBody(failure.status),
            headers: {
              ...(failure.retryAfter === undefined ? {} : { 'retry-after': String(failure.retryAfter) }),
              ...failure.headers,
            },
          });
        }
        const reply = spec.handle(call, behaviour);
        if (reply.stream) {
          if (res.destroyed) return;
          res.writeHead(reply.status, {
            'content-type': 'text/event-stream',
            'cache-control': 'no-cache',
            ...reply.headers,
          });
          await reply.stream(res, sleep);
          if (!res.writableEnded) res.end();
          return;
        }
        send(res, reply);
      })().catch((err: unknown) => {
        if (!res.headersSent) send(res, { status: 500, body: { error: { message: String(err) } } });
        else res.destroy();
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${spec.basePath ?? ''}`,
    controlUrl: `http://127.0.0.1:${port}${CONTROL_PATH}`,
    calls,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    setBehaviour,
    resetStats() {
      calls.length = 0;
      mainCalls = 0;
      maxInFlight = inFlight;
    },
    close: async () => {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Adds members to a fake, keeping getters live (Object.assign would freeze their current value). */
function extend<T extends object, U extends object>(target: T, extra: U): T & U {
  return Object.defineProperties(target, Object.getOwnPropertyDescriptors(extra)) as T & U;
}

function jsonObject(call: RecordedCall): Record<string, unknown> {
  return call.json && typeof call.json === 'object' && !Array.isArray(call.json)
    ? (call.json as Record<string, unknown>)
    : {};
}

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined ? [] : [String(value)];
}

// ---------------------------------------------------------------------------------------------
// Microsoft Translator v3 (keyless Edge token + key mode)

export interface FakeMicrosoftOptions {
  /** When set, key mode accepts only this Ocp-Apim-Subscription-Key. */
  key?: string;
  /** Lifetime of issued tokens (the real Edge token lives 600 s). */
  tokenTtlSeconds?: number;
}

export interface FakeMicrosoft extends FakeServer {
  /** Tokens handed out by GET /translate/auth so far. */
  readonly tokensIssued: number;
  /** Revokes every issued token: the next translate call answers 401 as a real expiry would. */
  expireTokens(): void;
}

const MS_LANGUAGES = new Set(
  [
    'en zh-Hans zh-Hant hi es ar fr bn ru pt id ur de ja pa vi mr ko fa tr ta sw it nl da',
    // Some of the languages beyond the 26 the real service knows (it has no Latin, for one).
    'af bg ca cs cy el et fi ga he hr hu hy is ka kk lt lv mk ms mt nb pl ro sk sl sq sr-Cyrl sv th uk',
  ]
    .join(' ')
    .split(' '),
);

const MS_PATHS = new Set(['/translate', '/dictionary/lookup', '/dictionary/examples', '/transliterate']);

/**
 * The dictionary and transliteration calls (authorised like /translate): a word's translations are
 * `[<to>] <word>` (a noun) and `[<to>] <word> (2)` (a verb), its example "An example with <word>.",
 * its romanisation `[Latn] <word>`. A word starting with "zz" is not in the dictionary. Like the real
 * service, the dictionary only pairs English with another language.
 */
function fakeMicrosoftDictionary(
  call: RecordedCall,
  msError: (status: number, code: number, message: string) => Reply,
): Reply {
  if (!Array.isArray(call.json)) return msError(400, 400074, 'The body of the request is not valid JSON.');
  const items = call.json as { Text?: unknown; Translation?: unknown }[];
  if (call.path === '/transliterate') {
    if (!call.query.language || !call.query.fromScript || call.query.toScript !== 'Latn')
      return msError(400, 400019, 'One of the specified script is not supported.');
    return { status: 200, body: items.map((item) => ({ text: `[Latn] ${String(item.Text ?? '')}`, script: 'Latn' })) };
  }
  const from = call.query.from ?? '';
  const to = call.query.to ?? '';
  if (!MS_LANGUAGES.has(from) || !MS_LANGUAGES.has(to) || (from !== 'en' && to !== 'en') || from === to)
    return msError(400, 400036, 'The target language is not valid.');
  if (call.path === '/dictionary/lookup') {
    return {
      status: 200,
      body: items.map((item) => {
        const word = String(item.Text ?? '');
        const known = !word.toLowerCase().startsWith('zz');
        return {
          normalizedSource: word.toLowerCase(),
          displaySource: word,
          translations: known
            ? [
                {
                  normalizedTarget: `[${to}] ${word}`,
                  displayTarget: `[${to}] ${word}`,
                  posTag: 'NOUN',
                  confidence: 0.6,
                },
                {
                  normalizedTarget: `[${to}] ${word} (2)`,
                  displayTarget: `[${to}] ${word} (2)`,
                  posTag: 'VERB',
                  confidence: 0.4,
                },
              ]
            : [],
        };
      }),
    };
  }
  return {
    status: 200,
    body: items.map((item) => ({
      normalizedSource: String(item.Text ?? ''),
      normalizedTarget: String(item.Translation ?? ''),
      examples: [
        {
          sourcePrefix: 'An example with ',
          sourceTerm: String(item.Text ?? ''),
          sourceSuffix: '.',
          targetPrefix: `[${to}] An example with `,
          targetTerm: String(item.Translation ?? ''),
          targetSuffix: '.',
        },
      ],
    })),
  };
}

/**
 * Microsoft's dynamic dictionary as the service documents it: with English on one side and an
 * explicit source language, `<mstrans:dictionary translation="X">term</mstrans:dictionary>` comes back
 * as X; otherwise the markup is dropped and the term translated like any text.
 */
function applyDynamicDictionary(text: string, from: string | undefined, to: string): string {
  const applies = from !== undefined && (from === 'en' || to === 'en');
  return text.replace(
    /<mstrans:dictionary translation="([^"]*)">([\s\S]*?)<\/mstrans:dictionary>/g,
    (_m, translation: string, term: string) => (applies ? translation : term),
  );
}

export async function startFakeMicrosoft(options: FakeMicrosoftOptions = {}): Promise<FakeMicrosoft> {
  const valid = new Set<string>();
  let issued = 0;
  const msError = (status: number, code: number, message: string): Reply => ({
    status,
    body: { error: { code, message } },
  });
  const fake = await startFake({
    isMain: (c) => c.method === 'POST' && c.path === '/translate',
    items: (c) => (Array.isArray(c.json) ? c.json.length : 0),
    errorBody: (status) => ({
      error: {
        code: status * 1000 + 1,
        message:
          status === 429
            ? 'The server rejected the request because the client has exceeded request limits.'
            : status === 401
              ? 'The request is not authorized because credentials are missing or invalid.'
              : 'An unexpected error occurred.',
      },
    }),
    handle: (call) => {
      if (call.method === 'GET' && call.path === '/translate/auth') {
        issued++;
        const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
        const payload = Buffer.from(
          JSON.stringify({
            region: 'global',
            'subscription-id': 'fake',
            n: issued,
            exp: Math.floor(Date.now() / 1000) + (options.tokenTtlSeconds ?? 600),
          }),
        ).toString('base64url');
        const token = `${header}.${payload}.fake-signature-${issued}`;
        valid.add(token);
        return { status: 200, body: token };
      }
      if (call.method !== 'POST' || !MS_PATHS.has(call.path))
        return msError(404, 404001, 'The requested resource was not found.');
      if (call.query['api-version'] !== '3.0')
        return msError(400, 400021, 'The API version parameter is missing or invalid.');
      const auth = call.headers.authorization;
      const key = call.headers['ocp-apim-subscription-key'];
      if (typeof auth === 'string' && auth.startsWith('Bearer ')) {
        const token = auth.slice(7);
        const exp = (
          JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString() || '{}') as { exp?: number }
        ).exp;
        if (!valid.has(token) || (exp ?? 0) * 1000 < Date.now()) {
          return msError(401, 401000, 'The request is not authorized because credentials are missing or invalid.');
        }
      } else if (typeof key === 'string') {
        if (options.key !== undefined && key !== options.key) {
          return msError(401, 401000, 'The request is not authorized because credentials are missing or invalid.');
        }
      } else {
        return msError(401, 401000, 'The request is not authorized because credentials are missing or invalid.');
      }
      if (call.path !== '/translate') return fakeMicrosoftDictionary(call, msError);
      const to = call.query.to ?? '';
      const from = call.query.from;
      if (!MS_LANGUAGES.has(to)) return msError(400, 400036, 'The target language is not valid.');
      if (from !== undefined && !MS_LANGUAGES.has(from))
        return msError(400, 400035, 'The source language is not valid.');
      if (!Array.isArray(call.json)) return msError(400, 400074, 'The body of the request is not valid JSON.');
      const items = call.json as { Text?: unknown }[];
      if (items.length > 1000) return msError(400, 400077, 'The maximum request size has been exceeded.');
      return {
        status: 200,
        body: items.map((item) => ({
          ...(from === undefined ? { detectedLanguage: { language: 'en', score: 1 } } : {}),
          translations: [{ text: `[${to}] ${applyDynamicDictionary(String(item.Text ?? ''), from, to)}`, to }],
        })),
      };
    },
  });
  return extend(fake, {
    get tokensIssued() {
      return issued;
    },
    expireTokens() {
      valid.clear();
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Google: keyless translate_a/single (client=gtx) and Cloud Translation v2

export interface FakeGoogleOptions {
  /** When set, v2 accepts only this key. */
  key?: string;
}

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeServer> {
  const v2Error = (status: number, message: string, reason: string): Reply => ({
    status,
    body: {
      error: { code: status, message, errors: [{ message, domain: 'global', reason }], status: 'INVALID_ARGUMENT' },
    },
  });
  const params = (c: RecordedCall): Record<string, string> => ({
    ...c.query,
    ...(c.json && typeof c.json === 'object' && !Array.isArray(c.json) ? (c.json as Record<string, string>) : {}),
  });
  return startFake({
    isMain: (c) => c.path === '/translate_a/single' || c.path === '/language/translate/v2',
    items: (c) => (c.path === '/language/translate/v2' ? asList(jsonObject(c).q).length : 1),
    errorBody: (status) =>
      status === 429
        ? '<html><body>Too Many Requests</body></html>'
        : { error: { code: status, message: `Fake failure ${status}`, errors: [{ reason: 'backendError' }] } },
    handle: (call) => {
      if (call.path === '/translate_a/single') {
        const p = params(call);
        if (p.client !== 'gtx' || !p.tl || p.q === undefined) return { status: 400, body: 'Bad Request' };
        // The real endpoint answers sentence by sentence; the client must join them.
        const pieces = p.q.match(/[^.!?]+[.!?]*\s*|[.!?]+\s*/g) ?? [p.q];
        const sentences = pieces.map((s, i) => [i === 0 ? `[${p.tl}] ${s}` : s, s, null, null, 10]);
        return {
          status: 200,
          body: [sentences, null, p.sl === 'auto' || !p.sl ? 'en' : p.sl, null, null, null, 1, []],
        };
      }
      if (call.path === '/language/translate/v2' && call.method === 'POST') {
        if (options.key !== undefined && call.query.key !== options.key) {
          return v2Error(400, 'API key not valid. Please pass a valid API key.', 'badRequest');
        }
        const body = jsonObject(call);
        const target = typeof body.target === 'string' ? body.target : '';
        if (!target) return v2Error(400, 'Required Text', 'required');
        const q = asList(body.q);
        if (q.length > 128) return v2Error(400, 'Too many text segments', 'invalid');
        return {
          status: 200,
          body: {
            data: {
              translations: q.map((text) => ({
                translatedText: `[${target}] ${text}`,
                ...(body.source ? {} : { detectedSourceLanguage: 'en' }),
              })),
            },
          },
        };
      }
      return { status: 404, body: 'Not Found' };
    },
  });
}

// ---------------------------------------------------------------------------------------------
// DeepL API v2

export interface FakeDeeplOptions {
  /** When set, only this key is accepted (403 otherwise). */
  key?: string;
  /** Characters allowed before 456 "Quota exceeded" (the free plan has 500,000 a month). */
  quotaCharacters?: number;
}

export async function startFakeDeepl(options: FakeDeeplOptions = {}): Promise<FakeServer & { charactersUsed: number }> {
  let used = 0;
  const fake = await startFake({
    isMain: (c) => c.path === '/v2/translate',
    items: (c) => asList(jsonObject(c).text).length,
    errorBody: (status) =>
      status === 456
        ? { message: 'Quota exceeded' }
        : status === 429
          ? { message: 'Too many requests, DeepL servers are currently experiencing high load' }
          : { message: `Fake failure ${status}` },
    handle: (call) => {
      if (call.path !== '/v2/translate' || call.method !== 'POST')
        return { status: 404, body: { message: 'Not found' } };
      const auth = call.headers.authorization;
      const key = typeof auth === 'string' && auth.startsWith('DeepL-Auth-Key ') ? auth.slice(15) : undefined;
      if (!key || (options.key !== undefined && key !== options.key)) {
        return { status: 403, body: { message: 'Authorization failure, check auth_key' } };
      }
      const body = jsonObject(call);
      const texts = asList(body.text);
      const target = typeof body.target_lang === 'string' ? body.target_lang : '';
      if (!target) return { status: 400, body: { message: "Value for 'target_lang' not supported." } };
      if (texts.length === 0) return { status: 400, body: { message: "Parameter 'text' not specified." } };
      if (texts.length > 50) return { status: 413, body: { message: 'Request Entity Too Large' } };
      const chars = texts.reduce((n, t) => n + [...t].length, 0);
      if (options.quotaCharacters !== undefined && used + chars > options.quotaCharacters) {
        return { status: 456, body: { message: 'Quota exceeded' } };
      }
      used += chars;
      const source = typeof body.source_lang === 'string' ? body.source_lang : 'EN';
      return {
        status: 200,
        body: { translations: texts.map((t) => ({ detected_source_language: source, text: `[${target}] ${t}` })) },
      };
    },
  });
  return extend(fake, {
    get charactersUsed() {
      return used;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// LibreTranslate

export interface FakeLibreTranslateOptions {
  /** When set, requests must carry this api_key. */
  key?: string;
  /** Installed language codes (default: a typical Argos set). */
  languages?: string[];
}

export async function startFakeLibreTranslate(options: FakeLibreTranslateOptions = {}): Promise<FakeServer> {
  const languages = new Set(
    options.languages ?? 'en zh zt hi es ar fr bn ru pt id ur de ja vi ko fa tr it nl da'.split(' '),
  );
  return startFake({
    isMain: (c) => c.path === '/translate' && c.method === 'POST',
    items: (c) => asList(jsonObject(c).q).length,
    errorBody: (status) => ({ error: status === 429 ? 'Slowdown: 30 per 1 minute' : `Fake failure ${status}` }),
    handle: (call) => {
      if (call.path === '/languages') {
        return { status: 200, body: [...languages].map((code) => ({ code, name: code, targets: [...languages] })) };
      }
      if (call.path !== '/translate' || call.method !== 'POST') return { status: 404, body: { error: 'Not Found' } };
      const body = jsonObject(call);
      if (options.key !== undefined && body.api_key !== options.key) {
        return { status: 403, body: { error: 'Invalid API key' } };
      }
      const source = String(body.source ?? '');
      const target = String(body.target ?? '');
      if (!languages.has(target)) return { status: 400, body: { error: `${target} is not supported` } };
      if (source !== 'auto' && !languages.has(source))
        return { status: 400, body: { error: `${source} is not supported` } };
      const single = !Array.isArray(body.q);
      const q = asList(body.q);
      const out = q.map((t) => `[${target}] ${t}`);
      const detected = { confidence: 90, language: 'en' };
      return {
        status: 200,
        body: {
          translatedText: single ? out[0] : out,
          ...(source === 'auto' ? { detectedLanguage: single ? detected : q.map(() => detected) } : {}),
        },
      };
    },
  });
}

// ---------------------------------------------------------------------------------------------
// OpenAI-compatible chat completions (JSON and SSE streaming)

export interface FakeOpenAiOptions {
  /** When set, only `Authorization: Bearer <key>` is accepted. */
  key?: string;
}

const SEGMENT_RE = /\[\[(\d+)\]\] ?/g;

/** Splits a `[[n]] text` user message into its numbered segments. */
function segmentsOf(content: string): { n: number; text: string }[] {
  const found = [...content.matchAll(SEGMENT_RE)];
  return found.map((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = i + 1 < found.length ? (found[i + 1]?.index ?? content.length) : content.length;
    return { n: Number(m[1]), text: content.slice(start, end).replace(/\n$/, '') };
  });
}

function messagesOf(call: RecordedCall): { role: string; content: string }[] {
  const messages = jsonObject(call).messages;
  return Array.isArray(messages)
    ? messages.map((m: { role?: unknown; content?: unknown }) => ({
        role: String(m.role),
        content: String(m.content ?? ''),
      }))
    : [];
}

/**
 * The default answer: a translation request (numbered segments) is echoed segment by segment,
 * prefixed with the target language named in the system prompt ("... into Simplified Chinese.");
 * anything else is echoed as `Echo: <last user message>`.
 */
export function fakeOpenAiAnswer(messages: { role: string; content: string }[]): string {
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const segments = segmentsOf(user);
  if (segments.length === 0) return `Echo: ${user}`;
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const target = /into ([^.\n]+?)\./.exec(system)?.[1] ?? 'target';
  return segments.map((s) => `[[${s.n}]] [${target}] ${s.text}`).join('\n');
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeServer> {
  let chatCalls = 0;
  const isChat = (c: RecordedCall) => c.method === 'POST' && /^(\/v1)?\/chat\/completions$/.test(c.path);
  return startFake({
    basePath: '/v1',
    isMain: isChat,
    items: (c) =>
      Math.max(1, segmentsOf([...messagesOf(c)].reverse().find((m) => m.role === 'user')?.content ?? '').length),
    errorBody: (status) => ({
      error: {
        message:
          status === 429
            ? 'Rate limit reached for requests'
            : status === 401
              ? 'Incorrect API key provided'
              : 'The server had an error while processing your request.',
        type: status === 429 ? 'requests' : status === 401 ? 'invalid_request_error' : 'server_error',
        param: null,
        code: status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_api_key' : null,
      },
    }),
    handle: (call, behaviour) => {
      if (call.method === 'GET' && /^(\/v1)?\/models$/.test(call.path)) {
        return {
          status: 200,
          body: { object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'fake' }] },
        };
      }
      if (!isChat(call))
        return { status: 404, body: { error: { message: 'Not found', type: 'invalid_request_error' } } };
      if (options.key !== undefined && call.headers.authorization !== `Bearer ${options.key}`) {
        return {
          status: 401,
          body: {
            error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
          },
        };
      }
      const body = jsonObject(call);
      const messages = messagesOf(call);
      if (typeof body.model !== 'string' || messages.length === 0) {
        return {
          status: 400,
          body: { error: { message: 'model and messages are required', type: 'invalid_request_error' } },
        };
      }
      const callIndex = chatCalls++;
      const answer = behaviour.reply?.({ messages, body, callIndex }) ?? fakeOpenAiAnswer(messages);
      const content = behaviour.think === undefined ? answer : `<think>${behaviour.think}</think>\n\n${answer}`;
      const reasoning = behaviour.reasoningContent;
      const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
      const usage = {
        prompt_tokens: Math.ceil(promptChars / 4),
        completion_tokens: Math.ceil(content.length / 4),
        total_tokens: Math.ceil(promptChars / 4) + Math.ceil(content.length / 4),
      };
      const id = `chatcmpl-fake-${callIndex}`;
      const created = Math.floor(Date.now() / 1000);
      if (body.stream !== true) {
        return {
          status: 200,
          body: {
            id,
            object: 'chat.completion',
            created,
            model: body.model,
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content,
                  ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
                },
                finish_reason: 'stop',
              },
            ],
            usage,
          },
        };
      }
      const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
      return {
        status: 200,
        stream: async (res, sleep) => {
          const size = Math.max(1, behaviour.chunkChars ?? 12);
          const chunk = (delta: Record<string, unknown>, finish: string | null) =>
            `data: ${JSON.stringify({
              id,
              object: 'chat.completion.chunk',
              created,
              model: body.model,
              choices: [{ index: 0, delta, finish_reason: finish }],
              ...(includeUsage ? { usage: null } : {}),
            })}\n\n`;
          res.write(chunk({ role: 'assistant', content: '' }, null));
          for (let i = 0; i < (reasoning ?? '').length; i += size) {
            await sleep(behaviour.chunkDelayMs ?? 0);
            if (res.destroyed) return;
            res.write(chunk({ content: null, reasoning_content: reasoning!.slice(i, i + size) }, null));
          }
          for (let i = 0; i < content.length; i += size) {
            await sleep(behaviour.chunkDelayMs ?? 0);
            if (res.destroyed) return;
            res.write(chunk({ content: content.slice(i, i + size) }, null));
          }
          res.write(chunk({}, 'stop'));
          if (includeUsage) {
            res.write(
              `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`,
            );
          }
          res.write('data: [DONE]\n\n');
          res.end();
        },
      };
    },
  });
}
