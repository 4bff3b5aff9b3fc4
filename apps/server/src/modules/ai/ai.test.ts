import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeServer } from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, seedChineseBook, startTestApp, type TestApp } from '../../../test/helpers.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the events hold
type EventData = any;

async function sse(
  t: TestApp,
  path: string,
  token: string,
  body: unknown,
): Promise<{ status: number; events: { event: string; data: EventData }[] }> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as { port: number }).port;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            events: text
              .split('\n\n')
              .filter((e) => e.startsWith('event:'))
              .map((e) => ({ event: /^event: (\w+)/.exec(e)![1]!, data: JSON.parse(e.split('data: ')[1]!) })),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('AI reading aids', () => {
  let t: TestApp;
  let llm: FakeServer;
  let reader: string;
  let other: string;
  let code: string;
  beforeAll(async () => {
    llm = await startFakeOpenAi();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-chat',
    });
    reader = await registerUser(t, 'reader');
    other = await registerUser(t, 'other');
    code = await seedChineseBook(t, 'reader');
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  const expenditures = async (token: string) =>
    (await t.call('GET', '/api/integral/record/list?type=expenditure', { token })).data.items;

  it('streams an explanation with the paragraph as context and charges it when complete', async () => {
    llm.setBehaviour({
      reply: () => '这句话的意思是：作者把真实的经历隐藏起来，借“通灵”的说法写成这部书。',
      chunkChars: 6,
    });
    const res = await sse(t, '/api/reader/ai/explain', reader, {
      bookCode: code,
      blockId: 'c1-b2',
      selection: '将真事隐去',
      language: 'zh',
      requestId: 'req-explain-1',
    });
    expect(res.status).toBe(200);
    const deltas = res.events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(3);
    const done = res.events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data.text).toBe(
      deltas
        .map((d) => d.data.text)
        .join('')
        .trim(),
    );
    expect(done.data.charge).toEqual({ points: 2, charged: true });
    const prompt = JSON.parse(llm.calls.at(-1)!.body);
    expect(prompt.messages[1].content).toContain('此开卷第一回也');
    expect(prompt.messages[0].content).toContain('Answer in Chinese');
    expect((await expenditures(reader)).filter((r: { reason: string }) => r.reason === 'explanation')).toHaveLength(1);

    // The same request id is not charged twice.
    await sse(t, '/api/reader/ai/explain', reader, {
      bookCode: code,
      blockId: 'c1-b2',
      selection: '将真事隐去',
      language: 'zh',
      requestId: 'req-explain-1',
    });
    expect((await expenditures(reader)).filter((r: { reason: string }) => r.reason === 'explanation')).toHaveLength(1);
  });

  it('answers the advanced explanation as JSON when stream=false, at its own price', async () => {
    llm.setBehaviour({ reply: () => 'Meaning in context: ...\nGrammar: ...' });
    const res = await t.call('POST', '/api/reader/ai/explain', {
      token: reader,
      body: {
        bookCode: code,
        blockId: 'c1-b3',
        selection: '列位看官',
        language: 'English',
        advanced: true,
        stream: false,
      },
    });
    expect(res.code).toBe(0);
    expect(res.data).toEqual({ text: 'Meaning in context: ...\nGrammar: ...', charge: { points: 5, charged: true } });
    const prompt = JSON.parse(llm.calls.at(-1)!.body);
    expect(prompt.messages[0].content).toContain('Cultural and historical background');
    expect(prompt.messages[1].content).toContain('Previous paragraph');
  });

  it('rewords a selection more simply, in the language it was written in', async () => {
    llm.setBehaviour({ reply: () => '大家好：你们想知道这本书是怎么来的吗？' });
    const res = await t.call('POST', '/api/reader/ai/restate', {
      token: reader,
      body: {
        bookCode: code,
        blockId: 'c1-b3',
        selection: '列位看官：你道此书从何而来？',
        language: 'en',
        level: 'simple',
        stream: false,
      },
    });
    expect(res.data.text).toContain('这本书');
    expect(JSON.parse(llm.calls.at(-1)!.body).messages[0].content).toContain('Rewrite the selected text in Chinese');
  });

  it('annotates a page once for all readers, anchoring notes to the text', async () => {
    llm.setBehaviour({
      reply: () =>
        JSON.stringify({
          notes: [
            { p: 4, term: '女娲氏炼石补天', kind: 'allusion', note: 'Nüwa mending the sky: a Chinese creation myth.' },
            { p: 9, term: 'x', kind: 'word', note: 'out of range' },
          ],
        }),
    });
    const callsBefore = llm.calls.length;
    const res = await t.call('POST', '/api/reader/ai/annotate', {
      token: reader,
      body: { bookCode: code, page: 1, language: 'en' },
    });
    expect(res.code).toBe(0);
    expect(res.data.annotations).toEqual([
      {
        blockId: 'c1-b4',
        term: '女娲氏炼石补天',
        kind: 'allusion',
        note: 'Nüwa mending the sky: a Chinese creation myth.',
        start: 2,
        end: 9,
      },
    ]);
    expect(res.data.charge).toEqual({ points: 5, charged: true });
    await t.call('POST', '/api/book/user/add', { token: other, body: { bookCode: code } });
    const second = await t.call('POST', '/api/reader/ai/annotate', {
      token: other,
      body: { bookCode: code, page: 1, language: 'en' },
    });
    expect(second.data.annotations).toEqual(res.data.annotations);
    expect(llm.calls.length).toBe(callsBefore + 1);
    expect(second.data.charge.charged).toBe(true);
  });

  it('finds passages by Chinese keywords and answers with citations', async () => {
    const keyword = await t.call('POST', '/api/reader/search', {
      token: reader,
      body: { bookCode: code, language: 'en', query: '通灵' },
    });
    expect(keyword.data.hits.map((h: { blockId: string }) => h.blockId)).toEqual(['c1-b1', 'c1-b2']);
    expect(keyword.data.hits[1].snippet).toContain('通灵');
    expect(keyword.data).toMatchObject({ answer: null, charge: null });

    llm.setBehaviour({
      reply: () => 'The stone comes from the myth of Nüwa [2], and the author hid the true story [1].',
    });
    const ai = await t.call('POST', '/api/reader/search', {
      token: reader,
      body: { bookCode: code, language: 'en', query: '石 通灵', ai: true },
    });
    expect(ai.data.answer.citations).toEqual([
      { n: 2, blockId: ai.data.hits[1].blockId, page: 1 },
      { n: 1, blockId: ai.data.hits[0].blockId, page: 1 },
    ]);
    expect(ai.data.charge).toEqual({ points: 3, charged: true });
  });

  it('charges nothing when the AI service fails', async () => {
    llm.setBehaviour({ failNext: Array.from({ length: 10 }, () => ({ status: 500 })) });
    const before = (await expenditures(reader)).length;
    const res = await t.call('POST', '/api/reader/ai/explain', {
      token: reader,
      body: { bookCode: code, blockId: 'c1-b2', selection: '梦幻', language: 'zh', stream: false },
    });
    expect(res.data.key).toBe('aiUnavailable');
    expect((await expenditures(reader)).length).toBe(before);
    llm.setBehaviour({ failNext: [] });
  });

  it('charges nothing when the reader leaves before the answer is complete', async () => {
    llm.setBehaviour({ reply: () => 'A long answer, streamed slowly. '.repeat(20), chunkChars: 4, chunkDelayMs: 20 });
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const before = (await expenditures(reader)).length;
    await new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/reader/ai/explain',
          method: 'POST',
          headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
        },
        (res) =>
          res.once('data', () => {
            // The first words arrived: the reader closes the card.
            req.destroy();
            resolve();
          }),
      );
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end(JSON.stringify({ bookCode: code, blockId: 'c1-b2', selection: '梦幻', language: 'zh' }));
    });
    const db = t.running.infra.db;
    await expect
      .poll(
        async () =>
          Number(
            (
              await db
                .selectFrom('users')
                .select('points_held')
                .where('account', '=', 'reader')
                .executeTakeFirstOrThrow()
            ).points_held,
          ),
        { timeout: 10_000 },
      )
      .toBe(0);
    expect((await expenditures(reader)).length).toBe(before);
    llm.setBehaviour({});
  });

  it('checks access to the book and the block', async () => {
    const stranger = await registerUser(t, 'stranger');
    await t.call('POST', '/api/book/updateBook', { token: reader, body: { bookCode: code, bookStatus: 0 } });
    await t.call('DELETE', `/api/book/user/${code}`, { token: other });
    expect(
      (
        await t.call('POST', '/api/reader/ai/explain', {
          token: stranger,
          body: { bookCode: code, blockId: 'c1-b2', selection: 'x', language: 'zh', stream: false },
        })
      ).data.key,
    ).toBe('bookNotFound');
    expect(
      (
        await t.call('POST', '/api/reader/ai/explain', {
          token: reader,
          body: { bookCode: code, blockId: 'c9-b9', selection: 'x', language: 'zh', stream: false },
        })
      ).data.key,
    ).toBe('notFound');
  });
});

describe('AI without a configured model', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
  });
  afterAll(async () => t?.close());

  it('answers aiNotConfigured', async () => {
    const token = await registerUser(t, 'plain');
    const code = await seedChineseBook(t, 'plain');
    const res = await t.call('POST', '/api/reader/ai/explain', {
      token,
      body: { bookCode: code, blockId: 'c1-b2', selection: 'x', language: 'zh' },
    });
    expect(res.status).toBe(503);
    expect(res.data.key).toBe('aiNotConfigured');
    // Keyword search needs no model.
    expect(
      (await t.call('POST', '/api/reader/search', { token, body: { bookCode: code, language: 'zh', query: '顽石' } }))
        .data.hits,
    ).toHaveLength(1);
  });
});
