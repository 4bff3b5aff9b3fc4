import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { FIRST_SHELF } from './first-shelf.ts';

const ADMIN = { ADMIN_ACCOUNT: 'chief', ADMIN_PASSWORD: 'Chief2026pass' };

describe('the first shelf of a fresh install', () => {
  let databaseUrl: string;
  let appSecret: string;
  let first: TestApp;
  let second: TestApp;
  let reader: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    // Two processes of one deployment start at once on a new database, the shelf on (the default).
    const env = {
      DATABASE_URL: databaseUrl,
      FIRST_SHELF: 'true',
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      APP_SECRET: 'a-secret-of-this-deployment-0123456789',
    };
    // (The first admin is made by one of them only: two making it at once race in AuthService.ensureAdmin.)
    [first, second] = await Promise.all([startTestApp({ ...env, ...ADMIN }), startTestApp(env)]);
    appSecret = env.APP_SECRET;
    // Each seeds in the background at start; asking again waits for the lock and finds nothing left to do.
    expect(
      await Promise.all([first.running.services.firstShelf.seed(), second.running.services.firstShelf.seed()]),
    ).toEqual([[], []]);
    reader = await registerUser(first, 'reader');
  }, 240_000);
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('puts each book in the public library once, in its language, ready to read', async () => {
    const library = await first.call('GET', '/api/book/library?section=new&pageSize=50', { token: reader });
    const books = library.data.items as {
      bookName: string;
      originalLanguage: string;
      pageCount: number;
      bookCode: string;
    }[];
    expect(books.map((b) => b.bookName).sort()).toEqual(FIRST_SHELF.map((b) => b.title).sort());
    expect(library.data.total).toBe(FIRST_SHELF.length);
    for (const book of books) {
      const shelf = FIRST_SHELF.find((b) => b.title === book.bookName)!;
      expect(book.originalLanguage, book.bookName).toBe(shelf.language);
      expect(book.pageCount, book.bookName).toBeGreaterThan(shelf.slug === 'rashomon' ? 3 : 30);
    }
    const rows = await first.running.infra.db.selectFrom('first_shelf').select(['slug', 'book_id']).execute();
    expect(rows.map((r) => r.slug).sort()).toEqual(FIRST_SHELF.map((b) => b.slug).sort());
    expect(new Set(rows.map((r) => r.book_id)).size).toBe(FIRST_SHELF.length);

    // A reader opens one: the first page of Frankenstein, in English.
    const frankenstein = books.find((b) => b.bookName.startsWith('Frankenstein'))!;
    const page = await first.call(
      'GET',
      `/api/reader/getPageData?bookCode=${frankenstein.bookCode}&language=en&page=1`,
      {
        token: reader,
      },
    );
    expect(page.code).toBe(0);
    expect(page.data.blocks.map((b: { text: string }) => b.text).join(' ')).toContain('Frankenstein');
    // Rashōmon opens with Project Gutenberg's English small print; the story is Japanese.
    const rashomon = books.find((b) => b.bookName === '羅生門')!;
    const last = `/api/reader/getPageData?bookCode=${rashomon.bookCode}&language=jp&page=${rashomon.pageCount}`;
    const japanese = await first.call('GET', last, { token: reader });
    expect(japanese.data.blocks.map((b: { text: string }) => b.text).join('')).toMatch(/[ぁ-んァ-ン一-龯]{10}/);
  });

  it('finishes a book a start left half-done, and never brings back one an admin removed', async () => {
    const db = first.running.infra.db;
    const admin = (
      await first.call('POST', '/api/auth/login', { body: { account: 'chief', password: 'Chief2026pass' } })
    ).data.token;
    const shelf = await db
      .selectFrom('first_shelf')
      .innerJoin('books', 'books.id', 'first_shelf.book_id')
      .select(['first_shelf.slug', 'books.id', 'books.code'])
      .execute();
    const removed = shelf.find((b) => b.slug === 'adventures-of-sherlock-holmes')!;
    expect((await first.call('DELETE', `/api/book/${removed.code}`, { token: admin })).status).toBe(200);
    // A start that died in the middle of Rashomon: its book still processing, its text not written.
    const halfDone = shelf.find((b) => b.slug === 'rashomon')!;
    await db.deleteFrom('book_blocks').where('book_id', '=', halfDone.id).execute();
    await db.updateTable('books').set({ status: 'processing' }).where('id', '=', halfDone.id).execute();

    const restarted = await startTestApp({ DATABASE_URL: databaseUrl, FIRST_SHELF: 'true', APP_SECRET: appSecret });
    try {
      await restarted.running.services.firstShelf.seed();
      const books = await db.selectFrom('books').select(['id', 'code', 'status', 'title']).execute();
      expect(books.find((b) => b.code === removed.code)).toBeUndefined();
      expect(books.filter((b) => b.title === 'The Adventures of Sherlock Holmes')).toEqual([]);
      expect(books.find((b) => b.id === halfDone.id)!.status).toBe('ready');
      const blocks = await db.selectFrom('book_blocks').select('block_id').where('book_id', '=', halfDone.id).execute();
      expect(blocks.length).toBeGreaterThan(10);
      expect(books).toHaveLength(FIRST_SHELF.length - 1);
    } finally {
      await restarted.close();
    }
  });

  it('is not seeded when the setting turns it off', async () => {
    const off = await startTestApp({ FIRST_SHELF: 'false' });
    try {
      expect(await off.running.services.firstShelf.seed()).toEqual([]);
      expect(await off.running.infra.db.selectFrom('books').select('id').execute()).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
