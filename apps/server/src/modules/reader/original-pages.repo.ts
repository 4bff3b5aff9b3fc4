import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { PdfRegionRow } from '../../db/schema.ts';

/** A block of the reflowed book: the reader page it is on and its id. */
export interface BlockPlace {
  page: number;
  blockId: string;
}

/** How many PDF pages back a block may begin and still reach a page (a paragraph across page breaks). */
const REACH_BACK_PAGES = 2;

/** The only SQL of the page view: where the pages of a PDF are in the reflowed book. */
export class OriginalPagesRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * The first block of a PDF page; for a page with no block (a picture, a blank page) the last block
   * before it, else the first after it. Each branch is one step of the index book_blocks_pdf_page.
   */
  async firstBlockOf(
    bookId: number,
    pdfPage: number,
  ): Promise<(BlockPlace & { regions: PdfRegionRow[] | null }) | undefined> {
    const { rows } = await sql<{ page: number; block_id: string; pdf_regions: PdfRegionRow[] | null }>`
      SELECT page, block_id, pdf_regions FROM (
        (SELECT 0 AS rank, page, block_id, pdf_regions FROM book_blocks
          WHERE book_id = ${bookId} AND pdf_page = ${pdfPage} ORDER BY pdf_page, seq LIMIT 1)
        UNION ALL
        (SELECT 1, page, block_id, pdf_regions FROM book_blocks
          WHERE book_id = ${bookId} AND pdf_page < ${pdfPage} ORDER BY pdf_page DESC, seq DESC LIMIT 1)
        UNION ALL
        (SELECT 2, page, block_id, pdf_regions FROM book_blocks
          WHERE book_id = ${bookId} AND pdf_page > ${pdfPage} ORDER BY pdf_page, seq LIMIT 1)
      ) AS found ORDER BY rank LIMIT 1`.execute(this.db);
    const row = rows[0];
    return row ? { page: row.page, blockId: row.block_id, regions: row.pdf_regions } : undefined;
  }

  /** The blocks that may stand on a PDF page, with their regions: those beginning on it or shortly before. */
  async blocksReaching(bookId: number, pdfPage: number): Promise<(BlockPlace & { regions: PdfRegionRow[] })[]> {
    const rows = await this.db
      .selectFrom('book_blocks')
      .select(['page', 'block_id', 'pdf_regions'])
      .where('book_id', '=', bookId)
      .where('pdf_page', '>=', pdfPage - REACH_BACK_PAGES)
      .where('pdf_page', '<=', pdfPage)
      .where('pdf_regions', 'is not', null)
      .orderBy('pdf_page')
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({ page: r.page, blockId: r.block_id, regions: r.pdf_regions ?? [] }));
  }
}
