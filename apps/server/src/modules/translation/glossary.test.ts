import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeServer } from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, seedChineseBook, startTestApp, type TestApp } from '../../../test/helpers.ts';

describe('per-book glossaries', () => {
  let t: TestApp;
  let llm: FakeServer;
  let owner: string;
  let reader: string;
  let code: string;
  beforeAll(async () => {
    llm = await startFakeOpenAi();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      TRANSLATION_ENGINES: 'llm',
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-chat',
    });
    owner = await registerUser(t, 'owner');
    reader = await registerUser(t, 'reader');
    code = await seedChineseBook(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it('is edited by the uploader only, and each change bumps its version', async () => {
    const empty = await t.call('GET', `/api/book/glossary?bookCode=${code}&language=en`, { token: owner });
    expect(empty.data).toEqual({ entries: [], version: 0, editable: true });
    expect(
      (await t.call('GET', `/api/book/glossary?bookCode=${code}&language=en`, { token: reader })).data.editable,
    ).toBe(false);
    const denied = await t.call('PUT', '/api/book/glossary', {
      token: reader,
      body: { bookCode: code, language: 'en', entries: [{ source: '通灵', target: 'Spirit' }] },
    });
    expect(denied.data.key).toBe('insufficientPermissions');

    const saved = await t.call('PUT', '/api/book/glossary', {
      token: owner,
      body: {
        bookCode: code,
        language: 'English',
        entries: [
          { source: '甄士隐', target: 'Zhen Shiyin', note: 'person' },
          { source: '通灵', target: 'Magic Jade' },
        ],
      },
    });
    expect(saved.data.version).toBe(1);
    expect(saved.data.entries.map((e: { source: string }) => e.source).sort()).toEqual(['甄士隐', '通灵']);
  });

  it('lets the AI propose names and terms, keeping what the owner wrote', async () => {
    llm.setBehaviour({
      reply: () =>
        JSON.stringify({
          terms: [
            { source: '通灵', target: 'Spiritual Stone', note: 'term' },
            { source: '女娲', target: 'Nüwa', note: 'person' },
          ],
        }),
    });
    const res = await t.call('POST', '/api/book/glossary/extract', {
      token: owner,
      body: { bookCode: code, language: 'en' },
    });
    const entries = Object.fromEntries(
      res.data.entries.map((e: { source: string; target: string }) => [e.source, e.target]),
    );
    expect(entries).toEqual({ 甄士隐: 'Zhen Shiyin', 通灵: 'Magic Jade', 女娲: 'Nüwa' });
    expect(res.data.version).toBe(2);
    llm.setBehaviour({});
  });

  it('gives the LLM engine the entries that occur in each batch', async () => {
    const before = llm.calls.length;
    const url = `/api/reader/getPageData?bookCode=${code}&language=en&page=1`;
    await t.call('GET', url, { token: owner });
    const deadline = Date.now() + 20_000;
    let res;
    do {
      await new Promise((r) => setTimeout(r, 100));
      res = await t.call('GET', url, { token: owner });
    } while (res.data.blocks.some((b: { status: string }) => b.status === 'pending') && Date.now() < deadline);
    const prompts = llm.calls.slice(before).map((c) => JSON.stringify(c.json));
    const withTerm = prompts.filter((p) => p.includes('女娲'));
    expect(withTerm.length).toBeGreaterThan(0);
    expect(withTerm.some((p) => p.includes('Nüwa'))).toBe(true);
    // The heading (with 甄士隐) goes alone in the first batch: the batch holding 女娲 is not told about him.
    expect(withTerm.every((p) => !p.includes('Zhen Shiyin'))).toBe(true);
    expect(prompts.some((p) => p.includes('Zhen Shiyin'))).toBe(true);
  });
});
