import { countTokens } from 'gpt-tokenizer';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_TOKEN_BUDGET } from '../../engines/translation/llm-segments.ts';
import { startFakeOpenAi, type FakeServer } from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { seedBook } from '../../../test/seed-book.ts';

const PAGES = [
  ['第一章　山中来客', '林冲雪夜上山，遇见了柴进。', '柴进请林冲喝酒，两人说起东京的旧事。'],
  ['第二天，林冲告别柴进，独自下山。', '路上他想起娘子，心中十分难过。'],
  ['林冲来到梁山泊，王伦不肯收留他。', '柴进的书信也没有用。'],
  ['王伦要林冲三天之内交出投名状。', '林冲只好下山等候过路的客人。'],
];

interface Chat {
  messages: { role: string; content: string }[];
}
const chats = (llm: FakeServer) =>
  llm.calls.filter((c) => c.path.endsWith('/chat/completions')).map((c) => c.json as Chat);
const isSummary = (chat: Chat) => chat.messages[0]!.content.includes('running summary');

describe('LLM translation with the glossary and the chapter so far', () => {
  let t: TestApp;
  let llm: FakeServer;
  let owner: string;
  let code: string;
  const page = (n: number) => `/api/reader/getPageData?bookCode=${code}&language=en&page=${n}`;
  async function readWholePage(n: number) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await t.call('GET', page(n), { token: owner });
      if (res.data.blocks.every((b: { status: string }) => b.status !== 'pending')) return res.data;
      if (Date.now() > deadline) throw new Error('page still pending');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    llm = await startFakeOpenAi();
    llm.setBehaviour({
      reply: ({ messages, callIndex }) => {
        const system = messages[0]?.content ?? '';
        if (system.includes('running summary')) return `Summary ${callIndex}: Lin Chong met Chai Jin in the snow.`;
        if (system.includes('"terms"'))
          return JSON.stringify({ terms: [{ source: '王伦', target: 'Wang Lun', note: 'person' }] });
        return undefined;
      },
    });
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      TRANSLATION_ENGINES: 'llm',
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-chat',
    });
    owner = await registerUser(t, 'owner');
    code = await seedBook(t, 'owner', { title: '水浒', language: 'zh', pages: PAGES });
    await t.call('PUT', '/api/book/glossary', {
      token: owner,
      body: {
        bookCode: code,
        language: 'en',
        entries: [
          { source: '林冲', target: 'Lin Chong', note: 'person' },
          { source: '柴进', target: 'Chai Jin', note: 'person' },
          { source: '梁山泊', target: 'Liangshan Marsh', note: 'place' },
        ],
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  /** The next page is prepared ahead through the queue: wait until it is translated, so that pages come in order. */
  async function waitForPrepared(n: number) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = await sql<{ pending: number }>`
        SELECT count(*) FILTER (WHERE t.status IS DISTINCT FROM 'done')::int AS pending
        FROM book_blocks b JOIN books k ON k.id = b.book_id
        LEFT JOIN book_translations t ON t.book_id = b.book_id AND t.seq = b.seq AND t.target_lang = 'en'
        WHERE k.code = ${code} AND b.page = ${n}`.execute(t.running.infra.db);
      if (rows[0]!.pending === 0) return;
      if (Date.now() > deadline) throw new Error(`page ${n} was not prepared`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** The translation requests whose segments hold this text. */
  const batchesWith = (text: string) =>
    chats(llm).filter((c) => !isSummary(c) && c.messages[1]!.content.includes(text));

  it('gives each batch its terms, and from the second page on the chapter so far, within the token budget', async () => {
    llm.resetStats();
    await readWholePage(1);
    await waitForPrepared(2);
    await readWholePage(2);
    await waitForPrepared(3);
    await readWholePage(3);
    await waitForPrepared(4);
    await readWholePage(4);

    // The chapter's first page: terms of each batch only (the heading holds none; 梁山泊 is not on the page).
    const first = [...batchesWith('林冲雪夜上山'), ...batchesWith('山中来客')].map((c) => c.messages[0]!.content);
    expect(first.some((s) => s.includes('Terms: 林冲 = Lin Chong; 柴进 = Chai Jin'))).toBe(true);
    expect(first.every((s) => !s.includes('梁山泊') && !s.includes('Story so far'))).toBe(true);

    // A summary every other page: page 1 for pages 2 and 3, then pages 2 and 3 folded into it for page 4.
    const summaries = chats(llm).filter(isSummary);
    expect(summaries).toHaveLength(2);
    expect(summaries[0]!.messages[1]!.content).toMatch(/^Next part of the chapter:\n第一章/);
    expect(summaries[0]!.messages[0]!.content).toContain('林冲 = Lin Chong');
    expect(summaries[1]!.messages[1]!.content).toMatch(/^Summary so far: Summary \d+: Lin Chong met Chai Jin/);
    expect(summaries[1]!.messages[1]!.content).toContain('林冲告别柴进');
    expect(summaries[1]!.messages[1]!.content).toContain('王伦不肯收留他');

    for (const text of ['林冲告别柴进', '王伦不肯收留他', '交出投名状']) {
      const [batch] = batchesWith(text);
      const system = batch!.messages[0]!.content;
      expect(system).toMatch(/Story so far \(context only, do not translate\): Summary \d+: Lin Chong met Chai Jin/);
      expect(countTokens(system.split('\n').slice(1).join('\n'))).toBeLessThanOrEqual(CONTEXT_TOKEN_BUDGET);
    }
    expect(batchesWith('王伦不肯收留他')[0]!.messages[0]!.content).toContain(
      'Terms: 林冲 = Lin Chong; 梁山泊 = Liangshan Marsh',
    );
  });

  it("names things as the glossary does in the AI aids' prompts", async () => {
    llm.resetStats();
    const res = await t.call('POST', '/api/reader/ai/explain', {
      token: owner,
      body: { bookCode: code, blockId: 'c1-b2', selection: '林冲雪夜上山', language: 'en', advanced: false },
    });
    expect(res.status).toBe(200);
    const prompt = chats(llm)[0]!.messages[1]!.content;
    expect(prompt).toContain(
      "Names and terms as this book's translation renders them: 林冲 = Lin Chong; 柴进 = Chai Jin",
    );
  });

  it('lets the model propose names and terms, keeping what the owner wrote', async () => {
    const res = await t.call('POST', '/api/book/glossary/extract', {
      token: owner,
      body: { bookCode: code, language: 'en' },
    });
    const entries = Object.fromEntries(
      res.data.entries.map((e: { source: string; origin: string }) => [e.source, e.origin]),
    );
    expect(entries).toEqual({ 林冲: 'owner', 柴进: 'owner', 梁山泊: 'owner', 王伦: 'extracted' });
  });
});
