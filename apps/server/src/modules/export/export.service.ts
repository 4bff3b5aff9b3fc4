import { pipeline, Readable } from 'node:stream';
import { findLanguage, type ReadingLanguage } from '@yidu/shared';
import type { BookRow, UserBookRow, UserRow } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { toPng } from '../../engines/images/images.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { PartialMd5Stream } from '../../lib/partial-md5.ts';
import type { BooksService } from '../books/books.service.ts';
import type { PointsService } from '../points/points.service.ts';
import { pageChargeKey } from '../reader/page-charges.ts';
import { ExportRepo } from './export.repo.ts';
import { writeEpub, type EpubSource } from './epub-book.ts';
import type { ExportMode } from './epub-content.ts';

interface Deps {
  db: Db;
  books: BooksService;
  points: PointsService;
  storage: FileStorage;
  logger: Logger;
  /** Told of every export sent whole: what it was and the digest a device will know it by. */
  onServed?: (served: ServedExport) => Promise<void>;
}

/** An export that was sent to the end. */
export interface ServedExport {
  user: UserRow;
  book: BookRow;
  title: string;
  author: string;
  /** The target language's code. */
  language: string;
  mode: ExportMode;
  filename: string;
  version: Date;
  hasCover: boolean;
  /** KOReader's partial MD5 of the bytes sent (lib/partial-md5.ts), and their number. */
  partialMd5: string;
  size: number;
}

/** What a reader still lacks before a book can be exported in a language. */
export interface Missing {
  /** Pages with untranslated paragraphs, or translated ones the reader has not paid for. */
  pages: number;
  /** Paragraphs without a finished translation. */
  paragraphs: number;
}

/** The types EPUB 3.2 readers must show; anything else is turned into PNG (or left out). */
const CORE_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/svg+xml']);

/**
 * Books as EPUB files to keep: the original with its translation (bilingual) or the translation alone.
 * Only what the reader has paid for is given: every page with text must be translated and charged to
 * them (or free), else `bookNotTranslated` says how much is missing. The file is written as it is sent.
 */
export class ExportService {
  private readonly d: Deps;
  readonly repo: ExportRepo;
  constructor(deps: Deps) {
    this.d = deps;
    this.repo = new ExportRepo(deps.db);
  }

  /** How much of the book the reader lacks in this language (nothing: it can be exported). */
  async missing(userId: number, book: BookRow, language: string): Promise<Missing> {
    const state = await this.repo.translationState(book.id, language);
    const charged = await this.d.points.chargedKeys(
      userId,
      state.map((s) => pageChargeKey(book.id, language, s.page)),
    );
    const prices = await this.d.points.prices();
    const free = prices.translation === 0 && prices.translationCached === 0;
    let pages = 0;
    let paragraphs = 0;
    for (const s of state) {
      paragraphs += s.wanted - s.done;
      if (s.done < s.wanted || (!free && !charged.has(pageChargeKey(book.id, language, s.page)))) pages += 1;
    }
    return { pages, paragraphs };
  }

  /**
   * The EPUB of a book in a language, checked before the first byte (errors are ordinary answers),
   * then made while it is sent: pictures one at a time, content documents a few pages at a time.
   */
  async export(
    user: UserRow,
    code: string,
    language: string,
    mode: ExportMode,
  ): Promise<{ filename: string; body: Readable }> {
    const { book, copy, target } = await this.check(user, code, language);
    const title = copy?.title ?? book.title;
    const author = copy?.author ?? book.author;
    const version = await this.version(book, copy, target.code);
    let hasCover = false;
    const source: EpubSource = {
      book,
      title,
      author,
      description: copy?.description ?? book.description,
      target: target.code,
      mode,
      chapters: await this.d.books.repo.chapters(book.id),
      linkEnds: await this.repo.linkEnds(book.id),
      images: await this.repo.images(book.id),
      coverKey: copy?.cover_key ?? book.cover_key,
      blocks: (from, to) => this.repo.blocks(book.id, target.code, from, to),
      picture: (key, mediaType) => this.picture(key, mediaType),
      modified: version,
      onCover: (included) => (hasCover = included),
    };
    const filename = fileName(title, book.original_language, target, mode);
    const onServed = this.d.onServed;
    const body = new PartialMd5Stream(({ partialMd5, size }) => {
      const served = { user, book, title, author, language: target.code, mode, filename, version, hasCover };
      void onServed?.({ ...served, partialMd5, size }).catch((error: unknown) =>
        this.d.logger.warn({ bookId: book.id, err: error }, 'a served export was not recorded'),
      );
    });
    pipeline(Readable.from(writeEpub(source), { objectMode: false }), body, (error) => {
      if (error)
        this.d.logger.warn({ bookId: book.id, language: target.code, err: error }, 'EPUB export failed mid-stream');
    });
    return { filename, body };
  }

  /**
   * Whether the reader may export the book in the language now (every page translated and paid
   * for), without making it: the checks of `export`, and the file's name.
   */
  async check(
    user: UserRow,
    code: string,
    language: string,
    mode?: ExportMode,
  ): Promise<{ book: BookRow; copy: UserBookRow | undefined; target: ReadingLanguage; filename: string }> {
    const { book, copy } = await this.d.books.view(user, code);
    const target = findLanguage(language);
    if (!target) throw fail('noSuchLanguage');
    if (book.status !== 'ready') throw fail('bookNotFound');
    if (book.original_language === target.code) throw fail('translationNotNeeded');
    const missing = await this.missing(user.id, book, target.code);
    if (missing.pages > 0)
      throw fail('bookNotTranslated', { missingPages: missing.pages, missingParagraphs: missing.paragraphs });
    const filename = fileName(copy?.title ?? book.title, book.original_language, target, mode ?? 'bilingual');
    return { book, copy, target, filename };
  }

  /**
   * The version of a reader's export: when its content last changed (the book, the reader's copy,
   * the translations). It is the EPUB's modification time, so the same content is the same file.
   */
  async version(book: BookRow, copy: UserBookRow | undefined, language: string): Promise<Date> {
    const translated = await this.repo.translationsChangedAt(book.id, language);
    const times = [book.updated_at, copy?.updated_at, translated].filter((t): t is Date => t instanceof Date);
    return new Date(Math.floor(Math.max(...times.map((t) => t.getTime())) / 1000) * 1000);
  }

  /** A stored picture as EPUB readers can show it, or undefined when it is gone or cannot be converted. */
  private async picture(key: string, mediaType: string): Promise<{ data: Buffer; mediaType: string } | undefined> {
    let data: Buffer;
    try {
      data = await this.d.storage.get(key);
    } catch (error) {
      this.d.logger.warn({ key, err: error }, 'a book picture is missing from storage; the export goes on without it');
      return undefined;
    }
    const type = mediaType.toLowerCase();
    if (CORE_IMAGE_TYPES.has(type)) return { data, mediaType: type };
    try {
      return { data: await toPng(data), mediaType: 'image/png' };
    } catch {
      return undefined;
    }
  }
}

/** "Moby Dick (English-中文).epub": the book's title and what is in it. */
function fileName(title: string, original: string | null, target: ReadingLanguage, mode: ExportMode): string {
  const name =
    title
      // eslint-disable-next-line no-control-regex -- control characters have no place in a file name
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .trim()
      .slice(0, 150) || 'book';
  const from = original ? (findLanguage(original)?.native ?? original) : undefined;
  const what = mode === 'bilingual' && from ? `${from}-${target.native}` : target.native;
  return `${name} (${what}).epub`;
}
