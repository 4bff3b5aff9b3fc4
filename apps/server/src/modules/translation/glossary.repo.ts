import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { GlossaryOrigin } from '../../db/schema.ts';
import { lockUntilCommit } from '../../db/locks.ts';

/** A suggestion as the panel shows it: its fields and who made it. */
const SUGGESTION_COLUMNS = [
  's.id',
  's.book_id',
  's.target_lang',
  's.source',
  's.target',
  's.note',
  's.user_id',
  's.status',
  's.created_at',
  'u.nickname',
] as const;

export interface EntryRow {
  source: string;
  target: string;
  note: string | null;
  origin: GlossaryOrigin;
}

export interface SuggestionRow {
  id: string;
  book_id: number;
  target_lang: string;
  source: string;
  target: string;
  note: string | null;
  user_id: number | null;
  status: 'pending' | 'accepted' | 'rejected';
  created_at: Date;
  nickname: string | null;
}

/** A translated paragraph that may hold glossary terms, as the retranslation quote weighs it. */
export interface ParagraphRow {
  seq: number;
  page: number;
  text: string;
  html: string | null;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  glossary_key: string | null;
}

/** The only SQL about glossaries, their suggestions and the paragraphs they touch. */
export class GlossaryRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  entries(bookId: number, lang: string): Promise<EntryRow[]> {
    return this.db
      .selectFrom('book_glossary')
      .select(['source', 'target', 'note', 'origin'])
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .orderBy('source')
      .execute();
  }

  /** Languages the book has a glossary in. */
  async languages(bookId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('book_glossary')
      .select('target_lang')
      .distinct()
      .where('book_id', '=', bookId)
      .execute();
    return rows.map((r) => r.target_lang);
  }

  private bump(trx: Db, bookId: number) {
    return trx
      .updateTable('books')
      .set({ glossary_version: sql`glossary_version + 1` })
      .where('id', '=', bookId)
      .execute();
  }

  /**
   * Replaces the glossary of a language and bumps the book's glossary version. Saves of the same
   * glossary take turns (a double click sent two): the second replaces the first's rows.
   */
  async replace(bookId: number, lang: string, entries: EntryRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockUntilCommit(trx, `glossary:${bookId}:${lang}`);
      await trx.deleteFrom('book_glossary').where('book_id', '=', bookId).where('target_lang', '=', lang).execute();
      if (entries.length > 0) {
        await trx
          .insertInto('book_glossary')
          .values(entries.map((e) => ({ book_id: bookId, target_lang: lang, ...e })))
          .execute();
      }
      await this.bump(trx, bookId);
    });
  }

  /** Adds entries whose source is not in the glossary yet; true when any was added. */
  async addMissing(bookId: number, lang: string, entries: EntryRow[], max: number): Promise<boolean> {
    if (entries.length === 0) return false;
    return this.db.transaction().execute(async (trx) => {
      const have = await trx
        .selectFrom('book_glossary')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('book_id', '=', bookId)
        .where('target_lang', '=', lang)
        .executeTakeFirstOrThrow();
      const room = Math.max(0, max - have.n);
      if (room === 0) return false;
      const result = await trx
        .insertInto('book_glossary')
        .values(entries.slice(0, room).map((e) => ({ book_id: bookId, target_lang: lang, ...e })))
        .onConflict((oc) => oc.columns(['book_id', 'target_lang', 'source']).doNothing())
        .executeTakeFirst();
      const added = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
      if (added) await this.bump(trx, bookId);
      return added;
    });
  }

  /** Sets one entry (a suggestion accepted) and bumps the version. */
  async put(bookId: number, lang: string, entry: EntryRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('book_glossary')
        .values({ book_id: bookId, target_lang: lang, ...entry })
        .onConflict((oc) =>
          oc
            .columns(['book_id', 'target_lang', 'source'])
            .doUpdateSet({ target: entry.target, note: entry.note, origin: entry.origin }),
        )
        .execute();
      await this.bump(trx, bookId);
    });
  }

  // ---------- suggestions ----------

  async suggest(input: {
    bookId: number;
    lang: string;
    userId: number;
    source: string;
    target: string;
    note: string | null;
  }): Promise<void> {
    await this.db
      .insertInto('glossary_suggestions')
      .values({
        book_id: input.bookId,
        target_lang: input.lang,
        user_id: input.userId,
        source: input.source,
        target: input.target,
        note: input.note,
      })
      .execute();
  }

  /** A reader's pending suggestions per book; they may not pile up without end. */
  async pendingCount(bookId: number, userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('glossary_suggestions')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('book_id', '=', bookId)
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return row.n;
  }

  /** Suggestions of a book and language: every pending one (for the owner), or one reader's latest. */
  suggestions(bookId: number, lang: string, by: { userId: number } | 'pending'): Promise<SuggestionRow[]> {
    let query = this.db
      .selectFrom('glossary_suggestions as s')
      .leftJoin('users as u', 'u.id', 's.user_id')
      .select(SUGGESTION_COLUMNS)
      .where('s.book_id', '=', bookId)
      .where('s.target_lang', '=', lang);
    query = by === 'pending' ? query.where('s.status', '=', 'pending') : query.where('s.user_id', '=', by.userId);
    return query.orderBy('s.created_at', 'desc').limit(100).execute();
  }

  findSuggestion(id: number): Promise<SuggestionRow | undefined> {
    return this.db
      .selectFrom('glossary_suggestions as s')
      .leftJoin('users as u', 'u.id', 's.user_id')
      .select(SUGGESTION_COLUMNS)
      .where('s.id', '=', String(id))
      .executeTakeFirst();
  }

  /** Decides a pending suggestion once; false when it was already decided. */
  async decide(id: number, status: 'accepted' | 'rejected'): Promise<boolean> {
    const result = await this.db
      .updateTable('glossary_suggestions')
      .set({ status, decided_at: new Date() })
      .where('id', '=', String(id))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  // ---------- paragraphs a glossary touches ----------

  /**
   * Translated paragraphs of the book that were made with glossary entries or hold one of these
   * sources now (a superset of the paragraphs whose entries changed: the service compares keys).
   */
  paragraphs(bookId: number, lang: string, sources: string[]): Promise<ParagraphRow[]> {
    return sql<ParagraphRow>`
      SELECT b.seq, b.page, b.text, b.html, t.status, t.attempts, t.glossary_key
      FROM book_translations t
      JOIN book_blocks b ON b.book_id = t.book_id AND b.seq = t.seq
      WHERE t.book_id = ${bookId} AND t.target_lang = ${lang} AND t.status IN ('done', 'pending')
        AND (coalesce(t.glossary_key, '') <> ''
          OR EXISTS (SELECT 1 FROM unnest(${sources}::text[]) s WHERE strpos(lower(b.text), lower(s)) > 0))
      ORDER BY b.seq`
      .execute(this.db)
      .then((r) => r.rows);
  }

  /** Sends finished paragraphs back to be translated again (with the glossary of now). */
  async markPending(bookId: number, lang: string, seqs: number[]): Promise<number> {
    if (seqs.length === 0) return 0;
    const result = await this.db
      .updateTable('book_translations')
      .set({ status: 'pending', attempts: 0, error: null, updated_at: new Date() })
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .where('seq', 'in', seqs)
      .where('status', '=', 'done')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The state of paragraphs after a retranslation, for its charge. */
  translated(
    bookId: number,
    lang: string,
    seqs: number[],
  ): Promise<{ seq: number; status: string; from_memory: boolean; chars: number; page: number }[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return sql<{ seq: number; status: string; from_memory: boolean; chars: number; page: number }>`
      SELECT t.seq, t.status, t.from_memory, length(b.text) AS chars, b.page
      FROM book_translations t JOIN book_blocks b ON b.book_id = t.book_id AND b.seq = t.seq
      WHERE t.book_id = ${bookId} AND t.target_lang = ${lang} AND t.seq = ANY(${seqs}::int[])`
      .execute(this.db)
      .then((r) => r.rows);
  }
}
