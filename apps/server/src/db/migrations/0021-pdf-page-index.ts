import { sql, type Kysely } from 'kysely';

/**
 * The page view of a PDF book finds the reader page of a PDF page (its first block) and the blocks
 * under a point of a page: an index on each block's PDF page, so that a long book is not read
 * block by block for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX book_blocks_pdf_page ON book_blocks (book_id, pdf_page, seq)
    WHERE pdf_page IS NOT NULL`.execute(db);
}
