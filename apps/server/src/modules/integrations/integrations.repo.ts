import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/** A highlight, underline or annotation with what it is about: book, chapter, paragraph and its translation. */
export interface HighlightRow {
  id: string;
  kind: 'highlight' | 'underline' | 'annotation';
  book_id: number;
  book_code: string;
  title: string;
  author: string;
  original_language: string | null;
  page: number;
  block_id: string;
  quote: string;
  content: string | null;
  color: string | null;
  in_translation: boolean;
  /** The reading language of the mark (its translation's language). */
  language: string | null;
  block_text: string;
  /** The paragraph's finished translation into `language`, null when there is none. */
  translation: string | null;
  chapter_title: string | null;
  created_at: Date;
  content_hash: string;
}

/** What a pushed mark's content was: a mark is pushed again when it changed (an edited note). */
const CONTENT_HASH = sql<string>`md5(m.kind || chr(31) || m.quote || chr(31) || coalesce(m.content, ''))`;

/** The only SQL of the integrations: highlights as Readwise and Obsidian take them, and the Readwise connection. */
export class IntegrationsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The user's highlights, underlines and notes in reading order (of one book; only unpushed ones). */
  async highlights(
    userId: number,
    options: { bookId?: number; unpushed?: boolean; limit?: number },
  ): Promise<HighlightRow[]> {
    const { rows } = await sql<HighlightRow>`
      SELECT m.id, m.kind, m.book_id, bk.code AS book_code,
             coalesce(ub.title, bk.title) AS title, coalesce(ub.author, bk.author) AS author,
             bk.original_language, m.page, m.block_id, m.quote, m.content, m.color, m.in_translation,
             coalesce(m.language, ub.read_language, p.language) AS language,
             b.text AS block_text, t.translation, c.title AS chapter_title, m.created_at,
             ${CONTENT_HASH} AS content_hash
        FROM reader_marks m
        JOIN books bk ON bk.id = m.book_id
        JOIN book_blocks b ON b.book_id = m.book_id AND b.block_id = m.block_id
        LEFT JOIN user_books ub ON ub.book_id = m.book_id AND ub.user_id = m.user_id
        LEFT JOIN reading_positions p ON p.book_id = m.book_id AND p.user_id = m.user_id
        LEFT JOIN book_chapters c ON c.book_id = b.book_id AND c.idx = b.chapter_idx
        LEFT JOIN book_translations t
          ON t.book_id = b.book_id AND t.seq = b.seq AND t.status = 'done'
         AND t.target_lang = coalesce(m.language, ub.read_language, p.language)
        LEFT JOIN readwise_pushes rp ON rp.mark_id = m.id
       WHERE m.user_id = ${userId}
         AND m.kind IN ('highlight', 'underline', 'annotation')
         AND (${options.bookId ?? null}::integer IS NULL OR m.book_id = ${options.bookId ?? null})
         AND (NOT ${options.unpushed ?? false} OR rp.mark_id IS NULL OR rp.content_hash <> ${CONTENT_HASH})
       ORDER BY m.book_id, b.seq, m.start_offset NULLS FIRST, m.id
       LIMIT ${options.limit ?? 100_000}`.execute(this.db);
    return rows;
  }

  async countUnpushed(userId: number): Promise<number> {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n
        FROM reader_marks m LEFT JOIN readwise_pushes rp ON rp.mark_id = m.id
       WHERE m.user_id = ${userId} AND m.kind IN ('highlight', 'underline', 'annotation')
         AND (rp.mark_id IS NULL OR rp.content_hash <> ${CONTENT_HASH})`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** Records what Readwise now has. */
  async markPushed(userId: number, marks: { id: string; content_hash: string }[]): Promise<void> {
    if (marks.length === 0) return;
    await this.db
      .insertInto('readwise_pushes')
      .values(marks.map((m) => ({ mark_id: m.id, user_id: userId, content_hash: m.content_hash })))
      .onConflict((oc) =>
        oc.column('mark_id').doUpdateSet((eb) => ({
          content_hash: eb.ref('excluded.content_hash'),
          pushed_at: new Date(),
        })),
      )
      .execute();
  }

  account(userId: number) {
    return this.db.selectFrom('readwise_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async saveAccount(userId: number, values: { token_sealed?: string; token_hint?: string; auto_push?: boolean }) {
    const { token_sealed, token_hint } = values;
    if (token_sealed && token_hint) {
      await this.db
        .insertInto('readwise_accounts')
        .values({ user_id: userId, token_sealed, token_hint, auto_push: values.auto_push ?? true })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            token_sealed,
            token_hint,
            last_error: null,
            updated_at: new Date(),
            ...(values.auto_push === undefined ? {} : { auto_push: values.auto_push }),
          }),
        )
        .execute();
    } else if (values.auto_push !== undefined) {
      await this.db
        .updateTable('readwise_accounts')
        .set({ auto_push: values.auto_push, updated_at: new Date() })
        .where('user_id', '=', userId)
        .execute();
    }
  }

  async recordPush(userId: number, outcome: { ok: true } | { ok: false; error: string }): Promise<void> {
    await this.db
      .updateTable('readwise_accounts')
      .set(outcome.ok ? { last_push_at: new Date(), last_error: null } : { last_error: outcome.error })
      .where('user_id', '=', userId)
      .execute();
  }

  /** Forgets the token; what was pushed is forgotten too, so a new connection (maybe another account) gets everything. */
  async removeAccount(userId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('readwise_accounts').where('user_id', '=', userId).execute();
      await trx.deleteFrom('readwise_pushes').where('user_id', '=', userId).execute();
    });
  }
}
