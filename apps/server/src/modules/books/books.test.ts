import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BooksRepo } from './books.repo.ts';
import { CORPUS, registerUser, startTestApp, uploadFile, type TestApp } from '../../../test/helpers.ts';

/** Seeds a ready book owned by `owner` (in the owner's library), as the pipeline leaves it. */
async function seedBook(
  t: TestApp,
  owner: string,
  title: string,
  visibility: 0 | 1,
  extra: { author?: string; description?: string; recommended?: boolean } = {},
) {
  const repo = new BooksRepo(t.running.infra.db);
  const user = await t.running.infra.db
    .selectFrom('users')
    .select('id')
    .where('account', '=', owner)
    .executeTakeFirstOrThrow();
  const book = await repo.insertBook({
    code: `${title
      .replace(/[^a-z]/gi, '')
      .toLowerCase()
      .slice(0, 6)}${Math.random().toString(36).slice(2, 8)}`,
    file_id: null,
    owner_id: user.id,
    title,
    author: extra.author ?? 'Anonymous',
    description: extra.description ?? '',
    format: 'epub',
    visibility,
    status: 'ready',
    recommended: extra.recommended ?? false,
    cover_key: null,
    category: null,
    original_language: 'en',
    declared_language: null,
    source_pages: null,
  });
  await repo.library.addCopy({
    user_id: user.id,
    book_id: book.id,
    title,
    author: book.author,
    description: book.description,
    source: 'upload',
  });
  return book.code;
}

describe('libraries and book management', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let admin: string;
  const codes: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      ADMIN_ACCOUNT: 'chief',
      ADMIN_PASSWORD: 'Chief2026pass',
    });
    alice = await registerUser(t, 'alice');
    bob = await registerUser(t, 'bob');
    admin = (await t.call('POST', '/api/auth/login', { body: { account: 'chief', password: 'Chief2026pass' } })).data
      .token;
    codes.moby = await seedBook(t, 'alice', 'Moby-Dick', 1, {
      author: 'Herman Melville',
      description: 'A whale of a tale, told by Ishmael.',
    });
    codes.hlm = await seedBook(t, 'alice', '红楼梦', 1, { author: '曹雪芹' });
    codes.diary = await seedBook(t, 'alice', 'Private Diary', 0);
    codes.picked = await seedBook(t, 'bob', 'Editor Pick', 1, { recommended: true });
  });
  afterAll(async () => t?.close());

  it('shows public books to everyone and keeps private ones to their owner', async () => {
    const lib = await t.call('GET', '/api/book/library', { token: bob });
    const titles = lib.data.items.map((b: { bookName: string }) => b.bookName);
    expect(titles).toEqual(expect.arrayContaining(['Moby-Dick', '红楼梦', 'Editor Pick']));
    expect(titles).not.toContain('Private Diary');
    expect(lib.data.total).toBe(3);

    expect((await t.call('GET', `/api/book/user/getBookByCode?bookCode=${codes.diary}`, { token: bob })).data.key).toBe(
      'bookNotFound',
    );
    expect(
      (await t.call('GET', `/api/book/user/getBookByCode?bookCode=${codes.diary}`, { token: alice })).data.bookName,
    ).toBe('Private Diary');
    expect((await t.call('GET', `/api/book/user/getBookByCode?bookCode=${codes.diary}`, { token: admin })).code).toBe(
      0,
    );
    expect((await t.call('POST', '/api/book/user/add', { token: bob, body: { bookCode: codes.diary } })).data.key).toBe(
      'bookNotFound',
    );
  });

  it('searches titles, including Chinese ones, and pages results', async () => {
    const zh = await t.call('GET', `/api/book/library?keyword=${encodeURIComponent('红楼')}`, { token: bob });
    expect(zh.data.items.map((b: { bookName: string }) => b.bookName)).toEqual(['红楼梦']);
    const byAuthor = await t.call('GET', '/api/book/library?keyword=melville', { token: bob });
    expect(byAuthor.data.items[0].bookName).toBe('Moby-Dick');
    const paged = await t.call('GET', '/api/book/library?pageSize=2&page=2', { token: bob });
    expect(paged.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.data.items).toHaveLength(1);
    expect((await t.call('GET', '/api/book/library?pageSize=1000', { token: bob })).data.key).toBe('badRequest');
  });

  it('adds a public book to a personal library and ranks it as popular', async () => {
    const added = await t.call('POST', '/api/book/user/add', { token: bob, body: { bookCode: codes.moby } });
    expect(added.data).toMatchObject({ bookName: 'Moby-Dick', inLibrary: true, isOwner: false, readers: 2 });
    // Adding twice changes nothing.
    expect(
      (await t.call('POST', '/api/book/user/add', { token: bob, body: { bookCode: codes.moby } })).data.readers,
    ).toBe(2);
    const popular = await t.call('GET', '/api/book/library?section=popular', { token: bob });
    expect(popular.data.items[0].bookName).toBe('Moby-Dick');
    const recommended = await t.call('GET', '/api/book/library?section=recommended', { token: bob });
    expect(recommended.data.items.map((b: { bookName: string }) => b.bookName)).toEqual(['Editor Pick', 'Moby-Dick']);

    const mine = await t.call('GET', '/api/book/user/library', { token: bob });
    expect(mine.data.items.map((b: { bookName: string }) => b.bookName).sort()).toEqual(['Editor Pick', 'Moby-Dick']);
    expect(
      (await t.call('GET', '/api/book/uploaded/library', { token: bob })).data.items.map(
        (b: { bookName: string }) => b.bookName,
      ),
    ).toEqual(['Editor Pick']);
    expect((await t.call('GET', '/api/book/nonsense/library', { token: bob })).status).toBe(404);
  });

  it("edits the user's copy without touching the public book, and only the owner edits the public book", async () => {
    const copy = await t.call('POST', '/api/book/user/updateBook', {
      token: bob,
      body: { bookCode: codes.moby, bookName: '白鲸', readLanguage: 'Chinese' },
    });
    expect(copy.data).toMatchObject({ bookName: '白鲸', readLanguage: 'zh' });
    expect(
      (await t.call('GET', `/api/book/user/getBookByCode?bookCode=${codes.moby}`, { token: alice })).data.bookName,
    ).toBe('Moby-Dick');

    const denied = await t.call('POST', '/api/book/updateBook', {
      token: bob,
      body: { bookCode: codes.moby, bookName: 'Hijacked' },
    });
    expect(denied.status).toBe(403);
    expect(denied.data.key).toBe('insufficientPermissions');
    expect(
      (await t.call('POST', '/api/book/user/updateBook', { token: bob, body: { bookCode: codes.moby, bookStatus: 0 } }))
        .data.key,
    ).toBe('insufficientPermissions');

    const owner = await t.call('POST', '/api/book/updateBook', {
      token: alice,
      body: { bookCode: codes.moby, bookDescribe: 'The whale.' },
    });
    expect(owner.data.bookDescribe).toBe('The whale.');
    expect(
      (
        await t.call('POST', '/api/book/updateBook', {
          token: admin,
          body: { bookCode: codes.moby, category: 'Classics' },
        })
      ).data.category,
    ).toBe('Classics');

    // Sync pulls the public info into the copy.
    const synced = await t.call('POST', '/api/book/user/sync', { token: bob, body: { bookCode: codes.moby } });
    expect(synced.data).toMatchObject({ bookName: 'Moby-Dick', bookDescribe: 'The whale.', category: 'Classics' });
    expect(
      (
        await t.call('POST', '/api/book/user/sync', {
          token: bob,
          body: { bookCode: codes.moby, direction: 'toPublic' },
        })
      ).data.key,
    ).toBe('insufficientPermissions');
  });

  it('toggles visibility and manages books in batches', async () => {
    const hidden = await t.call('POST', '/api/book/user/updateBook', {
      token: alice,
      body: { bookCode: codes.hlm, bookStatus: 0 },
    });
    expect(hidden.data.bookStatus).toBe(0);
    expect((await t.call('GET', `/api/book/user/getBookByCode?bookCode=${codes.hlm}`, { token: bob })).data.key).toBe(
      'bookNotFound',
    );

    const batch = await t.call('POST', '/api/book/user/batch', {
      token: alice,
      body: { bookCodes: [codes.hlm, codes.diary, codes.picked], action: 'setVisibility', bookStatus: 1 },
    });
    expect(batch.data.done.sort()).toEqual([codes.hlm, codes.diary].sort());
    expect(batch.data.failed).toEqual([{ bookCode: codes.picked, key: 'insufficientPermissions' }]);
    expect((await t.call('GET', '/api/book/library', { token: bob })).data.total).toBe(4);
  });

  it('removes a copy, keeping or taking down the public book as the uploader chooses', async () => {
    // Alice keeps the public info: Moby-Dick stays in the public library.
    expect((await t.call('DELETE', `/api/book/user/${codes.moby}`, { token: alice })).code).toBe(0);
    expect((await t.call('GET', '/api/book/library?keyword=moby', { token: bob })).data.total).toBe(1);
    expect((await t.call('DELETE', `/api/book/user/${codes.moby}`, { token: alice })).data.key).toBe('bookNotFound');

    // Bob cannot take down Alice's book, Alice can: it leaves the public library, Bob keeps his copy.
    expect((await t.call('DELETE', `/api/book/${codes.hlm}`, { token: bob })).status).toBe(403);
    await t.call('POST', '/api/book/user/add', { token: bob, body: { bookCode: codes.hlm } });
    expect((await t.call('DELETE', `/api/book/user/${codes.hlm}?keepPublic=false`, { token: alice })).code).toBe(0);
    expect(
      (await t.call('GET', `/api/book/library?keyword=${encodeURIComponent('红楼')}`, { token: bob })).data.total,
    ).toBe(0);
    expect((await t.call('GET', `/api/book/user/getBookByCode?bookCode=${codes.hlm}`, { token: bob })).code).toBe(0);

    // A private book nobody has any more is gone for good.
    expect(
      (
        await t.call('POST', '/api/book/user/batch', {
          token: alice,
          body: { bookCodes: [codes.diary], action: 'delete', keepPublic: false },
        })
      ).data.done,
    ).toEqual([codes.diary]);
    const row = await t.running.infra.db
      .selectFrom('books')
      .select('id')
      .where('code', '=', codes.diary!)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('sets a cover from a JPG or PNG, served by a signed URL', async () => {
    const png = await readFile(path.join(CORPUS, 'bad/png-image-named-as.pdf'));
    const res = await uploadFile(
      t,
      `/api/book/cover?bookCode=${codes.picked}&scope=public`,
      { name: 'cover.png', data: png },
      bob,
    );
    expect(res.code).toBe(0);
    const url: string = res.data.coverUrl;
    expect(url).toMatch(/^\/api\/media\/covers\/[0-9a-f]+-thumb\.jpg\?exp=\d+&(user=\d+&book=\d+&)?sig=/);
    const image = await t.app.inject({ url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect((await t.app.inject({ url: url.replace(/sig=.*/, 'sig=forged') })).statusCode).toBe(404);
    // A raw path with '..' over a real socket: the key never reaches the file system.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    for (const raw of [
      '/api/media/../../app-secret?sig=x',
      '/api/media/%2e%2e/%2e%2e/app-secret?sig=x',
      '/api/media/covers/..%2f..%2fapp-secret?sig=x',
    ]) {
      const status = await new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: raw }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(status, raw).toBe(404);
    }

    const text = await uploadFile(
      t,
      `/api/book/cover?bookCode=${codes.picked}&scope=public`,
      { name: 'cover.jpg', data: Buffer.from('not an image') },
      bob,
    );
    expect(text.data.key).toBe('invalidImage');
    expect(
      (
        await uploadFile(
          t,
          `/api/book/cover?bookCode=${codes.picked}&scope=public`,
          { name: 'c.png', data: png },
          alice,
        )
      ).data.key,
    ).toBe('insufficientPermissions');
  });
});
