import { sql, type Kysely } from 'kysely';

/**
 * Full-text search over a book's paragraphs and their translations (the reader's search panel).
 *
 * Words are indexed as PostgreSQL lexemes of our own configuration `yidu_search`: the `simple`
 * dictionary (lower case, no stemming, no stop words: the query side drops stop words in the
 * query's language and matches prefixes, so one index serves books of every language) behind
 * `unaccent` (a learner types "eglise" for "église"). Chinese, Japanese and Korean have no spaces
 * between words: each CJK character is indexed as a word of its own, with its position, so a
 * two-character term of the query is a phrase query ('宝' <-> '玉') that the index answers.
 *
 * The indexes are on expressions, not stored columns: nothing changes for the code that writes
 * blocks and translations, and the tables are not rewritten. Both lead with `book_id` (btree_gin),
 * so a search reads the postings of one book, not those of every book sharing a common word.
 * See docs/adr/0005-passage-search-in-postgres.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gin`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS unaccent`.execute(db);
  await sql`CREATE TEXT SEARCH CONFIGURATION yidu_search (COPY = simple)`.execute(db);
  await sql`ALTER TEXT SEARCH CONFIGURATION yidu_search
    ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
    WITH unaccent, simple`.execute(db);

  // Punctuation outside ASCII becomes a space: the parser would take “ ’ « — 。 for letters and index
  // '"queequeg' for “Queequeg. Then Han (with its extensions and the compatibility block), kana and
  // Hangul syllables become one word each.
  await sql`CREATE FUNCTION yidu_search_text(body text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN regexp_replace(
      regexp_replace(body, '[\\u00a0-\\u00bf\\u00d7\\u00f7\\u2000-\\u2bff\\u3000-\\u303f\\ufe30-\\ufe4f\\uff01-\\uff0f\\uff1a-\\uff20\\uff3b-\\uff40\\uff5b-\\uff65]', ' ', 'g'),
      '([\\u3040-\\u30ff\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\U00020000-\\U0003134f])', ' \\1 ', 'g')`.execute(
    db,
  );
  // Translations are inline HTML (escaped text, a few tags): their words, as a reader sees them.
  await sql`CREATE FUNCTION yidu_html_text(html text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN replace(replace(replace(replace(replace(replace(
      regexp_replace(html, '<[^>]*>', '', 'g'),
      '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&nbsp;', ' '), '&amp;', '&')`.execute(db);
  await sql`CREATE FUNCTION yidu_search_vector(body text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN to_tsvector('yidu_search'::regconfig, yidu_search_text(body))`.execute(db);

  await sql`CREATE INDEX book_blocks_search ON book_blocks USING gin (book_id, yidu_search_vector(text))`.execute(db);
  await sql`CREATE INDEX book_translations_search ON book_translations
    USING gin (book_id, target_lang, yidu_search_vector(yidu_html_text(translation)))
    WHERE status = 'done'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
