/**
 * Translation path benchmark (issue 4): a real Yidu (embedded PostgreSQL, API + worker) translating
 * cold pages of a real book through fake engines with a fixed latency (300 ms per request + 50 ms per
 * extra paragraph). Reports, against the engine's own single-request latency measured in the same run:
 * time to the first translated paragraph at the reader (SSE), time to the whole page, engine requests
 * per page, and prompt tokens per source token for the LLM engine.
 *
 *   node bench/translate.ts        (from the repository root; needs ../shared/corpus)
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { boot } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { createLogger } from '../apps/server/src/lib/logger.ts';
import { countTokens } from 'gpt-tokenizer';
import {
  startFakeMicrosoft,
  startFakeOpenAi,
  type FakeServer,
} from '../apps/server/src/engines/translation/testing/fake-servers.ts';

const root = path.resolve(import.meta.dirname, '..');
const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(root, '../shared/corpus');
const LATENCY = { latencyMs: 300, perItemLatencyMs: 50 };
const PAGES = [12, 24, 36, 48, 60];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function json(url: string, init: RequestInit = {}, token?: string) {
  const res = await fetch(url, {
    ...init,
    headers: {
      ...(init.headers ?? {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
    },
  });
  const body = (await res.json()) as { code: number; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (body.code !== 0) throw new Error(`${url}: ${JSON.stringify(body)}`);
  return body.data;
}

/** Reads a page's event stream; returns when the first block arrived and when the page completed. */
async function streamPage(
  base: string,
  token: string,
  code: string,
  page: number,
): Promise<{ firstMs: number; completeMs: number }> {
  const started = performance.now();
  const res = await fetch(`${base}/api/reader/events?bookCode=${code}&language=zh&page=${page}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let firstMs = -1;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    if (firstMs < 0 && buffer.includes('event: block')) firstMs = performance.now() - started;
    if (buffer.includes('event: complete')) {
      await reader.cancel();
      return { firstMs, completeMs: performance.now() - started };
    }
  }
  throw new Error('stream ended early');
}

async function singleRequestMs(
  fake: FakeServer,
  pathName: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await fetch(`${fake.url}${pathName}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    runs.push(performance.now() - started);
  }
  return median(runs);
}

async function run(engine: 'microsoft' | 'llm') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-bench-'));
  const logger = createLogger('warn', 'bench');
  const pg = await startEmbeddedPostgres({ dataDir, port: 20000 + Math.floor(Math.random() * 20000), logger });
  const microsoft = await startFakeMicrosoft();
  const openai = await startFakeOpenAi();
  microsoft.setBehaviour(LATENCY);
  openai.setBehaviour(LATENCY);
  const loaded = loadConfig(
    {
      DATABASE_URL: pg.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      WEB_DIST_DIR: dataDir,
      TRANSLATION_ENGINES: engine,
      MICROSOFT_TRANSLATOR_ENDPOINT: microsoft.url,
      LLM_BASE_URL: openai.url,
      LLM_MODEL: 'bench-model',
      RATE_LIMIT_PER_MINUTE: '100000',
    },
    'all',
    'bench',
  );
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  const yidu = await boot(loaded.config, logger);
  await yidu.app!.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(yidu.app!.server.address() as { port: number }).port}`;
  try {
    const { token } = await json(`${base}/api/auth/register`, {
      method: 'POST',
      body: JSON.stringify({ method: 'email', email: 'bench@example.com', password: 'Bench2026pass' }),
    });
    const form = new FormData();
    form.append(
      'file',
      new Blob([await readFile(path.join(corpus, 'txt/en-pride-and-prejudice-cp1252-crlf.txt'))]),
      'pride.txt',
    );
    const { fileId } = await json(`${base}/api/book/upload`, { method: 'POST', body: form }, token);
    const { requestId } = await json(
      `${base}/api/book/saveNew`,
      {
        method: 'POST',
        body: JSON.stringify({
          fileId,
          bookName: 'Pride and Prejudice',
          bookStatus: 1,
          language: 'zh',
          originalLanguage: 'en',
        }),
      },
      token,
    );
    let bookCode = '';
    for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
      for (;;) {
        const state = await json(`${base}/api/book/${stage}?requestId=${requestId}`, {}, token);
        if (state.status === 'running') {
          await new Promise((r) => setTimeout(r, 200));
          continue;
        }
        if (stage === 'saveBookById') bookCode = state.result.bookCode;
        break;
      }
    }
    const fake = engine === 'llm' ? openai : microsoft;
    const single =
      engine === 'llm'
        ? await singleRequestMs(
            openai,
            '/chat/completions',
            { model: 'x', messages: [{ role: 'user', content: 'Hello' }] },
            {},
          )
        : await singleRequestMs(microsoft, '/translate?api-version=3.0&to=zh-Hans', [{ Text: 'Hello' }], {
            authorization: `Bearer ${await (await fetch(`${microsoft.url}/translate/auth`)).text()}`,
          });
    fake.resetStats();
    const firsts: number[] = [];
    const wholes: number[] = [];
    const requests: number[] = [];
    const ratios: number[] = [];
    for (const page of PAGES) {
      const before = fake.calls.filter((c) => !c.path.includes('/auth')).length;
      const callsBefore = fake.calls.length;
      const { firstMs, completeMs } = await streamPage(base, token, bookCode, page);
      firsts.push(firstMs);
      wholes.push(completeMs);
      // Let the prefetch of the next page finish so that it does not count toward this page.
      await new Promise((r) => setTimeout(r, 2500));
      const pageCalls = fake.calls.slice(callsBefore).filter((c) => !c.path.includes('/auth'));
      requests.push((fake.calls.filter((c) => !c.path.includes('/auth')).length - before) / 2);
      if (engine === 'llm') {
        // Tokens as OpenAI's o200k tokenizer counts them, with the chat format's overhead per message
        // (about 3 tokens each, plus 3 to prime the reply): what an API would bill as prompt tokens.
        let promptTokens = 0;
        let sourceTokens = 0;
        for (const call of pageCalls) {
          const body = call.json as { messages: { role: string; content: string }[] };
          promptTokens += 3 + body.messages.reduce((n, m) => n + 3 + countTokens(m.content), 0);
          const user = body.messages.find((m) => m.role === 'user')!.content;
          sourceTokens += countTokens(user.replace(/\[\[\d+\]\]\s?/g, ''));
        }
        ratios.push(promptTokens / sourceTokens);
      }
    }
    return {
      engine,
      singleMs: single,
      firstParagraphMs: median(firsts),
      wholePageMs: median(wholes),
      firstRatio: median(firsts) / single,
      wholeRatio: median(wholes) / single,
      requestsPerPage: median(requests),
      promptTokensPerSourceToken: ratios.length ? median(ratios) : undefined,
    };
  } finally {
    await yidu.stop();
    await pg.stop();
    await microsoft.close();
    await openai.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const results = [await run('microsoft'), await run('llm')];
const lines = [
  '| engine | single request (reference) | first paragraph | ratio | whole page | ratio | engine requests / page | prompt / source (tokens) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.engine} | ${r.singleMs.toFixed(0)} ms | ${r.firstParagraphMs.toFixed(0)} ms | ${r.firstRatio.toFixed(2)}x | ${r.wholePageMs.toFixed(0)} ms | ${r.wholeRatio.toFixed(2)}x | ${r.requestsPerPage} | ${r.promptTokensPerSourceToken?.toFixed(3) ?? '-'} |`,
  ),
];
console.log(lines.join('\n'));
await mkdir(path.join(root, 'bench/results'), { recursive: true });
await writeFile(
  path.join(root, 'bench/results/translate.json'),
  JSON.stringify({ at: new Date().toISOString(), latency: LATENCY, results }, null, 2),
);
