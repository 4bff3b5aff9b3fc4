import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { DeviceProgressTable, ServedDocumentsTable, ServedVariant } from '../../db/schema.ts';

export type DeviceProgressRow = Selectable<DeviceProgressTable>;
export type ServedDocumentRow = Selectable<ServedDocumentsTable>;

/** A block of a book and where it stands: its reader page and the share of the book's text before it. */
export interface BlockPlace {
  blockId: string;
  page: number;
  /** Characters of the book before the block, over all of them (0 ≤ fraction < 1). */
  fraction: number;
  pdfPage: number | null;
}

/**
 * The only SQL of the progress sync: what devices pushed, the documents served to them and the
 * digests they know them by, and places in a book (by share of its text, or by PDF page).
 */
export class KosyncRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  // ---------- progress ----------

  progress(userId: number, document: string): Promise<DeviceProgressRow | undefined> {
    return this.db
      .selectFrom('device_progress')
      .selectAll()
      .where('user_id', '=', userId)
      .where('document', '=', document)
      .executeTakeFirst();
  }

  async documentCount(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('device_progress')
      .select(sql<string>`count(*)`.as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async saveProgress(row: Insertable<DeviceProgressTable>): Promise<void> {
    const { user_id: _user, document: _document, ...changes } = row;
    await this.db
      .insertInto('device_progress')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'document']).doUpdateSet(changes))
      .execute();
  }

  // ---------- documents and their digests ----------

  /** Remembers what was served to a reader under each digest (a later serving of the same updates it). */
  async recordServed(rows: Insertable<ServedDocumentsTable>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('served_documents')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['user_id', 'digest', 'method', 'book_id', 'variant', 'language']).doUpdateSet((eb) => ({
          size: eb.ref('excluded.size'),
          version: eb.ref('excluded.version'),
          has_cover: eb.ref('excluded.has_cover'),
          served_at: eb.ref('excluded.served_at'),
        })),
      )
      .execute();
  }

  /** What was served to the reader under this digest, by its bytes first, the latest first. */
  served(userId: number, digest: string): Promise<ServedDocumentRow[]> {
    return this.db
      .selectFrom('served_documents')
      .selectAll()
      .where('user_id', '=', userId)
      .where('digest', '=', digest)
      .orderBy(sql`method = 'binary'`, 'desc')
      .orderBy('served_at', 'desc')
      .limit(20)
      .execute();
  }

  /** The exports of these books the reader was sent, the latest of each variant and language first. */
  servedExports(
    userId: number,
    bookIds: number[],
  ): Promise<Pick<ServedDocumentRow, 'book_id' | 'variant' | 'language' | 'size' | 'version'>[]> {
    if (bookIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('served_documents')
      .select(['book_id', 'variant', 'language', 'size', 'version'])
      .distinctOn(['book_id', 'variant', 'language'])
      .where('user_id', '=', userId)
      .where('book_id', 'in', bookIds)
      .where('method', '=', 'binary')
      .where('variant', '<>', 'original' satisfies ServedVariant)
      .orderBy('book_id')
      .orderBy('variant')
      .orderBy('language')
      .orderBy('served_at', 'desc')
      .execute();
  }

  /** Books made from a file with this partial MD5 or name MD5 (originals), with how the digest matched. */
  async booksOfFileDigest(digest: string): Promise<{ book_id: number; method: 'binary' | 'filename' }[]> {
    const rows = await sql<{ book_id: number; method: 'binary' | 'filename' }>`
      SELECT b.id AS book_id, CASE WHEN f.partial_md5 = ${digest} THEN 'binary' ELSE 'filename' END AS method
        FROM files f JOIN books b ON b.file_id = f.id
       WHERE (f.partial_md5 = ${digest} OR f.name_md5 = ${digest}) AND b.status = 'ready'
       ORDER BY (f.partial_md5 = ${digest}) DESC, b.id
       LIMIT 50`.execute(this.db);
    return rows.rows;
  }

  /** Files whose partial MD5 is not known yet (those stored before it was kept). */
  filesWithoutDigest(limit: number): Promise<{ id: string; storage_key: string }[]> {
    return this.db
      .selectFrom('files')
      .select(['id', 'storage_key'])
      .where('partial_md5', 'is', null)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  async setFileDigest(fileId: string, partialMd5: string): Promise<void> {
    await this.db.updateTable('files').set({ partial_md5: partialMd5 }).where('id', '=', fileId).execute();
  }

  // ---------- places in a book ----------

  /** The block at a share of the book's text (0: its first block, 1: its last). */
  async blockAtFraction(bookId: number, fraction: number): Promise<BlockPlace | undefined> {
    const rows = await sql<{ block_id: string; page: number; before: string; total: string; pdf_page: number | null }>`
      WITH text AS (
        SELECT block_id, page, pdf_page, seq,
               coalesce(sum(length(text)) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before,
               sum(length(text)) OVER () AS total
          FROM book_blocks WHERE book_id = ${bookId}
      )
      SELECT block_id, page, pdf_page, before, total FROM text
       WHERE before <= ${fraction}::float8 * total
       ORDER BY seq DESC LIMIT 1`.execute(this.db);
    const row = rows.rows[0];
    return row ? toPlace(row) : undefined;
  }

  /** The first block that starts on this page of a PDF or after it (else the last block). */
  async blockAtPdfPage(bookId: number, pdfPage: number): Promise<BlockPlace | undefined> {
    const rows = await sql<{ block_id: string; page: number; before: string; total: string; pdf_page: number | null }>`
      WITH text AS (
        SELECT block_id, page, pdf_page, seq,
               coalesce(sum(length(text)) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before,
               sum(length(text)) OVER () AS total
          FROM book_blocks WHERE book_id = ${bookId}
      )
      SELECT block_id, page, pdf_page, before, total FROM text
       ORDER BY (pdf_page >= ${pdfPage}::int) DESC NULLS LAST,
                CASE WHEN pdf_page >= ${pdfPage}::int THEN seq ELSE -seq END
       LIMIT 1`.execute(this.db);
    const row = rows.rows[0];
    return row ? toPlace(row) : undefined;
  }

  /** Where a block stands; a block that is gone is taken as the first block of its page. */
  async placeOfBlock(bookId: number, page: number, blockId: string | null): Promise<BlockPlace | undefined> {
    const rows = await sql<{ block_id: string; page: number; before: string; total: string; pdf_page: number | null }>`
      WITH text AS (
        SELECT block_id, page, pdf_page, seq,
               coalesce(sum(length(text)) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before,
               sum(length(text)) OVER () AS total
          FROM book_blocks WHERE book_id = ${bookId}
      )
      SELECT block_id, page, pdf_page, before, total FROM text
       WHERE block_id = ${blockId ?? ''} OR page >= ${page}
       ORDER BY (block_id = ${blockId ?? ''}) DESC, seq
       LIMIT 1`.execute(this.db);
    const row = rows.rows[0];
    return row ? toPlace(row) : undefined;
  }

  /** The pages that hold blocks. */
  async pagesWithBlocks(bookId: number): Promise<Set<number>> {
    const rows = await sql<{ page: number }>`
      SELECT DISTINCT page FROM book_blocks WHERE book_id = ${bookId}`.execute(this.db);
    return new Set(rows.rows.map((r) => r.page));
  }
}

function toPlace(row: { block_id: string; page: number; before: string; total: string; pdf_page: number | null }) {
  const total = Number(row.total);
  return {
    blockId: row.block_id,
    page: row.page,
    fraction: total > 0 ? Number(row.before) / total : 0,
    pdfPage: row.pdf_page,
  };
}
