import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookRow, UserBookRow } from '../../db/schema.ts';

/** A book of a catalog with the reader's copy of it, when they have one. */
export interface CatalogBook {
  book: BookRow;
  copy: UserBookRow | undefined;
  /** The reader page the reader reached (Continue reading). */
  page?: number;
}

export interface CatalogFile {
  id: string;
  format: string;
  size: number;
  original_name: string;
}

/**
 * A copy is in the reader's catalog unless it came through a share link that no longer holds (and
 * the book is neither theirs nor public): the rule of BooksRepo.listCopies.
 */
const visibleCopy = (userId: number) => sql<boolean>`(ub.source <> 'share' OR b.owner_id = ${userId}
  OR (b.visibility = 1 AND NOT b.public_deleted)
  OR EXISTS (SELECT 1 FROM share_grants g JOIN book_shares s ON s.id = g.share_id
              WHERE g.user_id = ${userId} AND g.book_id = b.id
                AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now())))`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);

/** The SQL of the catalogs beyond the libraries BooksRepo lists: continue reading, search, what is translated. */
export class CatalogRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Books of the reader's library they have a place in, the last read first. */
  async continueReading(
    userId: number,
    limit: number,
    offset: number,
  ): Promise<{ rows: CatalogBook[]; total: number }> {
    const base = sql`FROM reading_positions p
      JOIN books b ON b.id = p.book_id AND b.status = 'ready'
      JOIN user_books ub ON ub.book_id = b.id AND ub.user_id = ${userId}
      WHERE p.user_id = ${userId} AND ${visibleCopy(userId)}`;
    const [rows, count] = await Promise.all([
      sql<{ book: BookRow; copy: UserBookRow; page: number }>`
        SELECT to_jsonb(b) AS book, to_jsonb(ub) AS copy, p.page ${base}
        ORDER BY p.updated_at DESC, b.id DESC LIMIT ${limit} OFFSET ${offset}`.execute(this.db),
      sql<{ n: string }>`SELECT count(*) AS n ${base}`.execute(this.db),
    ]);
    return {
      rows: rows.rows.map((r) => ({ book: reviveBook(r.book), copy: reviveCopy(r.copy), page: r.page })),
      total: Number(count.rows[0]!.n),
    };
  }

  /** Books the reader may see whose title or author holds the words: their library first, then the public library. */
  async search(
    userId: number,
    keyword: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: CatalogBook[]; total: number }> {
    const pattern = `%${escapeLike(keyword.toLowerCase())}%`;
    const base = sql`FROM books b
      LEFT JOIN user_books ub ON ub.book_id = b.id AND ub.user_id = ${userId}
      WHERE b.status = 'ready'
        AND ((b.visibility = 1 AND NOT b.public_deleted) OR (ub.id IS NOT NULL AND ${visibleCopy(userId)}))
        AND (lower(coalesce(ub.title, b.title)) LIKE ${pattern} OR lower(coalesce(ub.author, b.author)) LIKE ${pattern})`;
    const [rows, count] = await Promise.all([
      sql<{ book: BookRow; copy: UserBookRow | null }>`
        SELECT to_jsonb(b) AS book, to_jsonb(ub) AS copy ${base}
        ORDER BY (ub.id IS NOT NULL) DESC, lower(coalesce(ub.title, b.title)), b.id
        LIMIT ${limit} OFFSET ${offset}`.execute(this.db),
      sql<{ n: string }>`SELECT count(*) AS n ${base}`.execute(this.db),
    ]);
    return {
      rows: rows.rows.map((r) => ({ book: reviveBook(r.book), copy: r.copy ? reviveCopy(r.copy) : undefined })),
      total: Number(count.rows[0]!.n),
    };
  }

  /**
   * The languages each book has pages translated into for this reader: the pages charged to them
   * (read, or translated with the whole book), from their ledger's page keys.
   */
  async chargedLanguages(userId: number, bookIds: number[]): Promise<Map<number, Set<string>>> {
    const found = new Map<number, Set<string>>();
    if (bookIds.length === 0) return found;
    const rows = await sql<{ book_id: number; lang: string }>`
      SELECT DISTINCT split_part(idempotency_key, ':', 2)::int AS book_id, split_part(idempotency_key, ':', 3) AS lang
        FROM points_ledger
       WHERE user_id = ${userId} AND idempotency_key LIKE 'page:%'
         AND split_part(idempotency_key, ':', 2) = ANY(${bookIds.map(String)}::text[])`.execute(this.db);
    for (const row of rows.rows) {
      const languages = found.get(row.book_id) ?? new Set<string>();
      languages.add(row.lang);
      found.set(row.book_id, languages);
    }
    return found;
  }

  /** Which of these books have any finished translation into the language (when pages cost nothing). */
  async translatedInto(items: { bookId: number; lang: string }[]): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const rows = await sql<{ key: string }>`
      SELECT i.book_id || ':' || i.lang AS key
        FROM unnest(${items.map((i) => i.bookId)}::int[], ${items.map((i) => i.lang)}::text[]) AS i(book_id, lang)
       WHERE EXISTS (SELECT 1 FROM book_translations t
                      WHERE t.book_id = i.book_id AND t.target_lang = i.lang AND t.status = 'done')`.execute(this.db);
    return new Set(rows.rows.map((r) => r.key));
  }

  async files(fileIds: string[]): Promise<Map<string, CatalogFile>> {
    if (fileIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('files')
      .select(['id', 'format', 'size', 'original_name'])
      .where('id', 'in', fileIds)
      .execute();
    return new Map(rows.map((r) => [r.id, { ...r, size: Number(r.size) }]));
  }
}

/** Timestamps come back from to_jsonb as strings. */
function reviveBook(row: BookRow): BookRow {
  return { ...row, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) };
}

function reviveCopy(row: UserBookRow): UserBookRow {
  return {
    ...row,
    added_at: new Date(row.added_at),
    updated_at: new Date(row.updated_at),
    last_read_at: row.last_read_at ? new Date(row.last_read_at) : null,
  };
}
