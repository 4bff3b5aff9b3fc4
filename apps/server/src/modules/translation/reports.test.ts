import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeMicrosoft,
  startFakeOpenAi,
  type FakeMicrosoft,
  type FakeServer,
} from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, seedChineseBook, startTestApp, type TestApp } from '../../../test/helpers.ts';

interface Block {
  id: string;
  status: string;
  translation: string | null;
}

describe('reports of wrong translations', () => {
  let t: TestApp;
  let microsoft: FakeMicrosoft;
  let llm: FakeServer;
  let reader: string;
  let other: string;
  let admin: string;
  let code: string;
  const page = (book: string) => `/api/reader/getPageData?bookCode=${book}&language=en&page=1`;
  async function readWholePage(token: string, book: string): Promise<Block[]> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await t.call('GET', page(book), { token });
      if (res.data.blocks.every((b: Block) => b.status !== 'pending')) return res.data.blocks as Block[];
      if (Date.now() > deadline) throw new Error('page still pending');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const report = (token: string, blockId: string) =>
    t.call('POST', '/api/reader/translation/report', { token, body: { bookCode: code, language: 'en', blockId } });

  beforeAll(async () => {
    microsoft = await startFakeMicrosoft();
    llm = await startFakeOpenAi();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: microsoft.url,
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-chat',
      ADMIN_ACCOUNT: 'chief',
      ADMIN_PASSWORD: 'Chief2026pass',
    });
    reader = await registerUser(t, 'reader');
    other = await registerUser(t, 'other');
    admin = (await t.call('POST', '/api/auth/login', { body: { account: 'chief', password: 'Chief2026pass' } })).data
      .token;
    await registerUser(t, 'owner');
    code = await seedChineseBook(t, 'owner');
    await readWholePage(reader, code);
  });
  afterAll(async () => {
    await t?.close();
    await microsoft?.close();
    await llm?.close();
  });

  it('translates a paragraph marked wrong again with the AI model when Microsoft is the only engine, and shows both', async () => {
    const res = await report(reader, 'c1-b2');
    expect(res.data).toMatchObject({
      blockId: 'c1-b2',
      status: 'open',
      original: { engine: 'microsoft', model: 'microsoft-v3' },
      alternative: { engine: 'llm', model: 'fake-chat' },
    });
    expect(res.data.original.translation).toMatch(/^\[en\] 此开卷第一回也/);
    expect(res.data.alternative.translation).toMatch(/^\[English\] 此开卷第一回也/);
    expect((await report(reader, 'c1-b9')).data.key).toBe('notFound');
  });

  it('keeps the chosen one for every reader, and in the memory before the engine the readers prefer', async () => {
    const { data } = await report(reader, 'c1-b3');
    const choose = (token: string, choice: 'original' | 'alternative') =>
      t.call('POST', '/api/reader/translation/choose', { token, body: { id: data.id, choice } });
    expect((await choose(other, 'alternative')).data.key).toBe('notFound');
    const chosen = await choose(reader, 'alternative');
    expect(chosen.data.status).toBe('choseAlternative');
    expect((await choose(reader, 'original')).data.key).toBe('notFound');

    const seen = await readWholePage(other, code);
    expect(seen.find((b) => b.id === 'c1-b3')?.translation).toBe(data.alternative.translation);
    // The same text in another book comes from the memory: the chosen translation, not Microsoft's.
    const copy = await seedChineseBook(t, 'owner');
    microsoft.resetStats();
    const again = await readWholePage(other, copy);
    expect(again.find((b) => b.id === 'c1-b3')?.translation).toBe(data.alternative.translation);
    expect(again.find((b) => b.id === 'c1-b2')?.translation).toMatch(/^\[en\] /);
  });

  it('keeps the original when the reader says so, and lists every report for admins', async () => {
    const { data } = await report(reader, 'c1-b4');
    await t.call('POST', '/api/reader/translation/choose', {
      token: reader,
      body: { id: data.id, choice: 'original' },
    });
    expect((await readWholePage(other, code)).find((b) => b.id === 'c1-b4')?.translation).toBe(
      data.original.translation,
    );
    expect((await t.call('GET', '/api/admin/translation-reports', { token: reader })).status).toBe(403);
    const list = await t.call('GET', '/api/admin/translation-reports?pageSize=10', { token: admin });
    expect(list.data.total).toBe(3);
    expect(list.data.items.map((r: { blockId: string; status: string }) => [r.blockId, r.status])).toEqual([
      ['c1-b4', 'keptOriginal'],
      ['c1-b3', 'choseAlternative'],
      ['c1-b2', 'open'],
    ]);
    expect(list.data.items[0]).toMatchObject({ bookCode: code, bookTitle: '红楼梦', language: 'en', page: 1 });
  });
});
