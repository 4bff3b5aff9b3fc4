import { nearestOnPage, type OriginalFile, type PdfLocateQuery, type PdfPlace } from '@yidu/shared';
import type { UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { BooksService } from '../books/books.service.ts';
import type { OriginalPagesRepo } from './original-pages.repo.ts';

/**
 * The reader's page view of a PDF book: a signed URL of the stored file (served by the media route,
 * with byte ranges, and checked again on every request as any media URL of the book), and where a
 * place of a PDF page is in the reflowed book.
 */
export class OriginalPagesService {
  private readonly d: { books: BooksService; repo: OriginalPagesRepo };
  constructor(deps: { books: BooksService; repo: OriginalPagesRepo }) {
    this.d = deps;
  }

  /** The file, for whoever may read the book: its URL names them unless the book is in the public library. */
  async file(user: UserRow, bookCode: string): Promise<OriginalFile> {
    const { book } = await this.d.books.viewCached(user, bookCode);
    const file = book.format === 'pdf' && book.file_id ? await this.d.books.repo.findFile(book.file_id) : undefined;
    if (!file) throw fail('noOriginalPages');
    const url = this.d.books.mediaUrl(file.storage_key, this.d.books.mediaGrant(book, user))!;
    const expires = Number(new URL(url, 'http://signed').searchParams.get('exp'));
    return { url, size: Number(file.size), expiresAt: new Date(expires * 1000).toISOString() };
  }

  /**
   * The reader page and block of a place of the original: the block whose region is under the point
   * (or nearest to it on that page) when a point is given, else the PDF page's first block.
   */
  async locate(user: UserRow, query: PdfLocateQuery): Promise<PdfPlace> {
    const { book } = await this.d.books.viewCached(user, query.bookCode);
    if (book.format !== 'pdf') throw fail('noOriginalPages');
    const { pdfPage, x, y } = query;
    if (x !== undefined && y !== undefined) {
      const candidates = await this.d.repo.blocksReaching(book.id, pdfPage);
      const found = nearestOnPage(candidates, (b) => b.regions, pdfPage, x, y);
      if (found) return { page: found.item.page, blockId: found.item.blockId, pdfRegions: found.item.regions };
    }
    const first = await this.d.repo.firstBlockOf(book.id, pdfPage);
    if (!first) return { page: 1, blockId: null, pdfRegions: null };
    return { page: first.page, blockId: first.blockId, pdfRegions: first.regions };
  }
}
