import { findLanguage } from '@yidu/shared';
import type { BookRow, ServedVariant, UserBookRow, UserRow } from '../../db/schema.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import type { Logger } from '../../lib/logger.ts';
import { partialMd5 } from '../../lib/partial-md5.ts';
import type { BooksService } from '../books/books.service.ts';
import { toExportBlock } from '../export/epub-book.ts';
import type { ExportMode } from '../export/epub-content.ts';
import type { ExportService, ServedExport } from '../export/export.service.ts';
import type { MarksRepo } from '../marks/marks.repo.ts';
import { fileNameDigests, koreaderFileName } from './document-names.ts';
import type { BlockPlace, KosyncRepo } from './kosync.repo.ts';
import { documentOfPage, elementPath, xpointer } from './xpointer.ts';

/** What KOReader sends to PUT /syncs/progress (validated by the route). */
export interface ProgressPush {
  document: string;
  progress: string;
  percentage: number;
  device: string;
  device_id?: string | undefined;
}

/** What GET /syncs/progress answers: `{}` when nothing is known. */
export type ProgressAnswer =
  | Record<string, never>
  | {
      document: string;
      progress: string;
      percentage: number;
      device: string;
      device_id: string;
      timestamp: number;
    };

/** A document a device holds, known as one of the reader's books. */
interface KnownDocument {
  book: BookRow;
  copy: UserBookRow | undefined;
  variant: ServedVariant;
  /** The target language of an export. */
  language: string;
  hasCover: boolean;
}

/** How the web reader is named to a device asking for progress (KOReader shows the name). */
export const WEB_READER_DEVICE = { device: 'Yidu', device_id: 'yidu-web-reader' } as const;

/** Documents one account may keep progress for (a device pushes one per book it opens). */
export const MAX_DOCUMENTS_PER_USER = 20_000;

interface Deps {
  repo: KosyncRepo;
  books: BooksService;
  exports: ExportService;
  marks: MarksRepo;
  storage: FileStorage;
  logger: Logger;
}

/**
 * KOReader's progress sync (the kosync protocol), joined to the web reader.
 *
 * A device names a document by the partial MD5 of its bytes (or the MD5 of its file name): Yidu
 * knows the digests of the originals it stores and of the exports it served, so a push for a known
 * book moves the web reader to the block at the device's percentage (on a PDF, to the page it gives),
 * and a device asking is answered with the web reader's place when the reader moved there since the
 * device's last push. The device's own progress string is kept as it came and given back to it;
 * documents Yidu does not know are synced between devices as any kosync server does.
 */
export class KosyncService {
  private readonly d: Deps;
  constructor(deps: Deps) {
    this.d = deps;
  }

  /** Stores a push; `false` when the account keeps progress for too many documents already. */
  async push(user: UserRow, push: ProgressPush): Promise<{ document: string; timestamp: number } | false> {
    const existing = await this.d.repo.progress(user.id, push.document);
    if (!existing && (await this.d.repo.documentCount(user.id)) >= MAX_DOCUMENTS_PER_USER) return false;
    const known = await this.resolve(user, push.document);
    let updatedAt = new Date();
    let webPage: number | null = null;
    if (known) {
      const place = await this.placeOfPush(known, push);
      if (place) {
        const position = await this.d.marks.position(user.id, known.book.id);
        const saved = await this.d.marks.savePosition(user.id, known.book.id, {
          page: place.page,
          blockId: place.blockId,
          // A device names a share of the book, which lands at the top of a paragraph.
          blockOffset: 0,
          language: position?.language ?? this.readingLanguage(user, known),
        });
        if (known.copy) await this.d.marks.touchCopy(known.copy.id);
        updatedAt = saved.updated_at;
        webPage = place.page;
      }
    }
    await this.d.repo.saveProgress({
      user_id: user.id,
      document: push.document,
      progress: push.progress,
      percentage: push.percentage,
      device: push.device,
      device_id: push.device_id ?? null,
      book_id: known?.book.id ?? null,
      web_page: webPage,
      updated_at: updatedAt,
    });
    return { document: push.document, timestamp: Math.floor(updatedAt.getTime() / 1000) };
  }

  /** The latest place for a document: the web reader's when it moved since this document's last push. */
  async progress(user: UserRow, document: string): Promise<ProgressAnswer> {
    const stored = await this.d.repo.progress(user.id, document);
    const known = await this.resolve(user, document);
    if (known) {
      const position = await this.d.marks.position(user.id, known.book.id);
      const webMoved =
        position !== undefined &&
        (!stored || (position.updated_at > stored.updated_at && position.page !== stored.web_page));
      if (webMoved) {
        const place = await this.d.repo.placeOfBlock(known.book.id, position.page, position.block_id);
        const answer = place ? await this.express(known, place) : undefined;
        if (answer)
          return {
            document,
            ...answer,
            ...WEB_READER_DEVICE,
            timestamp: Math.floor(position.updated_at.getTime() / 1000),
          };
      }
    }
    if (!stored) return {};
    return {
      document,
      progress: stored.progress,
      percentage: stored.percentage,
      device: stored.device,
      device_id: stored.device_id ?? '',
      timestamp: Math.floor(stored.updated_at.getTime() / 1000),
    };
  }

  // ---------- documents ----------

  /** Records an export sent whole: under its bytes' digest and under the names a device may give it. */
  async recordExport(served: ServedExport): Promise<void> {
    const extension = 'epub';
    const names = [served.filename, koreaderFileName(served.author, served.title, extension)];
    const common = {
      user_id: served.user.id,
      book_id: served.book.id,
      variant: served.mode as ServedVariant,
      language: served.language,
      version: served.version.toISOString(),
      has_cover: served.hasCover,
      served_at: new Date(),
    };
    await this.d.repo.recordServed([
      { ...common, digest: served.partialMd5, method: 'binary', size: String(served.size) },
      ...fileNameDigests(names).map((digest) => ({ ...common, digest, method: 'filename' as const, size: null })),
    ]);
  }

  /** Records the names a device may give an original it downloaded (its bytes' digest is kept with the file). */
  async recordOriginal(user: UserRow, book: BookRow, names: string[]): Promise<void> {
    await this.d.repo.recordServed(
      fileNameDigests(names).map((digest) => ({
        user_id: user.id,
        digest,
        method: 'filename' as const,
        book_id: book.id,
        variant: 'original' as const,
        size: null,
        served_at: new Date(),
      })),
    );
  }

  /**
   * Fills in the partial MD5 of stored files that have none (files stored before it was kept), one
   * file in memory at a time. Returns how many were done.
   */
  async digestStoredFiles(): Promise<number> {
    let done = 0;
    for (;;) {
      const files = await this.d.repo.filesWithoutDigest(50);
      if (files.length === 0) return done;
      for (const file of files) {
        let digest = '';
        try {
          digest = partialMd5(await this.d.storage.get(file.storage_key));
        } catch (error) {
          // Marked '' (never matches) so that the file is not read again at every start.
          this.d.logger.warn({ fileId: file.id, err: error }, 'a stored file could not be read for its digest');
        }
        await this.d.repo.setFileDigest(file.id, digest);
        done += 1;
      }
    }
  }

  /** The reader's book a device's document is, if Yidu knows it: an export it served, or an original. */
  private async resolve(user: UserRow, document: string): Promise<KnownDocument | undefined> {
    for (const served of await this.d.repo.served(user.id, document)) {
      const found = await this.readable(user, served.book_id);
      if (found) return { ...found, variant: served.variant, language: served.language, hasCover: served.has_cover };
    }
    for (const { book_id } of await this.d.repo.booksOfFileDigest(document)) {
      const found = await this.readable(user, book_id);
      if (found) return { ...found, variant: 'original', language: '', hasCover: false };
    }
    return undefined;
  }

  private async readable(
    user: UserRow,
    bookId: number,
  ): Promise<{ book: BookRow; copy: UserBookRow | undefined } | undefined> {
    const book = await this.d.books.repo.findBookById(bookId);
    if (!book || !(await this.d.books.canRead(user, bookId))) return undefined;
    return { book, copy: await this.d.books.repo.library.findCopy(user.id, bookId) };
  }

  private readingLanguage(user: UserRow, known: KnownDocument): string {
    if (known.variant !== 'original' && known.language) return known.language;
    return known.copy?.read_language ?? findLanguage(user.language)?.code ?? 'zh';
  }

  // ---------- places ----------

  /** Where a push puts the web reader: a PDF's page when the device gave one, else the share of the text. */
  private async placeOfPush(known: KnownDocument, push: ProgressPush): Promise<BlockPlace | undefined> {
    if (isPdfOriginal(known) && /^\d{1,7}$/.test(push.progress.trim()))
      return this.d.repo.blockAtPdfPage(known.book.id, Number(push.progress.trim()));
    return this.d.repo.blockAtFraction(known.book.id, Math.min(1, Math.max(0, push.percentage)));
  }

  /**
   * A place as the device names it: a page number in a PDF, an XPointer in an EPUB Yidu exported.
   * Undefined for other originals, whose inner structure only the device's engine knows.
   */
  private async express(
    known: KnownDocument,
    place: BlockPlace,
  ): Promise<{ progress: string; percentage: number } | undefined> {
    if (isPdfOriginal(known)) {
      if (place.pdfPage === null) return undefined;
      // KOReader's percentage of a paged document is the page over the page count.
      const pages = known.book.source_pages ?? 0;
      const percentage = pages > 0 ? place.pdfPage / pages : place.fraction;
      return { progress: String(place.pdfPage), percentage: round(percentage) };
    }
    if (known.variant === 'original') return undefined;
    const chapters = await this.d.books.repo.chapters(known.book.id);
    const layout = {
      chapters,
      pageCount: known.book.page_count,
      pagesWithBlocks: await this.d.repo.pagesWithBlocks(known.book.id),
      hasCover: known.hasCover,
    };
    const located = documentOfPage(layout, place.page);
    if (!located) return undefined;
    const rows = await this.d.exports.repo.blocks(
      known.book.id,
      known.language,
      located.document.from,
      located.document.to,
    );
    const images = new Set((await this.d.exports.repo.images(known.book.id)).map((i) => i.image_id));
    const path = elementPath(rows.map(toExportBlock), place.blockId, {
      mode: known.variant as ExportMode,
      imageHref: (imageId) => (images.has(imageId) ? imageId : undefined),
    });
    return { progress: xpointer(located.fragment, path), percentage: round(place.fraction) };
  }
}

const isPdfOriginal = (known: KnownDocument) => known.variant === 'original' && known.book.format === 'pdf';

/** KOReader rounds percentages to 4 places before comparing them. */
const round = (value: number) => Math.round(value * 10_000) / 10_000;
