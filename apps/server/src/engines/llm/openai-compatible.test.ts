import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../translation/errors.ts';
import { startFakeOpenAi } from '../translation/testing/fake-servers.ts';
import type { FakeServer } from '../translation/testing/fake-servers.ts';
import { createLlmClient } from './openai-compatible.ts';
import type { ChatStreamEvent } from './types.ts';

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Explain the word "serendipity" in simple terms, please.' },
];

describe('OpenAI-compatible client', () => {
  let fake: FakeServer;
  beforeEach(async () => {
    fake = await startFakeOpenAi({ key: 'sk-test' });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('complete(): posts /chat/completions and reports text, model and usage', async () => {
    const client = createLlmClient({ baseUrl: fake.url, apiKey: 'sk-test', model: 'qwen-plus' });
    const result = await client.complete(messages, { temperature: 0.2, maxTokens: 100, responseFormat: 'json' });
    expect(result.text).toBe(`Echo: ${messages[1]?.content}`);
    expect(result.model).toBe('qwen-plus');
    const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
    expect(result.usage).toEqual({
      promptTokens: Math.ceil(promptChars / 4),
      completionTokens: Math.ceil(result.text.length / 4),
    });
    const call = fake.calls[0];
    expect(call?.path).toBe('/v1/chat/completions');
    expect(call?.headers.authorization).toBe('Bearer sk-test');
    expect(call?.json).toEqual({
      model: 'qwen-plus',
      messages,
      temperature: 0.2,
      max_tokens: 100,
      response_format: { type: 'json_object' },
    });
  });

  it('stream(): deltas arrive in order, then one done with usage', async () => {
    fake.setBehaviour({ chunkChars: 5, chunkDelayMs: 1 });
    const client = createLlmClient({ baseUrl: `${fake.url}/`, apiKey: 'sk-test', model: 'm' });
    const events: ChatStreamEvent[] = [];
    for await (const event of client.stream(messages)) events.push(event);
    const deltas = events.flatMap((e) => ('delta' in e ? [e.delta] : []));
    const expected = `Echo: ${messages[1]?.content}`;
    expect(deltas.length).toBe(Math.ceil(expected.length / 5));
    expect(deltas.join('')).toBe(expected);
    expect(events.at(-1)).toEqual({
      done: true,
      finishReason: 'stop',
      usage: { promptTokens: expect.any(Number), completionTokens: Math.ceil(expected.length / 4) },
    });
    expect(events.filter((e) => 'done' in e)).toHaveLength(1);
    expect(fake.calls[0]?.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('stream(): breaking out of the loop closes the request', async () => {
    fake.setBehaviour({ chunkChars: 1, chunkDelayMs: 5 });
    const client = createLlmClient({ baseUrl: fake.url, apiKey: 'sk-test', model: 'm' });
    let seen = 0;
    for await (const event of client.stream(messages)) {
      if ('delta' in event) seen++;
      if (seen === 3) break;
    }
    expect(seen).toBe(3);
    for (let i = 0; i < 100 && fake.inFlight > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fake.inFlight).toBe(0);
  });

  it('stream(): an error event mid-stream becomes an EngineError', async () => {
    // A gateway that reports an upstream failure inside the SSE stream.
    await fake.close();
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n');
      res.write(': keep-alive\n\n');
      res.end('data: {"error":{"message":"upstream overloaded","code":503}}\n\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const client = createLlmClient({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' });
    const deltas: string[] = [];
    const err = await (async () => {
      for await (const e of client.stream(messages)) if ('delta' in e) deltas.push(e.delta);
    })().catch((e: unknown) => e);
    server.close();
    expect(deltas).toEqual(['Hel']);
    expect(err).toMatchObject({ engine: 'llm', kind: 'server', status: 503, message: 'upstream overloaded' });
  });

  it('maps errors: auth, rate limit with Retry-After, quota, server, time-out, abort', async () => {
    const bad = createLlmClient({ baseUrl: fake.url, apiKey: 'wrong', model: 'm' });
    await expect(bad.complete(messages)).rejects.toMatchObject({ engine: 'llm', kind: 'auth', status: 401 });

    const client = createLlmClient({ baseUrl: fake.url, apiKey: 'sk-test', model: 'm', timeoutMs: 100 });
    fake.setBehaviour({ failNext: [{ status: 429, retryAfter: 0.5 }] });
    await expect(client.complete(messages)).rejects.toMatchObject({ kind: 'rateLimited', retryAfterMs: 500 });

    fake.setBehaviour({
      failNext: [
        { status: 429, body: { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } } },
      ],
    });
    await expect(client.complete(messages)).rejects.toMatchObject({ kind: 'quota', retryable: false });

    fake.setBehaviour({ failNext: [{ status: 500 }] });
    await expect(client.stream(messages)[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      kind: 'server',
      retryable: true,
    });

    fake.setBehaviour({ hang: true });
    await expect(client.complete(messages)).rejects.toMatchObject({ kind: 'timeout' });
    const controller = new AbortController();
    const pending = client.complete(messages, { signal: controller.signal });
    controller.abort();
    const aborted = (await pending.catch((e: unknown) => e)) as EngineError;
    expect(aborted).toBeInstanceOf(EngineError);
    expect(aborted.kind).toBe('aborted');
    const withReason = new AbortController();
    const pendingStream = client.stream(messages, { signal: withReason.signal })[Symbol.asyncIterator]().next();
    withReason.abort('the reader closed the page');
    await expect(pendingStream).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('reports a refused connection as network', async () => {
    await fake.close();
    const client = createLlmClient({ baseUrl: fake.url, model: 'm' });
    await expect(client.complete(messages)).rejects.toMatchObject({ kind: 'network', retryable: true });
  });
});

describe('OpenAI-compatible client and reasoning models', () => {
  let fake: FakeServer;
  beforeEach(async () => {
    fake = await startFakeOpenAi();
  });
  afterEach(async () => {
    await fake.close();
  });
  const expected = `Echo: ${messages[1]?.content}`;

  it('complete(): a <think> block or reasoning_content is never part of the text', async () => {
    fake.setBehaviour({ think: 'The user wants a definition. Keep it short.', reasoningContent: 'Hidden steps.' });
    const client = createLlmClient({ baseUrl: fake.url, model: 'qwen3:8b' });
    expect((await client.complete(messages)).text).toBe(expected);
  });

  it('stream(): <think> split across chunks and reasoning_content deltas are never yielded', async () => {
    fake.setBehaviour({ think: 'Step one. Step two.', reasoningContent: 'Reasoning field.', chunkChars: 3 });
    const client = createLlmClient({ baseUrl: fake.url, model: 'qwen3:8b' });
    const deltas: string[] = [];
    for await (const event of client.stream(messages)) if ('delta' in event) deltas.push(event.delta);
    expect(deltas.join('')).toBe(expected);
    expect(deltas.some((d) => /think|Step|Reasoning/.test(d))).toBe(false);
  });

  it('turns thinking off with the parameter of the service behind the URL', async () => {
    const qwen = createLlmClient({ baseUrl: fake.url, model: 'qwen-plus', provider: 'qwen' });
    await qwen.complete(messages, { temperature: 0.3 });
    expect(fake.calls[0]?.json).toMatchObject({ model: 'qwen-plus', enable_thinking: false, temperature: 0.3 });
    const kimi = createLlmClient({ baseUrl: fake.url, model: 'kimi-k2.5', provider: 'moonshot' });
    for await (const _ of kimi.stream(messages, { temperature: 0.3 })) void _;
    const body = fake.calls[1]?.json as Record<string, unknown>;
    expect(body).toMatchObject({ thinking: { type: 'disabled' }, stream: true });
    expect(body).not.toHaveProperty('temperature');
    const plain = createLlmClient({ baseUrl: fake.url, model: 'fake-chat' });
    await plain.complete(messages);
    expect(Object.keys(fake.calls[2]?.json as object).sort()).toEqual(['messages', 'model']);
  });
});
