import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeServer } from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, seedChineseBook, startTestApp, type TestApp } from '../../../test/helpers.ts';

describe('sharing a private book with chosen AI features', () => {
  let t: TestApp;
  let llm: FakeServer;
  let alice: string;
  let bob: string;
  let carol: string;
  let code: string;
  beforeAll(async () => {
    llm = await startFakeOpenAi();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake',
      PUBLIC_URL: 'https://yidu.example',
    });
    alice = await registerUser(t, 'alice');
    bob = await registerUser(t, 'bob');
    carol = await registerUser(t, 'carol');
    code = await seedChineseBook(t, 'alice');
    await t.call('POST', '/api/book/updateBook', { token: alice, body: { bookCode: code, bookStatus: 0 } });
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  const explain = (token: string) =>
    t.call('POST', '/api/reader/ai/explain', {
      token,
      body: { bookCode: code, blockId: 'c1-b2', selection: '通灵', language: 'en', stream: false },
    });
  const restate = (token: string) =>
    t.call('POST', '/api/reader/ai/restate', {
      token,
      body: { bookCode: code, blockId: 'c1-b2', selection: '通灵', language: 'en', stream: false },
    });

  it('lets the uploader create a link with only Explanation; nobody else may share the private book', async () => {
    expect(
      (
        await t.call('POST', '/api/book/share/create', {
          token: bob,
          body: { bookCode: code, features: ['explanation'] },
        })
      ).data.key,
    ).toBe('bookNotFound');
    const share = await t.call('POST', '/api/book/share/create', {
      token: alice,
      body: { bookCode: code, features: ['explanation'], expiresInDays: 7 },
    });
    expect(share.code).toBe(0);
    expect(share.data).toMatchObject({ bookCode: code, features: ['explanation'], state: 'active', accepted: 0 });
    expect(share.data.url).toBe(`https://yidu.example/book/share/${share.data.id}`);
    expect(
      (await t.call('GET', '/api/book/share/mine', { token: alice })).data.map((s: { id: string }) => s.id),
    ).toEqual([share.data.id]);
    expect((await t.call('GET', '/api/book/share/mine', { token: bob })).data).toEqual([]);
  });

  it('lets the recipient see, accept and read the book, explain but not restate; the book stays private', async () => {
    const [share] = (await t.call('GET', '/api/book/share/mine', { token: alice })).data;
    const info = await t.call('GET', `/api/book/share/${share.id}`, { token: bob });
    expect(info.data).toMatchObject({
      state: 'active',
      features: ['explanation'],
      sharedBy: 'alice',
      accepted: false,
      isOwner: false,
      book: { bookCode: code, bookName: '红楼梦' },
    });

    const accepted = await t.call('PUT', `/api/book/share/accept/${share.id}`, { token: bob });
    expect(accepted.data).toMatchObject({ bookCode: code, inLibrary: true, bookStatus: 0 });
    expect(
      (await t.call('GET', '/api/book/user/library', { token: bob })).data.items.map(
        (b: { bookCode: string }) => b.bookCode,
      ),
    ).toEqual([code]);
    expect(
      (await t.call('GET', `/api/book/user/getBookByCode?bookCode=${code}`, { token: bob })).data.features,
    ).toEqual(['explanation']);
    expect(
      (await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=zh&page=1`, { token: bob })).code,
    ).toBe(0);

    expect((await explain(bob)).code).toBe(0);
    const denied = await restate(bob);
    expect(denied.status).toBe(403);
    expect(denied.data).toMatchObject({ key: 'insufficientPermissions', feature: 'restatement' });
    const advanced = await t.call('POST', '/api/reader/ai/explain', {
      token: bob,
      body: { bookCode: code, blockId: 'c1-b2', selection: '通灵', language: 'en', stream: false, advanced: true },
    });
    expect(advanced.data).toMatchObject({ key: 'insufficientPermissions', feature: 'advancedExplanation' });
    expect(
      (
        await t.call('POST', '/api/reader/search', {
          token: bob,
          body: { bookCode: code, language: 'en', query: '通灵' },
        })
      ).data.key,
    ).toBe('insufficientPermissions');
    expect(
      (
        await t.call('POST', '/api/reader/ai/annotate', {
          token: bob,
          body: { bookCode: code, language: 'en', page: 1 },
        })
      ).data.key,
    ).toBe('insufficientPermissions');
    // Bob cannot pass on more than he has.
    expect(
      (
        await t.call('POST', '/api/book/share/create', {
          token: bob,
          body: { bookCode: code, features: ['restatement'] },
        })
      ).data.key,
    ).toBe('insufficientPermissions');

    // Sharing never made it public, and the owner keeps every feature.
    expect((await t.call('GET', '/api/book/library', { token: carol })).data.total).toBe(0);
    expect((await t.call('GET', `/api/book/user/getBookByCode?bookCode=${code}`, { token: carol })).data.key).toBe(
      'bookNotFound',
    );
    expect((await restate(alice)).code).toBe(0);
  });

  it('takes the book away when the link is revoked', async () => {
    const [share] = (await t.call('GET', '/api/book/share/mine', { token: alice })).data;
    expect((await t.call('DELETE', `/api/book/share/${share.id}`, { token: bob })).data.key).toBe(
      'insufficientPermissions',
    );
    expect((await t.call('DELETE', `/api/book/share/${share.id}`, { token: alice })).code).toBe(0);
    expect((await explain(bob)).data.key).toBe('bookNotFound');
    expect((await t.call('GET', '/api/book/user/library', { token: bob })).data.total).toBe(0);
    expect((await t.call('PUT', `/api/book/share/accept/${share.id}`, { token: carol })).data.key).toBe('shareRevoked');
    // A dead link tells a stranger nothing about the private book it led to; its owner still sees it.
    const stranger = (await t.call('GET', `/api/book/share/${share.id}`, { token: carol })).data;
    expect(stranger).toMatchObject({ state: 'revoked', book: null });
    expect(JSON.stringify(stranger)).not.toContain(code);
    const owner = (await t.call('GET', `/api/book/share/${share.id}`, { token: alice })).data;
    expect(owner).toMatchObject({ state: 'revoked', isOwner: true, book: { bookCode: code } });
  });

  it('stops working after it expires', async () => {
    const share = (
      await t.call('POST', '/api/book/share/create', {
        token: alice,
        body: { bookCode: code, features: ['search'], expiresInDays: 1 },
      })
    ).data;
    await t.call('PUT', `/api/book/share/accept/${share.id}`, { token: carol });
    expect(
      (
        await t.call('POST', '/api/reader/search', {
          token: carol,
          body: { bookCode: code, language: 'en', query: '通灵' },
        })
      ).code,
    ).toBe(0);
    await t.running.infra.db
      .updateTable('book_shares')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', share.id)
      .execute();
    expect(
      (
        await t.call('POST', '/api/reader/search', {
          token: carol,
          body: { bookCode: code, language: 'en', query: '通灵' },
        })
      ).data.key,
    ).toBe('bookNotFound');
    expect((await t.call('GET', '/api/book/user/library', { token: carol })).data.total).toBe(0);
    expect((await t.call('PUT', `/api/book/share/accept/${share.id}`, { token: bob })).data.key).toBe('shareExpired');
  });
});
