import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, type TestApp } from './helpers.ts';

/**
 * The library and reader calls on a data set of the size the issue names: 1,000 users, 10,000 books,
 * 1,000,000 paragraphs with their translations. The SQL these calls really send is captured at the
 * driver and run again under EXPLAIN: none may scan a large table from end to end.
 */
const USERS = 1000;
const BOOKS = 10_000;
const BLOCKS_PER_BOOK = 100;
const BLOCKS_PER_PAGE = 20;
const LARGE_TABLES = [
  'users',
  'books',
  'book_chapters',
  'book_contents',
  'book_blocks',
  'book_translations',
  'user_books',
];

interface Captured {
  text: string;
  values: unknown[];
}

/** Records every query the application sends while `run` is in progress. */
async function captureQueries(run: () => Promise<void>): Promise<Captured[]> {
  const captured: Captured[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') captured.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && 'text' in first)
      captured.push({ text: String(first.text), values: (first as { values?: unknown[] }).values ?? [] });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  return captured;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
function seqScans(node: PlanNode, found: string[] = []): string[] {
  if (node['Node Type'] === 'Seq Scan' && LARGE_TABLES.includes(node['Relation Name'] ?? '')) {
    found.push(node['Relation Name']!);
  }
  for (const child of node.Plans ?? []) seqScans(child, found);
  return found;
}

describe(`at scale: ${USERS} users, ${BOOKS} books, ${BOOKS * BLOCKS_PER_BOOK} translated paragraphs`, () => {
  let t: TestApp;
  let token: string;
  let readerBook: string;

  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false', RATE_LIMIT_PER_MINUTE: '100000' });
    token = await registerUser(t, 'reader');
    const db = t.running.infra.db;
    await sql`
      INSERT INTO users (account, password_hash, username, invite_code, status)
      SELECT 'user' || g, u.password_hash, 'user' || g, 'invite' || g, 'active'
      FROM generate_series(2, ${USERS}) g, (SELECT password_hash FROM users WHERE account = 'reader') u`.execute(db);
    await sql`
      WITH owners AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM users)
      INSERT INTO books (code, owner_id, title, author, format, visibility, status, original_language,
                         chapter_count, block_count, char_count, page_count, readers_count, created_at, updated_at)
      SELECT 'scale' || g, o.id, 'Book number ' || g, 'Author ' || (g % 300), 'txt', g % 2, 'ready', 'en',
             ${BLOCKS_PER_BOOK / BLOCKS_PER_PAGE}, ${BLOCKS_PER_BOOK}, 6000, ${BLOCKS_PER_BOOK / BLOCKS_PER_PAGE},
             g % 97, now() - g * interval '1 minute', now() - g * interval '1 minute'
      FROM generate_series(1, ${BOOKS}) g JOIN owners o ON o.n = g % ${USERS}`.execute(db);
    await sql`
      INSERT INTO book_chapters (book_id, idx, title, level, first_page, first_seq, block_count)
      SELECT b.id, c, 'Chapter ' || c, 1, c, (c - 1) * ${BLOCKS_PER_PAGE} + 1, ${BLOCKS_PER_PAGE}
      FROM books b CROSS JOIN generate_series(1, ${BLOCKS_PER_BOOK / BLOCKS_PER_PAGE}) c
      WHERE b.code LIKE 'scale%'`.execute(db);
    await sql`
      INSERT INTO book_contents (book_id, idx, level, title, seq)
      SELECT book_id, idx, level, title, first_seq FROM book_chapters`.execute(db);
    await sql`
      INSERT INTO book_blocks (book_id, seq, block_id, chapter_idx, page, type, text)
      SELECT b.id, s, 'p' || s, (s - 1) / ${BLOCKS_PER_PAGE} + 1, (s - 1) / ${BLOCKS_PER_PAGE} + 1, 'paragraph',
             'Paragraph ' || s || ' of ' || b.title || ', long enough to stand for a line of prose in a novel.'
      FROM books b CROSS JOIN generate_series(1, ${BLOCKS_PER_BOOK}) s
      WHERE b.code LIKE 'scale%'`.execute(db);
    await sql`
      INSERT INTO book_translations (book_id, target_lang, seq, status, translation, engine, model)
      SELECT book_id, 'zh', seq, 'done', '译文 ' || text, 'microsoft', ''
      FROM book_blocks`.execute(db);
    await sql`
      INSERT INTO user_books (user_id, book_id, title, author, source)
      SELECT owner_id, id, title, author, 'upload' FROM books WHERE code LIKE 'scale%'`.execute(db);
    // As autovacuum would have done by now on a live server: statistics and the visibility map.
    await sql`VACUUM ANALYZE`.execute(db);
    const mine = await db
      .selectFrom('books')
      .innerJoin('users', 'users.id', 'books.owner_id')
      .select('books.code')
      .where('users.account', '=', 'reader')
      .executeTakeFirstOrThrow();
    readerBook = mine.code;
  }, 300_000);
  afterAll(async () => t?.close());

  it('holds the seeded data set', async () => {
    const count = async (table: 'users' | 'books' | 'book_translations') =>
      Number(
        (
          await t.running.infra.db
            .selectFrom(table)
            .select(sql<string>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('users')).toBeGreaterThanOrEqual(USERS);
    expect(await count('books')).toBeGreaterThanOrEqual(BOOKS);
    expect(await count('book_translations')).toBeGreaterThanOrEqual(BOOKS * BLOCKS_PER_BOOK);
  });

  const calls = (): (string | { url: string; body: unknown })[] => [
    `/api/book/library?section=new&page=3`,
    `/api/book/library?section=popular`,
    `/api/book/library?keyword=${encodeURIComponent('number 123')}`,
    `/api/book/user/library?page=1`,
    `/api/book/user/list`,
    `/api/book/user/getBookByCode?bookCode=${readerBook}`,
    `/api/reader/getPageData?bookCode=${readerBook}&language=zh&page=3`,
    `/api/reader/marks?bookCode=${readerBook}`,
    `/api/reader/position?bookCode=${readerBook}`,
    // Search reads one book's postings: the common words of every book must not be read.
    {
      url: '/api/reader/search',
      body: { bookCode: readerBook, language: 'zh', query: 'Who wrote paragraph 42 of it?' },
    },
    { url: '/api/reader/search', body: { bookCode: readerBook, language: 'zh', query: '译文是什么' } },
  ];

  it('answers the library and reader calls without scanning a large table', async () => {
    const failures: string[] = [];
    const timings: string[] = [];
    for (const call of calls()) {
      const url = typeof call === 'string' ? call : `${call.url} ${JSON.stringify(call.body)}`;
      const started = performance.now();
      let status = 0;
      const queries = await captureQueries(async () => {
        status = (
          typeof call === 'string'
            ? await t.call('GET', call, { token })
            : await t.call('POST', call.url, { token, body: call.body })
        ).status;
      });
      timings.push(`${url}: ${(performance.now() - started).toFixed(1)} ms, ${queries.length} queries`);
      expect(status, url).toBe(200);
      const client = new pg.Client({ connectionString: t.databaseUrl });
      await client.connect();
      try {
        for (const query of queries) {
          if (!/^\s*(select|with)\b/i.test(query.text)) continue;
          const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${query.text}`, query.values);
          const plan = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan;
          const scanned = seqScans(plan);
          // SCALE_PLANS=1 prints every plan, to see why a query is slow.
          if (process.env.SCALE_PLANS) console.log(url, query.text, JSON.stringify(plan).slice(0, 400));
          if (scanned.length > 0) failures.push(`${url}\n  ${query.text}\n  seq scan on ${scanned.join(', ')}`);
        }
      } finally {
        await client.end();
      }
    }
    console.log(timings.join('\n'));
    expect(failures).toEqual([]);
  }, 120_000);
});
