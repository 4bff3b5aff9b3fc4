import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { readTranslatedPage, registerUser, seedPagedBook, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { startFakeReadwise, type FakeReadwise } from './testing/fake-readwise.ts';

const TOKEN = 'rw-token-0123456789abcdef';

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('highlights and notes to Readwise', () => {
  let t: TestApp;
  let readwise: FakeReadwise;
  let translator: FakeMicrosoft;
  let reader: string;
  let code: string;
  beforeAll(async () => {
    readwise = await startFakeReadwise();
    readwise.tokens.add(TOKEN);
    translator = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      READWISE_API_URL: readwise.url,
      MICROSOFT_TRANSLATOR_ENDPOINT: translator.url,
    });
    reader = await registerUser(t, 'reader');
    code = await seedPagedBook(t, 'reader', {
      pages: 3,
      paragraphsPerPage: 3,
      text: (i, page) => `Paragraph ${i} of page ${page}: "Call me Ishmael." Some years ago.`,
    });
    await readTranslatedPage(t, reader, code, 1);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await readwise?.close();
    await translator?.close();
  });

  it('refuses a token Readwise does not accept, keeps a good one sealed and shows only its end', async () => {
    const bad = await t.call('PUT', '/api/integrations/readwise', {
      token: reader,
      body: { token: 'not-a-valid-token' },
    });
    expect(bad.status).toBe(400);
    expect(bad.data.key).toBe('readwiseTokenRejected');
    expect((await t.call('GET', '/api/integrations/readwise', { token: reader })).data.connected).toBe(false);

    const good = await t.call('PUT', '/api/integrations/readwise', { token: reader, body: { token: TOKEN } });
    expect(good.data).toMatchObject({ connected: true, tokenHint: '…cdef', autoPush: true, lastError: null });
    const stored = await t.running.infra.db.selectFrom('readwise_accounts').selectAll().executeTakeFirstOrThrow();
    expect(stored.token_sealed).not.toContain(TOKEN);
    expect(JSON.stringify(good.data)).not.toContain(TOKEN);
  });

  it('pushes highlights and notes as they are made, with the book, page, both languages and a link back', async () => {
    const page = await readTranslatedPage(t, reader, code, 1);
    const paragraph = page.blocks[1];
    const highlight = await t.call('POST', '/api/reader/highlight', {
      token: reader,
      body: { bookCode: code, blockId: paragraph.id, start: 0, end: 11, quote: 'Paragraph 2', language: 'zh' },
    });
    expect(highlight.status).toBe(200);
    const note = await t.call('POST', '/api/reader/annotation', {
      token: reader,
      body: {
        bookCode: code,
        blockId: paragraph.id,
        start: 0,
        end: 5,
        quote: paragraph.translation.slice(0, 5),
        inTranslation: true,
        language: 'zh',
        content: 'Who is Ishmael?',
      },
    });
    expect(note.status).toBe(200);

    const sent = await until('both highlights on Readwise', () =>
      readwise.received.length >= 2 ? readwise.received : undefined,
    );
    expect(sent.map((s) => s.token)).toEqual([TOKEN, TOKEN]);
    const original = sent.find((s) => s.highlight.text === 'Paragraph 2')!.highlight;
    expect(original).toMatchObject({
      title: 'Moby-Dick',
      author: 'Herman Melville',
      location: 1,
      location_type: 'page',
      category: 'books',
      source_type: 'yidu',
    });
    // The translation the reader paid for goes with the original.
    expect(original.note).toContain(`[zh] ${paragraph.translation}`);
    const link = new URL(original.highlight_url!);
    expect(link.pathname).toBe(`/tabs/read/${code}/zh`);
    expect(link.searchParams.get('page')).toBe('1');
    expect(link.searchParams.get('block')).toBe(paragraph.id);

    const annotation = sent.find((s) => s.highlight.note?.startsWith('Who is Ishmael?'))!.highlight;
    expect(annotation.text).toBe(paragraph.translation.slice(0, 5));
    expect(annotation.note).toContain(`[en] ${paragraph.text}`);
    await until('the push recorded', async () =>
      (await t.call('GET', '/api/integrations/readwise', { token: reader })).data.pending === 0 ? true : undefined,
    );

    // An edited note goes again; nothing else is sent twice.
    await t.call('PUT', `/api/reader/annotation/${note.data.id}`, {
      token: reader,
      body: { content: 'The narrator.' },
    });
    await until('the edited note', () => (readwise.received.length >= 3 ? true : undefined));
    expect(readwise.received[2]!.highlight.note).toMatch(/^The narrator\./);
    await new Promise((r) => setTimeout(r, 1500));
    expect(readwise.received).toHaveLength(3);
  });

  it("waits as long as Readwise's Retry-After says, then sends the rest once", async () => {
    await t.call('PUT', '/api/integrations/readwise', { token: reader, body: { autoPush: false } });
    const page = await readTranslatedPage(t, reader, code, 1);
    for (const block of page.blocks.slice(0, 3))
      await t.call('POST', '/api/reader/highlight', {
        token: reader,
        body: { bookCode: code, blockId: block.id, start: 0, end: 4, quote: block.text.slice(0, 4), language: 'zh' },
      });
    expect((await t.call('GET', '/api/integrations/readwise', { token: reader })).data.pending).toBe(3);
    const before = readwise.received.length;
    readwise.rateLimit(1, 2);
    const asked = await t.call('POST', '/api/integrations/readwise/push', { token: reader, body: {} });
    expect(asked.status).toBe(200);
    await until(
      'the highlights after the wait',
      () => (readwise.received.length >= before + 3 ? true : undefined),
      30_000,
    );
    const limitedAt = readwise.posts.find((p) => p.status === 429)!.at;
    const acceptedAt = readwise.posts.filter((p) => p.status === 200).at(-1)!.at;
    expect(acceptedAt - limitedAt).toBeGreaterThanOrEqual(2000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(readwise.received.length).toBe(before + 3);
  });

  it('stops when Readwise refuses the token, and says so', async () => {
    readwise.tokens.delete(TOKEN);
    const page = await readTranslatedPage(t, reader, code, 1);
    await t.call('POST', '/api/reader/highlight', {
      token: reader,
      body: { bookCode: code, blockId: page.blocks[2].id, start: 5, end: 9, quote: 'raph', language: 'zh' },
    });
    await t.call('POST', '/api/integrations/readwise/push', { token: reader, body: {} });
    const status = await until('the refusal', async () => {
      const s = (await t.call('GET', '/api/integrations/readwise', { token: reader })).data;
      return s.lastError ? s : undefined;
    });
    expect(status.lastError).toBe('readwiseTokenRejected');
    expect(status.pending).toBe(1);
    readwise.tokens.add(TOKEN);
  });

  it('keeps the connection to its owner', async () => {
    const other = await registerUser(t, 'other');
    expect((await t.call('GET', '/api/integrations/readwise', { token: other })).data.connected).toBe(false);
    expect((await t.call('POST', '/api/integrations/readwise/push', { token: other, body: {} })).data.key).toBe(
      'readwiseNotConnected',
    );
  });
});
