import type { Readable } from 'node:stream';
import { findLanguage, type UiLanguage } from '@yidu/shared';
import type { UserRow } from '../../db/schema.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import { thumbKey, type BooksService } from '../books/books.service.ts';
import { languageTag, type ExportMode } from '../export/epub-content.ts';
import type { ExportService } from '../export/export.service.ts';
import { koreaderFileName } from '../kosync/document-names.ts';
import type { KosyncRepo } from '../kosync/kosync.repo.ts';
import type { KosyncService } from '../kosync/kosync.service.ts';
import type { PointsService } from '../points/points.service.ts';
import {
  FORMAT_TYPES,
  PAGE_SIZE,
  type Acquisition,
  type Feed,
  type FeedKey,
  type NavigationItem,
  type Publication,
} from './catalog.ts';
import type { CatalogBook, CatalogFile, CatalogRepo } from './catalog.repo.ts';
import { say, type OpdsText } from './opds-strings.ts';

interface Deps {
  repo: CatalogRepo;
  books: BooksService;
  exports: ExportService;
  points: PointsService;
  kosync: KosyncService;
  kosyncRepo: KosyncRepo;
  storage: FileStorage;
}

/** What a navigation entry leads to, and its words. */
const NAVIGATION: Record<Exclude<FeedKey, 'search'>, { title: OpdsText; summary: OpdsText; acquisition: boolean }> = {
  root: { title: 'catalog', summary: 'catalog', acquisition: false },
  continue: { title: 'continueReading', summary: 'continueReadingSummary', acquisition: true },
  library: { title: 'myLibrary', summary: 'myLibrarySummary', acquisition: true },
  recent: { title: 'recentlyAdded', summary: 'recentlyAddedSummary', acquisition: true },
  public: { title: 'publicLibrary', summary: 'publicLibrarySummary', acquisition: false },
  'public/new': { title: 'publicNew', summary: 'publicNewSummary', acquisition: true },
  'public/popular': { title: 'publicPopular', summary: 'publicPopularSummary', acquisition: true },
  'public/recommended': { title: 'publicRecommended', summary: 'publicRecommendedSummary', acquisition: true },
};
const CHILDREN: Partial<Record<FeedKey, FeedKey[]>> = {
  root: ['continue', 'library', 'public', 'recent'],
  public: ['public/new', 'public/popular', 'public/recommended'],
};

/** A file to send: its bytes, type, size and the name to save it under. */
export interface Download {
  body?: Readable;
  type: string;
  size?: number;
  filename: string;
}

/**
 * The catalogs of one reader: their library, what they are reading, the public library, search.
 * Only books the reader may see are listed (the rules of BooksService), each with its original file
 * and, in every language the reader has pages of it translated into, the bilingual and the
 * translated EPUB (modules/export), which are made when they are downloaded.
 */
export class CatalogService {
  private readonly d: Deps;
  constructor(deps: Deps) {
    this.d = deps;
  }

  async feed(user: UserRow, lang: UiLanguage, key: FeedKey, params: { page: number; query?: string }): Promise<Feed> {
    const navigation = CHILDREN[key];
    if (navigation) {
      return {
        key,
        title: say(lang, NAVIGATION[key as Exclude<FeedKey, 'search'>].title),
        updated: new Date(),
        navigation: navigation.map((child) => this.navigationItem(lang, child)),
      };
    }
    const offset = (params.page - 1) * PAGE_SIZE;
    const { rows, total } = await this.list(user, key, params.query ?? '', offset);
    const publications = await this.publications(user, lang, rows);
    const title =
      key === 'search' ? say(lang, 'searchResults', { query: params.query ?? '' }) : say(lang, NAVIGATION[key].title);
    return {
      key,
      title,
      updated: new Date(),
      publications,
      page: { number: params.page, size: PAGE_SIZE, total },
      ...(key === 'search' ? { query: params.query ?? '' } : {}),
      ...(publications.length === 0
        ? { empty: { key: 'root', title: say(lang, 'nothingHere'), summary: say(lang, 'catalog'), acquisition: false } }
        : {}),
    };
  }

  private navigationItem(lang: UiLanguage, key: FeedKey): NavigationItem {
    const words = NAVIGATION[key as Exclude<FeedKey, 'search'>];
    return { key, title: say(lang, words.title), summary: say(lang, words.summary), acquisition: words.acquisition };
  }

  private async list(
    user: UserRow,
    key: FeedKey,
    query: string,
    offset: number,
  ): Promise<{ rows: CatalogBook[]; total: number }> {
    const { repo, books } = this.d;
    switch (key) {
      case 'continue':
        return repo.continueReading(user.id, PAGE_SIZE, offset);
      case 'library':
      case 'recent': {
        const sort = key === 'library' ? 'title' : 'added';
        const { rows, total } = await books.repo.library.listCopies(user.id, { limit: PAGE_SIZE, offset, sort });
        return { rows, total };
      }
      case 'public/new':
      case 'public/popular':
      case 'public/recommended': {
        const section = key.slice('public/'.length);
        const { rows, total } = await books.repo.library.listPublic(section, { limit: PAGE_SIZE, offset }, 'default');
        const copies = await books.repo.library.copiesOf(
          user.id,
          rows.map((b) => b.id),
        );
        return { rows: rows.map((book) => ({ book, copy: copies.get(book.id) })), total };
      }
      case 'search':
        return query.trim() ? repo.search(user.id, query.trim(), PAGE_SIZE, offset) : { rows: [], total: 0 };
      default:
        throw fail('notFound');
    }
  }

  private async publications(user: UserRow, lang: UiLanguage, rows: CatalogBook[]): Promise<Publication[]> {
    const files = await this.d.repo.files(rows.flatMap((r) => (r.book.file_id ? [r.book.file_id] : [])));
    const translated = await this.translatedLanguages(user, rows);
    const sizes = await this.exportSizes(user, rows);
    return (
      rows
        .map(({ book, copy, page }) => {
          const title = copy?.title ?? book.title;
          const author = copy?.author ?? book.author;
          const coverKey = copy?.cover_key ?? book.cover_key;
          const grant = this.d.books.mediaGrant(book, user);
          const file = book.file_id ? files.get(book.file_id) : undefined;
          const acquisitions: Acquisition[] = [];
          if (file) acquisitions.push(this.originalLink(lang, book.code, file));
          for (const target of translated.get(book.id) ?? []) {
            const from = nativeName(book.original_language);
            const to = nativeName(target);
            for (const mode of ['bilingual', 'translated'] as const) {
              const size = sizes.get(`${book.id}:${mode}:${target}`);
              acquisitions.push({
                href: `/opds/books/${encodeURIComponent(book.code)}/${mode}/${encodeURIComponent(target)}`,
                type: FORMAT_TYPES.epub!,
                title: say(lang, mode, { from, to }),
                ...(size ? { size } : {}),
              });
            }
          }
          return {
            code: book.code,
            title,
            author,
            ...(book.original_language ? { language: languageTag(book.original_language) } : {}),
            description: copy?.description ?? book.description,
            ...(page !== undefined ? { note: say(lang, 'readTo', { page, pages: book.page_count }) } : {}),
            updated: copy?.updated_at ?? book.updated_at,
            ...(coverKey
              ? {
                  cover: this.d.books.mediaUrl(coverKey, grant)!,
                  thumbnail: this.d.books.mediaUrl(thumbKey(coverKey), grant)!,
                }
              : {}),
            acquisitions,
          };
        })
        // A book with nothing to take to a device (no stored file, nothing translated) is not offered.
        .filter((publication) => publication.acquisitions.length > 0)
    );
  }

  private originalLink(lang: UiLanguage, code: string, file: CatalogFile): Acquisition {
    return {
      href: `/opds/books/${encodeURIComponent(code)}/original`,
      type: FORMAT_TYPES[file.format] ?? 'application/octet-stream',
      title: say(lang, 'original', { format: file.format.toUpperCase() }),
      ...(file.size > 0 ? { size: file.size } : {}),
    };
  }

  /**
   * The languages each book has pages translated into for this reader (the book's own language
   * left out): those charged to them, or, where pages cost nothing, their reading language of the
   * book when anything is translated into it.
   */
  private async translatedLanguages(user: UserRow, rows: CatalogBook[]): Promise<Map<number, string[]>> {
    const charged = await this.d.repo.chargedLanguages(
      user.id,
      rows.map((r) => r.book.id),
    );
    const prices = await this.d.points.prices();
    if (prices.translation === 0 && prices.translationCached === 0) {
      const readerLanguage = findLanguage(user.language)?.code ?? 'zh';
      const wanted = rows.map((r) => ({ bookId: r.book.id, lang: r.copy?.read_language ?? readerLanguage }));
      for (const key of await this.d.repo.translatedInto(wanted)) {
        const [bookId, language] = [Number(key.slice(0, key.indexOf(':'))), key.slice(key.indexOf(':') + 1)];
        charged.set(bookId, new Set([...(charged.get(bookId) ?? []), language]));
      }
    }
    const result = new Map<number, string[]>();
    for (const { book, copy } of rows) {
      const languages = [...(charged.get(book.id) ?? [])].filter(
        (l) => findLanguage(l) && l !== book.original_language,
      );
      // The reader's language of the book first.
      languages.sort(
        (a, b) => Number(b === copy?.read_language) - Number(a === copy?.read_language) || a.localeCompare(b),
      );
      if (languages.length > 0) result.set(book.id, languages);
    }
    return result;
  }

  /** Sizes of exports already sent to this reader whose content has not changed since (same version). */
  private async exportSizes(user: UserRow, rows: CatalogBook[]): Promise<Map<string, number>> {
    const byId = new Map(rows.map((r) => [r.book.id, r]));
    const sizes = new Map<string, number>();
    const versions = new Map<string, string>();
    for (const served of await this.d.kosyncRepo.servedExports(user.id, [...byId.keys()])) {
      const row = byId.get(served.book_id);
      if (!row || served.size === null) continue;
      const versionKey = `${served.book_id}:${served.language}`;
      let version = versions.get(versionKey);
      if (version === undefined) {
        version = (await this.d.exports.version(row.book, row.copy, served.language)).toISOString();
        versions.set(versionKey, version);
      }
      if (served.version === version)
        sizes.set(`${served.book_id}:${served.variant}:${served.language}`, Number(served.size));
    }
    return sizes;
  }

  // ---------- downloads ----------

  /** The book's original file, as it was uploaded (`headOnly`: what it is, without its bytes). */
  async original(user: UserRow, code: string, headOnly = false): Promise<Download> {
    const { book, copy } = await this.d.books.view(user, code);
    const file = book.file_id ? await this.d.books.repo.findFile(book.file_id) : undefined;
    if (!file) throw fail('fileMissing');
    const title = copy?.title ?? book.title;
    const author = copy?.author ?? book.author;
    // A device finds the book again by the name it saved it under (KOReader's file-name sync).
    if (!headOnly)
      await this.d.kosync.recordOriginal(user, book, [
        file.original_name,
        koreaderFileName(author, title, file.format),
      ]);
    return {
      ...(headOnly ? {} : { body: await this.d.storage.stream(file.storage_key) }),
      type: FORMAT_TYPES[file.format] ?? 'application/octet-stream',
      size: Number(file.size),
      filename: file.original_name,
    };
  }

  /** The bilingual or translated EPUB, made as it is sent; bookNotTranslated while pages are missing. */
  async translation(user: UserRow, code: string, mode: ExportMode, language: string): Promise<Download> {
    const { filename, body } = await this.d.exports.export(user, code, language, mode);
    return { body, type: FORMAT_TYPES.epub!, filename };
  }
}

/** A language's own name ("English", "中文"), or its code when it is not one of the 26. */
function nativeName(code: string | null): string {
  if (!code) return '?';
  return findLanguage(code)?.native ?? code;
}
