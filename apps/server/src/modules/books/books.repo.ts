import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { AccessEvents } from '../../lib/access-events.ts';
import type {
  BookBlocksTable,
  BookChaptersTable,
  BookContentsTable,
  BookImagesTable,
  BookPendingCropsTable,
  BookRow,
  BooksTable,
  FileRow,
  StoredFileMetadata,
  UploadRequestRow,
  UploadRequestsTable,
  UserBookRow,
} from '../../db/schema.ts';
import type { Insertable, Updateable } from 'kysely';
import type { AiFeature } from '@yidu/shared';
import type { GeneratedTitle } from '@yidu/shared/contents';
import { activeShare, LibraryRepo } from './library.repo.ts';

/** A book as a user sees it: the public book joined with the user's copy when there is one. */
export interface BookView {
  book: BookRow;
  copy: UserBookRow | undefined;
  /** The AI features the user has on this book (all, or those granted by share links). */
  features?: AiFeature[];
}

export interface ListQuery {
  keyword?: string | undefined;
  limit: number;
  offset: number;
}

/** A book's figures, written with its content. */
export interface ContentStats {
  chapter_count: number;
  block_count: number;
  char_count: number;
  page_count: number;
  source_pages: number | null;
}

/** An entry of a book's contents with where it leads. */
export interface ContentsRow {
  idx: number;
  level: number;
  title: string;
  generated: GeneratedTitle | null;
  seq: number;
  block_id: string;
  page: number;
  chapter_idx: number;
}

/** SQL about files, books and their content, share grants and upload requests (personal libraries: library.repo.ts). */
export class BooksRepo {
  private readonly db: Db;
  /** Told after each write that can take access away (the database triggers tell other processes). */
  private readonly access: AccessEvents | undefined;
  /** Personal libraries and the public library's lists (library.repo.ts). */
  readonly library: LibraryRepo;
  constructor(db: Db, access?: AccessEvents) {
    this.db = db;
    this.access = access;
    this.library = new LibraryRepo(db, access);
  }

  // ---------- files and upload counts ----------

  findFileBySha(sha256: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('sha256', '=', sha256).executeTakeFirst();
  }

  findFile(id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Inserts a file row; when the same content raced in meanwhile, returns the existing row. */
  async insertFile(
    file: Omit<FileRow, 'created_at' | 'metadata' | 'partial_md5' | 'name_md5'> &
      Partial<Pick<FileRow, 'partial_md5' | 'name_md5'>>,
  ): Promise<FileRow> {
    const inserted = await this.db
      .insertInto('files')
      .values(file)
      .onConflict((oc) => oc.column('sha256').doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted ?? (await this.findFileBySha(file.sha256))!;
  }

  async setFileMetadata(id: string, metadata: StoredFileMetadata): Promise<void> {
    await this.db
      .updateTable('files')
      .set({ metadata: JSON.stringify(metadata) })
      .where('id', '=', id)
      .execute();
  }

  async recordUpload(ip: string, userId: number, fileId: string): Promise<void> {
    await this.db.insertInto('upload_events').values({ ip, user_id: userId, file_id: fileId }).execute();
  }

  // ---------- upload requests ----------

  /**
   * Turns one of the user's uploads of the file that no request has used yet into this request, or
   * answers undefined when there is none. Claiming the upload is one statement (SKIP LOCKED: requests
   * racing for the same uploads each get a different one, or none).
   */
  async createRequestFromUpload(
    request: Insertable<UploadRequestsTable> & { user_id: number; file_id: string },
  ): Promise<UploadRequestRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await sql`
        UPDATE upload_events SET request_id = ${request.id}
        WHERE id = (SELECT id FROM upload_events
                    WHERE user_id = ${request.user_id} AND file_id = ${request.file_id} AND request_id IS NULL
                    ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
          AND request_id IS NULL`.execute(trx);
      if (Number(claimed.numAffectedRows ?? 0) !== 1) return undefined;
      return trx.insertInto('upload_requests').values(request).returningAll().executeTakeFirstOrThrow();
    });
  }

  findRequest(id: string): Promise<UploadRequestRow | undefined> {
    return this.db.selectFrom('upload_requests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async updateRequest(id: string, patch: Updateable<UploadRequestsTable>): Promise<UploadRequestRow> {
    return this.db
      .updateTable('upload_requests')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Moves a request into `stage` (running) only if it is still where the caller saw it; two pollers
   * starting the same stage at once get one winner.
   */
  async startStage(
    id: string,
    fromStage: string,
    fromStatus: string,
    stage: string,
  ): Promise<UploadRequestRow | undefined> {
    return this.db
      .updateTable('upload_requests')
      .set({ stage, status: 'running', progress: 0, error_key: null, error_detail: null, updated_at: new Date() })
      .where('id', '=', id)
      .where('stage', '=', fromStage)
      .where('status', '=', fromStatus as 'running' | 'done' | 'failed')
      .returningAll()
      .executeTakeFirst();
  }

  async heartbeat(id: string, jobId: string): Promise<void> {
    await this.db
      .updateTable('upload_requests')
      .set({ updated_at: new Date() })
      .where('id', '=', id)
      .where('job_id', '=', jobId)
      .where('status', '=', 'running')
      .execute();
  }

  async mergeResults(id: string, results: Record<string, unknown>): Promise<void> {
    await sql`UPDATE upload_requests SET results = results || ${JSON.stringify(results)}::jsonb, updated_at = now() WHERE id = ${id}`.execute(
      this.db,
    );
  }

  // ---------- books and their content ----------

  findBookByCode(code: string): Promise<BookRow | undefined> {
    return this.db.selectFrom('books').selectAll().where('code', '=', code).executeTakeFirst();
  }

  findBookById(id: number): Promise<BookRow | undefined> {
    return this.db.selectFrom('books').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async codeTaken(code: string): Promise<boolean> {
    return (await this.db.selectFrom('books').select('id').where('code', '=', code).executeTakeFirst()) !== undefined;
  }

  insertBook(book: Insertable<BooksTable>): Promise<BookRow> {
    return this.db.insertInto('books').values(book).returningAll().executeTakeFirstOrThrow();
  }

  async updateBook(id: number, patch: Updateable<BooksTable>): Promise<BookRow> {
    const updated = await this.db
      .updateTable('books')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    this.access?.emit({ bookId: id });
    return updated;
  }

  async deleteBook(id: number): Promise<void> {
    await this.db.deleteFrom('books').where('id', '=', id).execute();
    this.access?.emit({ bookId: id });
  }

  /**
   * Replaces a book's chapters, blocks and images in one transaction (parsing is retried safely).
   * Blocks come in batches, each made only when the one before is written (book-content.ts); the
   * chapters and the book's figures, known once every block has been made, are asked for after them.
   */
  async replaceContent(
    bookId: number,
    content: {
      blockBatches: Iterable<Insertable<BookBlocksTable>[]> | AsyncIterable<Insertable<BookBlocksTable>[]>;
      images: Insertable<BookImagesTable>[];
      /** Figures whose pictures are made after (book-crops.ts). */
      pendingCrops?: Insertable<BookPendingCropsTable>[];
      finish: () => {
        chapters: Insertable<BookChaptersTable>[];
        contents: Insertable<BookContentsTable>[];
        stats: ContentStats;
      };
    },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('book_blocks').where('book_id', '=', bookId).execute();
      await trx.deleteFrom('book_chapters').where('book_id', '=', bookId).execute();
      await trx.deleteFrom('book_contents').where('book_id', '=', bookId).execute();
      await trx.deleteFrom('book_images').where('book_id', '=', bookId).execute();
      await trx.deleteFrom('book_pending_crops').where('book_id', '=', bookId).execute();
      for await (const batch of content.blockBatches) await trx.insertInto('book_blocks').values(batch).execute();
      const { chapters, contents, stats } = content.finish();
      // Batches keep each statement under PostgreSQL's 65,535 parameter limit.
      for (let i = 0; i < chapters.length; i += 1000) {
        await trx
          .insertInto('book_chapters')
          .values(chapters.slice(i, i + 1000))
          .execute();
      }
      for (let i = 0; i < contents.length; i += 1000) {
        await trx
          .insertInto('book_contents')
          .values(contents.slice(i, i + 1000))
          .execute();
      }
      for (let i = 0; i < content.images.length; i += 1000) {
        await trx
          .insertInto('book_images')
          .values(content.images.slice(i, i + 1000))
          .execute();
      }
      const pendingCrops = content.pendingCrops ?? [];
      for (let i = 0; i < pendingCrops.length; i += 1000) {
        await trx
          .insertInto('book_pending_crops')
          .values(pendingCrops.slice(i, i + 1000))
          .execute();
      }
      await trx
        .updateTable('books')
        .set({ ...stats, updated_at: new Date() })
        .where('id', '=', bookId)
        .execute();
    });
  }

  /** The contents in the book's order, each entry with the block it leads to and that block's page. */
  contents(bookId: number): Promise<ContentsRow[]> {
    return this.db
      .selectFrom('book_contents as c')
      .innerJoin('book_blocks as b', (j) => j.onRef('b.book_id', '=', 'c.book_id').onRef('b.seq', '=', 'c.seq'))
      .select(['c.idx', 'c.level', 'c.title', 'c.generated', 'c.seq', 'b.block_id', 'b.page', 'b.chapter_idx'])
      .where('c.book_id', '=', bookId)
      .orderBy('c.idx')
      .execute();
  }

  chapters(bookId: number): Promise<Selectable<BookChaptersTable>[]> {
    return this.db.selectFrom('book_chapters').selectAll().where('book_id', '=', bookId).orderBy('idx').execute();
  }

  /**
   * The blocks of a book's body in order, for language detection (detectBookLanguage samples them as it
   * samples a parsed book). Code says nothing about the language; images have no text.
   */
  async bodyText(bookId: number): Promise<{ type: string; text: string }[]> {
    return this.db
      .selectFrom('book_blocks')
      .select(['type', 'text'])
      .where('book_id', '=', bookId)
      .where('type', '<>', 'code')
      .where('text', '<>', '')
      .orderBy('seq')
      .execute();
  }

  /** Evenly spread blocks of body text, as passages for the glossary. */
  async sampleText(bookId: number, samples = 24): Promise<string[]> {
    const rows = await sql<{ text: string }>`
      SELECT text FROM (
        SELECT text, row_number() OVER (PARTITION BY bucket ORDER BY length(text) DESC) AS rank
        FROM (
          SELECT text, ntile(${samples}) OVER (ORDER BY seq) AS bucket
          FROM book_blocks WHERE book_id = ${bookId} AND type IN ('paragraph', 'quote', 'listItem') AND length(text) >= 20
        ) buckets
      ) ranked WHERE rank = 1`.execute(this.db);
    return rows.rows.map((r) => r.text.slice(0, 600));
  }

  images(bookId: number, imageIds: string[]): Promise<Selectable<BookImagesTable>[]> {
    if (imageIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('book_images')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('image_id', 'in', imageIds)
      .execute();
  }

  // ---------- share grants ----------

  async grantedFeatures(userId: number, bookId: number): Promise<AiFeature[]> {
    const rows = await sql<{ feature: AiFeature }>`
      SELECT DISTINCT unnest(s.features) AS feature
      FROM share_grants g JOIN book_shares s ON s.id = g.share_id
      WHERE g.user_id = ${userId} AND g.book_id = ${bookId} AND ${activeShare}`.execute(this.db);
    return rows.rows.map((r) => r.feature);
  }

  async hasActiveGrant(userId: number, bookId: number): Promise<boolean> {
    const row = await sql<{ one: number }>`
      SELECT 1 AS one FROM share_grants g JOIN book_shares s ON s.id = g.share_id
      WHERE g.user_id = ${userId} AND g.book_id = ${bookId} AND ${activeShare} LIMIT 1`.execute(this.db);
    return row.rows.length > 0;
  }

  /** Whether a share link is neither revoked nor expired. */
  async shareHolds(shareId: string): Promise<boolean> {
    const row = await sql<{ one: number }>`
      SELECT 1 AS one FROM book_shares s WHERE s.id = ${shareId} AND ${activeShare}`.execute(this.db);
    return row.rows.length > 0;
  }
}
