/**
 * Signed media URLs (covers, book images): they expire, the client gets fresh ones with the lists
 * and pages it fetches, and those of a book outside the public library stop working the moment their
 * reader loses the book (a revoked share).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_URL_HOURS } from '../src/lib/signing.ts';
import { registerUser, seedChineseBook, startTestApp, uploadFile, type TestApp } from './helpers.ts';

const HOUR_MS = 3600_000;

describe('signed media URLs', () => {
  let t: TestApp;
  let owner: string;
  let reader: string;
  let png: Buffer;
  /** Fetches a media URL the way an <img> does: no token. */
  const fetchMedia = (url: string) => t.app.inject({ method: 'GET', url });
  const byCode = (items: { bookCode: string; coverUrl: string | null }[], code: string) =>
    items.find((b) => b.bookCode === code)!;

  /** A book of the owner with a cover, and an image in the block c1-b3 of its first page. */
  async function illustratedBook(visibility: 0 | 1): Promise<string> {
    const code = await seedChineseBook(t, 'owner');
    const cover = await uploadFile(
      t,
      `/api/book/cover?bookCode=${code}&scope=public`,
      { name: 'c.png', data: png },
      owner,
    );
    expect(cover.code).toBe(0);
    const db = t.running.infra.db;
    const book = await db.selectFrom('books').select('id').where('code', '=', code).executeTakeFirstOrThrow();
    const key = `books/${book.id}/img-test.png`;
    await t.running.infra.storage.put(key, png);
    await db
      .insertInto('book_images')
      .values({ book_id: book.id, image_id: 'img1', storage_key: key, media_type: 'image/png', width: 40, height: 40 })
      .execute();
    await db
      .updateTable('book_blocks')
      .set({ image_id: 'img1', type: 'image' })
      .where('book_id', '=', book.id)
      .where('block_id', '=', 'c1-b3')
      .execute();
    await db.updateTable('books').set({ visibility }).where('id', '=', book.id).execute();
    return code;
  }

  const imageUrlOf = async (token: string, code: string): Promise<string> => {
    const page = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=zh&page=1`, { token });
    expect(page.code, JSON.stringify(page.data)).toBe(0);
    return page.data.blocks.find((b: { id: string }) => b.id === 'c1-b3').imageUrl;
  };

  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
    owner = await registerUser(t, 'owner');
    reader = await registerUser(t, 'reader');
    const { createCanvas } = await import('@napi-rs/canvas');
    png = await createCanvas(40, 40).encode('png');
  });
  afterAll(async () => t?.close());

  it('gives URLs that live 6 to 7 hours, and refuses them once expired or with their expiry changed', async () => {
    const code = await illustratedBook(1);
    const url = byCode((await t.call('GET', '/api/book/user/list', { token: owner })).data, code).coverUrl!;
    const expires = Number(new URL(url, 'http://x').searchParams.get('exp')) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(MEDIA_URL_HOURS * HOUR_MS - 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual((MEDIA_URL_HOURS + 1) * HOUR_MS);
    const asked = Date.now();
    const fresh = await fetchMedia(url);
    expect(fresh.statusCode).toBe(200);
    // The browser keeps it no longer than the URL lives (counted from before the request: the server
    // answered later, with less time left).
    const maxAge = Number(/max-age=(\d+)/.exec(String(fresh.headers['cache-control']))![1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge * 1000).toBeLessThanOrEqual(expires - asked);

    const pathname = url.split('?')[0]!;
    const signer = t.running.services.signer;
    const old = signer.sign(pathname, { now: Date.now() - (MEDIA_URL_HOURS + 1) * HOUR_MS });
    expect((await fetchMedia(old)).statusCode).toBe(404);
    const stretched = old.replace(/exp=\d+/, `exp=${Math.floor(expires / 1000) + 3600}`);
    expect((await fetchMedia(stretched)).statusCode).toBe(404);
    const unsigned = `${pathname}?exp=${Math.floor(expires / 1000)}`;
    expect((await fetchMedia(unsigned)).statusCode).toBe(404);
  });

  it('lets anyone holding it see the cover of a book in the public library, guests included', async () => {
    const code = await illustratedBook(1);
    const library = await t.call('GET', '/api/book/library?section=new', { token: reader });
    const url = byCode(library.data.items, code).coverUrl!;
    expect(url).not.toMatch(/[?&](user|book|share)=/);
    expect((await fetchMedia(url)).statusCode).toBe(200);
    // The reader's page images of a public book are the same for everyone.
    expect((await fetchMedia(await imageUrlOf(reader, code))).statusCode).toBe(200);
  });

  it("stops a shared book's cover and images the moment the share is revoked", async () => {
    const code = await illustratedBook(0);
    const share = await t.call('POST', '/api/book/share/create', {
      token: owner,
      body: { bookCode: code, features: ['explanation'] },
    });
    const info = await t.call('GET', `/api/book/share/${share.data.id}`, { token: reader });
    const shareCover: string = info.data.book.coverUrl;
    expect(shareCover).toMatch(/[?&]share=/);
    expect((await fetchMedia(shareCover)).statusCode).toBe(200);
    expect((await t.call('PUT', `/api/book/share/accept/${share.data.id}`, { token: reader })).code).toBe(0);

    const cover = byCode((await t.call('GET', '/api/book/user/list', { token: reader })).data, code).coverUrl!;
    const detail = await t.call('GET', `/api/book/user/getBookByCode?bookCode=${code}`, { token: reader });
    const image = await imageUrlOf(reader, code);
    for (const url of [cover, detail.data.coverUrl, image]) {
      expect(url).toMatch(/[?&]user=\d+&book=\d+/);
      expect((await fetchMedia(url)).statusCode, url).toBe(200);
    }
    // A URL made for the reader cannot be turned into one for someone else.
    const ownerId = (await t.call('GET', '/api/user/getUserinfo', { token: owner })).data.id;
    expect((await fetchMedia(cover.replace(/user=\d+/, `user=${ownerId}`))).statusCode).toBe(404);
    // The owner's page carries the owner's own image URL (pages with images are not shared from memory).
    expect(await imageUrlOf(owner, code)).toMatch(new RegExp(`user=${ownerId}&`));

    expect((await t.call('DELETE', `/api/book/share/${share.data.id}`, { token: owner })).code).toBe(0);
    for (const url of [shareCover, cover, detail.data.coverUrl, image]) {
      expect((await fetchMedia(url)).statusCode, url).toBe(404);
    }
    // The owner's own URLs still work.
    const ownCover = byCode((await t.call('GET', '/api/book/user/list', { token: owner })).data, code).coverUrl!;
    expect((await fetchMedia(ownCover)).statusCode).toBe(200);
  });

  it('stops the URLs of a book made private for a reader who only had it from the public library', async () => {
    const code = await illustratedBook(1);
    await t.call('POST', '/api/book/user/add', { token: reader, body: { bookCode: code } });
    await t.call('POST', '/api/book/updateBook', { token: owner, body: { bookCode: code, bookStatus: 0 } });
    // The reader keeps the copy they took themselves: its URLs name them and keep working.
    const cover = byCode((await t.call('GET', '/api/book/user/list', { token: reader })).data, code).coverUrl!;
    expect(cover).toMatch(/[?&]user=\d+&book=\d+/);
    expect((await fetchMedia(cover)).statusCode).toBe(200);
    // A disabled reader's URLs stop at once.
    await t.running.infra.db.updateTable('users').set({ status: 'disabled' }).where('account', '=', 'reader').execute();
    expect((await fetchMedia(cover)).statusCode).toBe(404);
    await t.running.infra.db.updateTable('users').set({ status: 'active' }).where('account', '=', 'reader').execute();
  });
});
