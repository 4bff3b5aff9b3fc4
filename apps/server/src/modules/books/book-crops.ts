/**
 * Pictures of PDF figures made after the book is stored (issue 24). The parse crops the first
 * figures (PDF_CROPS_IN_PARSE) so that a book of 400 figures is read in little more than the time
 * its text takes; the rest are rendered here, by the queue job book.crops, a batch at a time in a
 * parse process (the same memory and time limits as a parse). Each batch's pictures are stored and
 * shown as soon as it is done; between batches, a waiting upload gets the parse process first.
 */
import type { Config } from '../../config/env.ts';
import { isParseError } from '../../engines/parsers/errors.ts';
import { ParserFailure, type ParseHost } from '../../engines/parsers/isolated/parse-host.ts';
import type { BookImage, PendingCrop } from '../../engines/parsers/types.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import type { Logger } from '../../lib/logger.ts';
import { storeBookImage } from './book-content.ts';
import type { BookCropsRepo, PendingCropRow } from './book-crops.repo.ts';
import type { BooksRepo } from './books.repo.ts';

/** Crops per parse-process call: a few seconds of work, after which a waiting upload may go first. */
export const CROPS_PER_BATCH = 24;
/** Crops no run has touched for this long lost their job (a worker gone for good): queued again. */
export const STALE_CROPS_SECONDS = 15 * 60;

export interface BookCropsDeps {
  config: Config;
  repo: BookCropsRepo;
  books: BooksRepo;
  storage: FileStorage;
  parseHost: ParseHost;
  logger: Logger;
  /** Queues book.crops for a book. */
  queueCrops: (bookId: number) => Promise<void>;
}

export class BookCrops {
  private readonly d: BookCropsDeps;
  constructor(deps: BookCropsDeps) {
    this.d = deps;
  }

  /** Makes every picture still pending for the book (the job book.crops). Safe to run twice at once. */
  async run(bookId: number): Promise<{ made: number; failed: number }> {
    let pending = await this.d.repo.take(bookId, CROPS_PER_BATCH);
    if (!pending.length) return { made: 0, failed: 0 };
    const book = await this.d.books.findBookById(bookId);
    const file = book?.file_id ? await this.d.books.findFile(book.file_id) : undefined;
    if (!file) return { made: 0, failed: 0 }; // the book is being deleted: its rows go with it
    const data = await this.d.storage.get(file.storage_key);
    let made = 0;
    let failed = 0;
    while (pending.length) {
      const images = await this.render(bookId, data, pending.map(toCrop));
      const rows = [];
      for (const image of images) rows.push(await storeBookImage(this.d.storage, bookId, image));
      await this.d.repo.finish(
        bookId,
        pending.map((p) => p.image_id),
        rows,
      );
      made += rows.length;
      failed += pending.length - rows.length;
      pending = await this.d.repo.take(bookId, CROPS_PER_BATCH);
    }
    if (failed) this.d.logger.warn({ bookId, failed, made }, 'some figures of a PDF could not be rendered');
    return { made, failed };
  }

  /** Crops queued again where their job was lost (called by the workers' minutely sweep). */
  async sweep(): Promise<number> {
    const books = await this.d.repo.reclaimStale(STALE_CROPS_SECONDS);
    for (const bookId of books) await this.d.queueCrops(bookId);
    return books.length;
  }

  /**
   * The batch's pictures. A batch that fails because of the file (a limit passed, pdf.js failing) is
   * tried one crop at a time, so that one bad figure does not take its neighbours with it; a crop
   * that fails alone is given up (its block shows no picture). Anything else (storage, the process
   * host closing) is left to the queue's retries.
   */
  private async render(bookId: number, data: Buffer, crops: PendingCrop[]): Promise<BookImage[]> {
    const timeoutMs = this.d.config.books.parseTimeoutSeconds * 1000;
    try {
      return await this.d.parseHost.crop(data, crops, { timeoutMs });
    } catch (error) {
      if (!isParseError(error) && !(error instanceof ParserFailure)) throw error;
      if (crops.length === 1) {
        this.d.logger.warn({ bookId, imageId: crops[0]!.imageId, err: error }, 'a figure could not be rendered');
        return [];
      }
      const images: BookImage[] = [];
      for (const crop of crops) images.push(...(await this.render(bookId, data, [crop])));
      return images;
    }
  }
}

function toCrop(row: PendingCropRow): PendingCrop {
  const crop: PendingCrop = { imageId: row.image_id, region: row.region };
  if (row.photo !== null) crop.photo = row.photo;
  return crop;
}
