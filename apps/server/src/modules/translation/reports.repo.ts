import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { TranslationReportStatus } from '../../db/schema.ts';

export interface ReportRow {
  id: string;
  book_id: number;
  target_lang: string;
  seq: number;
  user_id: number | null;
  original_translation: string;
  original_engine: string | null;
  original_model: string | null;
  alternative_translation: string | null;
  alternative_engine: string | null;
  alternative_model: string | null;
  status: TranslationReportStatus;
  created_at: Date;
  decided_at: Date | null;
}

export interface AdminReportRow extends ReportRow {
  book_code: string;
  book_title: string;
  block_id: string;
  page: number;
  text: string;
  reporter: string | null;
}

/** The only SQL about reports of wrong translations. */
export class ReportsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** A paragraph with its finished translation into a language. */
  paragraph(bookId: number, lang: string, blockId: string) {
    return this.db
      .selectFrom('book_blocks as b')
      .innerJoin('book_translations as t', (j) =>
        j.onRef('t.book_id', '=', 'b.book_id').onRef('t.seq', '=', 'b.seq').on('t.target_lang', '=', lang),
      )
      .select(['b.seq', 'b.page', 'b.text', 'b.html', 't.status', 't.translation', 't.engine', 't.model'])
      .where('b.book_id', '=', bookId)
      .where('b.block_id', '=', blockId)
      .executeTakeFirst();
  }

  block(bookId: number, seq: number) {
    return this.db
      .selectFrom('book_blocks')
      .select(['block_id', 'page', 'text', 'html'])
      .where('book_id', '=', bookId)
      .where('seq', '=', seq)
      .executeTakeFirst();
  }

  async insert(row: Omit<ReportRow, 'id' | 'status' | 'created_at' | 'decided_at'>): Promise<ReportRow> {
    return this.db.insertInto('translation_reports').values(row).returningAll().executeTakeFirstOrThrow();
  }

  find(id: number): Promise<ReportRow | undefined> {
    return this.db.selectFrom('translation_reports').selectAll().where('id', '=', String(id)).executeTakeFirst();
  }

  /** Records the reader's choice once; false when the report was already decided. */
  async decide(id: number, status: TranslationReportStatus): Promise<boolean> {
    const result = await this.db
      .updateTable('translation_reports')
      .set({ status, decided_at: new Date() })
      .where('id', '=', String(id))
      .where('status', '=', 'open')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The paragraph's translation becomes the chosen one, for every reader of the book. */
  async replaceTranslation(
    bookId: number,
    lang: string,
    seq: number,
    chosen: { translation: string; engine: string; model: string; glossaryKey: string },
  ): Promise<void> {
    await this.db
      .updateTable('book_translations')
      .set({
        translation: chosen.translation,
        engine: chosen.engine,
        model: chosen.model,
        glossary_key: chosen.glossaryKey,
        updated_at: new Date(),
      })
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .where('seq', '=', seq)
      .where('status', '=', 'done')
      .execute();
  }

  /** The chosen translation is kept in the memory and served before any other of the same text. */
  async rememberChosen(entry: {
    sourceHash: string;
    from: string;
    to: string;
    engine: string;
    model: string;
    glossaryKey: string;
    translation: string;
    sourceChars: number;
  }): Promise<void> {
    await this.db
      .insertInto('translation_memory')
      .values({
        source_hash: entry.sourceHash,
        source_lang: entry.from,
        target_lang: entry.to,
        engine: entry.engine,
        model: entry.model,
        glossary_key: entry.glossaryKey,
        translation: entry.translation,
        source_chars: entry.sourceChars,
        chosen_at: new Date(),
      })
      .onConflict((oc) =>
        oc
          .columns(['source_hash', 'source_lang', 'target_lang', 'engine', 'model', 'glossary_key'])
          .doUpdateSet({ translation: entry.translation, chosen_at: new Date() }),
      )
      .execute();
  }

  async list(page: number, pageSize: number): Promise<{ rows: AdminReportRow[]; total: number }> {
    const rows = await sql<AdminReportRow>`
      SELECT r.*, k.code AS book_code, k.title AS book_title, b.block_id, b.page, b.text, u.nickname AS reporter
      FROM translation_reports r
      JOIN books k ON k.id = r.book_id
      JOIN book_blocks b ON b.book_id = r.book_id AND b.seq = r.seq
      LEFT JOIN users u ON u.id = r.user_id
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`.execute(this.db);
    const total = await this.db
      .selectFrom('translation_reports')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    return { rows: rows.rows, total: total.n };
  }
}
