/**
 * Passage search on a large book (issue 19): 100,000 paragraphs of real English prose (Sherlock
 * Holmes repeated) each with a finished Chinese "translation" (real Chinese prose of 三国演义, so the
 * CJK postings have a real distribution), beside 300 ordinary books sharing the same common words.
 * Each question goes through `PassageSearch.find` (the service the route calls: index, BM25,
 * snippets). References measured in the same run, on the same book:
 *   - the search it replaced: a LIKE per word over the original and the translation (lower(...) LIKE
 *     '%word%', scored by the words present), as ai.repo.ts had it;
 *   - reading the whole book once (every paragraph and translation), which is what a per-book index
 *     kept in memory would have to load before its first answer.
 * Also the cost of the indexes on writes: inserting a book's paragraphs and translations with and
 * without them.
 *
 *   node bench/search.ts     (from the repository root; needs ../shared/corpus)
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import type { Database } from '../apps/server/src/db/schema.ts';
import { createLogger } from '../apps/server/src/lib/logger.ts';
import { PassageSearch } from '../apps/server/src/modules/ai/search.service.ts';

const root = path.resolve(import.meta.dirname, '..');
const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(root, '../shared/corpus');
const LARGE = 100_000;
const SMALL_BOOKS = 300;
const SMALL = 300;
const ROUNDS = 7;

const paragraphs = (text: string) =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 40);
const english = paragraphs(await readFile(path.join(corpus, 'txt/en-sherlock-holmes-utf8-bom-crlf.txt'), 'utf8'));
const chinese = iconv
  .decode(await readFile(path.join(corpus, 'txt/zh-sanguo-yanyi-gbk.txt')), 'gbk')
  .split(/\r?\n/)
  .map((p) => p.trim())
  .filter((p) => p.length > 20);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-bench-search-'));
const server = await startEmbeddedPostgres({
  dataDir,
  port: 55000 + Math.floor(Math.random() * 1000),
  logger: createLogger('warn', 'bench'),
  database: 'postgres',
});
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: server.url, max: 2 }) }),
});

async function time<T>(run: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await run();
  return [performance.now() - started, value];
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A book of `count` paragraphs (English, in chapters of 50) with Chinese translations; its id. */
async function seedBook(code: string, count: number, offset: number): Promise<[number, number, number]> {
  const [book] = await sql<{ id: number }>`
    INSERT INTO books (code, title, author, format, status, original_language, chapter_count, block_count, page_count)
    VALUES (${code}, ${code}, 'Bench', 'txt', 'ready', 'en', ${Math.ceil(count / 50)}, ${count}, ${Math.ceil(count / 20)})
    RETURNING id`
    .execute(db)
    .then((r) => r.rows);
  const id = book!.id;
  await sql`INSERT INTO book_chapters (book_id, idx, title, level, first_page, first_seq, block_count)
    SELECT ${id}, c, 'Chapter ' || c, 1, (c - 1) * 50 / 20 + 1, (c - 1) * 50 + 1, 50
    FROM generate_series(1, ${Math.ceil(count / 50)}) c`.execute(db);
  const texts = Array.from({ length: count }, (_, i) => english[(offset + i) % english.length]!);
  const translations = Array.from({ length: count }, (_, i) => chinese[(offset + i) % chinese.length]!);
  const [blocksMs] = await time(() =>
    sql`INSERT INTO book_blocks (book_id, seq, block_id, chapter_idx, page, type, text)
      SELECT ${id}, s, 'b' || s, (s - 1) / 50 + 1, (s - 1) / 20 + 1, 'paragraph', t
      FROM unnest(${texts}::text[]) WITH ORDINALITY AS u(t, s)`.execute(db),
  );
  const [translationsMs] = await time(() =>
    sql`INSERT INTO book_translations (book_id, target_lang, seq, status, translation, engine, model)
      SELECT ${id}, 'zh', s, 'done', t, 'microsoft', ''
      FROM unnest(${translations}::text[]) WITH ORDINALITY AS u(t, s)`.execute(db),
  );
  return [id, blocksMs, translationsMs];
}

try {
  await migrateToLatest(db as unknown as Kysely<unknown>);
  console.log(`seeding ${SMALL_BOOKS} books of ${SMALL} paragraphs and one of ${LARGE}…`);
  for (let b = 0; b < SMALL_BOOKS; b++) await seedBook(`small${b}`, SMALL, b * 37);
  const [largeId, withBlocks, withTranslations] = await seedBook('large', LARGE, 0);

  // The same book again without the search indexes: what they cost on writes.
  await sql`DROP INDEX book_blocks_search`.execute(db);
  await sql`DROP INDEX book_translations_search`.execute(db);
  const [copyId, withoutBlocks, withoutTranslations] = await seedBook('copy', LARGE, 0);
  await sql`DELETE FROM books WHERE id = ${copyId}`.execute(db);
  const [indexMs] = await time(async () => {
    await sql`CREATE INDEX book_blocks_search ON book_blocks USING gin (book_id, yidu_search_vector(text))`.execute(db);
    await sql`CREATE INDEX book_translations_search ON book_translations
      USING gin (book_id, target_lang, yidu_search_vector(yidu_html_text(translation))) WHERE status = 'done'`.execute(
      db,
    );
  });
  await sql`VACUUM ANALYZE`.execute(db);
  const rows = await sql<{ n: string }>`SELECT count(*) AS n FROM book_blocks`.execute(db);
  console.log(`${rows.rows[0]!.n} paragraphs in all; search indexes built in ${(indexMs / 1000).toFixed(1)} s`);

  const book = await db.selectFrom('books').selectAll().where('id', '=', largeId).executeTakeFirstOrThrow();
  const search = new PassageSearch(db);

  /** The search this replaced (ai.repo.ts before issue 19), on the same words. */
  const likeSearch = async (terms: string[]) => {
    const patterns = terms.map((t) => `%${t.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    const score = sql.join(
      patterns.map(
        (p) =>
          sql`(CASE WHEN lower(b.text) LIKE ${p} OR lower(coalesce(t.translation, '')) LIKE ${p} THEN 1 ELSE 0 END)`,
      ),
      sql` + `,
    );
    return sql`SELECT b.block_id, b.page, b.text, t.translation, c.title, (${score}) AS score
      FROM book_blocks b
      JOIN book_chapters c ON c.book_id = b.book_id AND c.idx = b.chapter_idx
      LEFT JOIN book_translations t ON t.book_id = b.book_id AND t.seq = b.seq AND t.target_lang = 'zh' AND t.status = 'done'
      WHERE b.book_id = ${largeId} AND (${score}) > 0
      ORDER BY score DESC, b.seq LIMIT 20`.execute(db);
  };
  const readWholeBook = () =>
    sql`SELECT b.seq, b.text, t.translation FROM book_blocks b
      LEFT JOIN book_translations t ON t.book_id = b.book_id AND t.seq = b.seq AND t.target_lang = 'zh' AND t.status = 'done'
      WHERE b.book_id = ${largeId}`.execute(db);

  const questions = [
    'Who is Irene Adler?',
    'the speckled band',
    'What did Holmes say about Watson?',
    '诸葛亮是谁？',
    '关羽怎么死的',
    'the of and',
  ];
  const results: Record<string, unknown>[] = [];
  const whole: number[] = [];
  for (let round = 0; round < 2; round++) await readWholeBook(); // warm the cache as for the others
  for (let round = 0; round < ROUNDS; round++) whole.push((await time(readWholeBook))[0]);
  for (const question of questions) {
    await search.find(book, 'zh', question);
    await likeSearch(question.split(/\s+/).slice(0, 6));
    const ours: number[] = [];
    const like: number[] = [];
    let found;
    for (let round = 0; round < ROUNDS; round++) {
      const [ms, value] = await time(() => search.find(book, 'zh', question));
      ours.push(ms);
      found = value;
      like.push((await time(() => likeSearch(question.split(/\s+/).slice(0, 6))))[0]);
    }
    results.push({
      question,
      passages: found!.stats.passages,
      truncated: found!.stats.truncated,
      searchMs: median(ours),
      likeMs: median(like),
      wholeBookMs: median(whole),
    });
  }

  console.log(`\nbook of ${LARGE.toLocaleString('en')} paragraphs with Chinese translations, median of ${ROUNDS}`);
  console.log('| question | passages | search | LIKE search (before) | ratio | reading the whole book | ratio |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    const s = r.searchMs as number;
    console.log(
      `| ${r.question as string} | ${(r.passages as number).toLocaleString('en')}${r.truncated ? ' (first 3,000 ranked)' : ''} | ${s.toFixed(1)} ms | ${(r.likeMs as number).toFixed(0)} ms | ${(s / (r.likeMs as number)).toFixed(3)}x | ${(r.wholeBookMs as number).toFixed(0)} ms | ${(s / (r.wholeBookMs as number)).toFixed(3)}x |`,
    );
  }
  const writes = {
    blocksMs: withBlocks,
    blocksWithoutIndexMs: withoutBlocks,
    translationsMs: withTranslations,
    translationsWithoutIndexMs: withoutTranslations,
  };
  console.log(
    `\nwriting the ${LARGE.toLocaleString('en')} paragraphs: ${withBlocks.toFixed(0)} ms with the index, ${withoutBlocks.toFixed(0)} ms without (${(withBlocks / withoutBlocks).toFixed(2)}x, ${(((withBlocks - withoutBlocks) / LARGE) * 1000).toFixed(0)} µs per paragraph)`,
  );
  console.log(
    `writing their translations: ${withTranslations.toFixed(0)} ms with the index, ${withoutTranslations.toFixed(0)} ms without (${(withTranslations / withoutTranslations).toFixed(2)}x, ${(((withTranslations - withoutTranslations) / LARGE) * 1000).toFixed(0)} µs per translation)`,
  );
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, 'bench/results/search.json'), JSON.stringify({ results, writes }, null, 2));
} finally {
  await db.destroy();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
