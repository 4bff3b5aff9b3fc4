import { randomBytes } from 'node:crypto';
import {
  AI_FEATURES,
  findLanguage,
  type AiFeature,
  type BatchBody,
  type BookDetail,
  type BookSummary,
  type LibraryPage,
  type LibraryQuery,
  type UpdateBookBody,
} from '@yidu/shared';
import type { BookRow, UserBookRow, UserRow } from '../../db/schema.ts';
import { ImageError, toJpeg } from '../../engines/images/images.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import { AccessCache, type AccessEvents } from '../../lib/access-events.ts';
import type { Logger } from '../../lib/logger.ts';
import type { MediaGrant, UrlSigner } from '../../lib/signing.ts';
import type { BookCropsRepo } from './book-crops.repo.ts';
import type { BookView, BooksRepo } from './books.repo.ts';

/** What a page's image blocks say of their pictures (BooksService.pageImages). */
export interface PageImages {
  of(imageId: string | null): { imageUrl: string | null; imagePending?: true };
}

/** Personal library kinds beyond 'all' (public) and 'user' (personal): see /book/{kind}/library. */
export const LIBRARY_KINDS = ['uploaded'] as const;

interface Deps {
  repo: BooksRepo;
  crops: BookCropsRepo;
  storage: FileStorage;
  signer: UrlSigner;
  logger: Logger;
  access?: AccessEvents;
}

/** How long a book's access may be served from memory without looking again (changes drop it at once). */
const ACCESS_CACHE_MS = 60_000;
const ACCESS_CACHE_SIZE = 10_000;

const isInPublicLibrary = (book: BookRow) => book.visibility === 1 && !book.public_deleted;

/** Access that needs no share: the owner, an admin, a public book, or a copy the user took themselves. */
function hasOpenAccess(book: BookRow, user: UserRow, copy: UserBookRow | undefined): boolean {
  return (
    book.owner_id === user.id ||
    user.role === 'admin' ||
    isInPublicLibrary(book) ||
    (copy !== undefined && copy.source !== 'share')
  );
}

/** Libraries, book details, the user's copy and the public book, covers. */
export class BooksService {
  private readonly d: Deps;
  /** Book views that do not depend on a share (see viewCached). */
  private readonly openViews: AccessCache<BookView & { userId: number; bookId: number }>;
  constructor(deps: Deps) {
    this.d = deps;
    this.openViews = new AccessCache(deps.access, { maxEntries: ACCESS_CACHE_SIZE, maxAgeMs: ACCESS_CACHE_MS });
  }

  // ---------- presenting ----------

  /** A signed, expiring URL of a stored file; `grant` names whom it is for (see MediaGrant). */
  mediaUrl(key: string | null | undefined, grant?: MediaGrant): string | null {
    return key ? this.d.signer.sign(`/api/media/${key}`, { grant }) : null;
  }

  /**
   * Media of a book in the public library may be seen by anyone holding the URL. Those of any other
   * book name their reader: each request checks that the reader still has the book (a revoked share,
   * a book made private), and the URL is of no use to anyone else.
   */
  mediaGrant(book: BookRow, user: UserRow): MediaGrant | undefined {
    return isInPublicLibrary(book) ? undefined : { userId: user.id, bookId: book.id };
  }

  get repo(): BooksRepo {
    return this.d.repo;
  }

  /**
   * What the image blocks among `imageIds` say of their pictures, for this reader: a signed URL, or
   * that the picture is still being made (a PDF's figures rendered after the parse, book-crops.ts).
   */
  async pageImages(book: BookRow, user: UserRow, imageIds: string[]): Promise<PageImages> {
    if (imageIds.length === 0) return { of: () => ({ imageUrl: null }) };
    const rows = await this.d.repo.images(book.id, [...new Set(imageIds)]);
    const grant = this.mediaGrant(book, user);
    const urls = new Map(rows.map((r) => [r.image_id, this.mediaUrl(r.storage_key, grant)!]));
    const pending = await this.d.crops.pendingOf(book.id, [...new Set(imageIds.filter((id) => !urls.has(id)))]);
    return {
      of: (imageId) => {
        if (!imageId) return { imageUrl: null };
        const imageUrl = urls.get(imageId) ?? null;
        return pending.has(imageId) ? { imageUrl, imagePending: true } : { imageUrl };
      },
    };
  }

  /** A book as the user sees it: their copy's info when they have one, or the public book's (`asPublic`). */
  private summary(view: BookView, user: UserRow, asPublic = false): BookSummary {
    const { book } = view;
    const copy = asPublic ? undefined : view.copy;
    const cover = copy?.cover_key ?? book.cover_key;
    return {
      bookCode: book.code,
      bookName: copy?.title ?? book.title,
      bookAuthor: copy?.author ?? book.author,
      bookDescribe: copy?.description ?? book.description,
      category: copy?.category ?? book.category,
      bookStatus: book.public_deleted ? 0 : book.visibility,
      coverUrl: this.mediaUrl(cover ? thumbKey(cover) : null, this.mediaGrant(book, user)),
      format: book.format,
      originalLanguage: book.original_language,
      readLanguage: copy?.read_language ?? null,
      pageCount: book.page_count,
      chapterCount: book.chapter_count,
      readers: book.readers_count,
      isOwner: book.owner_id === user.id,
      inLibrary: view.copy !== undefined,
      updateAt: (copy?.updated_at ?? book.updated_at).toISOString(),
      createdAt: book.created_at.toISOString(),
    };
  }

  // ---------- access ----------

  /**
   * The AI features the user has on a book, or undefined when the book is out of reach. The uploader,
   * admins, readers of a public book and those who added it themselves have them all; someone who
   * has it only through share links has the features those links grant, while one of them is valid.
   */
  private async access(book: BookRow, user: UserRow, copy: UserBookRow | undefined): Promise<AiFeature[] | undefined> {
    const privileged = book.owner_id === user.id || user.role === 'admin';
    if (book.status !== 'ready' && !privileged) return undefined;
    if (hasOpenAccess(book, user, copy)) return [...AI_FEATURES];
    if (!copy) return undefined;
    const granted = await this.d.repo.grantedFeatures(user.id, book.id);
    return granted.length > 0 || (await this.d.repo.hasActiveGrant(user.id, book.id)) ? granted : undefined;
  }

  private canEditPublic(book: BookRow, user: UserRow): boolean {
    return book.owner_id === user.id || user.role === 'admin';
  }

  /** Whether the user may still see the book (the media route's check of a grant). */
  async canRead(user: UserRow, bookId: number): Promise<boolean> {
    const book = await this.d.repo.findBookById(bookId);
    if (!book) return false;
    return (await this.access(book, user, await this.d.repo.library.findCopy(user.id, book.id))) !== undefined;
  }

  /** The book and the user's copy, or bookNotFound when the user may not see it. */
  async view(user: UserRow, code: string): Promise<BookView> {
    const book = await this.d.repo.findBookByCode(code);
    if (!book) throw fail('bookNotFound');
    const copy = await this.d.repo.library.findCopy(user.id, book.id);
    const features = await this.access(book, user, copy);
    if (!features) throw fail('bookNotFound');
    return { book, copy, features };
  }

  /**
   * view() from memory for the reader's pages. Only access that holds until the book, the copy or the
   * user changes is kept (AccessEvents drop it then); access through a share may expire at any moment,
   * so it is looked up every time.
   */
  async viewCached(user: UserRow, code: string): Promise<BookView> {
    const key = `${user.id}:${code}`;
    const hit = this.openViews.get(key);
    if (hit) return hit;
    const generation = this.openViews.generation;
    const view = await this.view(user, code);
    if (hasOpenAccess(view.book, user, view.copy))
      this.openViews.set(key, { ...view, userId: user.id, bookId: view.book.id }, generation);
    return view;
  }

  // ---------- lists ----------

  async publicLibrary(user: UserRow, query: LibraryQuery): Promise<LibraryPage> {
    const { rows, total } = await this.d.repo.library.listPublic(query.section, pageOf(query), query.sort);
    const copies = await this.d.repo.library.copiesOf(
      user.id,
      rows.map((b) => b.id),
    );
    return {
      items: rows.map((book) => this.summary({ book, copy: copies.get(book.id) }, user)),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  async personalLibrary(user: UserRow, query: LibraryQuery): Promise<LibraryPage> {
    const { rows, total } = await this.d.repo.library.listCopies(user.id, { ...pageOf(query), sort: query.sort });
    return { items: rows.map((view) => this.summary(view, user)), total, page: query.page, pageSize: query.pageSize };
  }

  async kindLibrary(user: UserRow, kind: string, query: LibraryQuery): Promise<LibraryPage> {
    if (kind === 'all') return this.publicLibrary(user, query);
    if (kind === 'user') return this.personalLibrary(user, query);
    if (kind !== 'uploaded') throw fail('notFound');
    const { rows, total } = await this.d.repo.library.listOwned(user.id, pageOf(query));
    const copies = await this.d.repo.library.copiesOf(
      user.id,
      rows.map((b) => b.id),
    );
    return {
      items: rows.map((book) => this.summary({ book, copy: copies.get(book.id) }, user)),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /** Every book of the personal library, most recently read first (tabs and the New Tab page). */
  async userList(user: UserRow): Promise<BookSummary[]> {
    const { rows } = await this.d.repo.library.listCopies(user.id, { limit: 1000, offset: 0, sort: 'default' });
    return rows.map((view) => this.summary(view, user));
  }

  async detail(user: UserRow, code: string, readLanguage?: string): Promise<BookDetail> {
    const view = await this.view(user, code);
    if (readLanguage && !findLanguage(readLanguage)) throw fail('noSuchLanguage');
    const contents = await this.d.repo.contents(view.book.id);
    const summary = this.summary(view, user);
    if (readLanguage) summary.readLanguage = findLanguage(readLanguage)!.code;
    return {
      ...summary,
      sourcePages: view.book.source_pages,
      features: view.features ?? [],
      contents: contents.map((c) => ({
        title: c.title,
        generated: c.generated,
        level: c.level,
        page: c.page,
        blockId: c.block_id,
      })),
    };
  }

  // ---------- the user's copy ----------

  async add(user: UserRow, code: string): Promise<BookSummary> {
    const view = await this.view(user, code);
    if (view.book.status !== 'ready') throw fail('bookNotFound');
    const copy = await this.d.repo.library.addCopy({
      user_id: user.id,
      book_id: view.book.id,
      title: view.book.title,
      author: view.book.author,
      description: view.book.description,
      category: view.book.category,
      read_language: findLanguage(user.language)?.code ?? null,
      source: 'library',
    });
    return this.summary({ book: (await this.d.repo.findBookById(view.book.id))!, copy }, user);
  }

  async updateCopy(user: UserRow, body: UpdateBookBody): Promise<BookSummary> {
    const view = await this.view(user, body.bookCode);
    if (!view.copy) throw fail('bookNotFound');
    const readLanguage = body.readLanguage ? findLanguage(body.readLanguage) : undefined;
    if (body.readLanguage && !readLanguage) throw fail('noSuchLanguage');
    const copy = await this.d.repo.library.updateCopy(view.copy.id, {
      ...(body.bookName !== undefined ? { title: body.bookName } : {}),
      ...(body.bookAuthor !== undefined ? { author: body.bookAuthor || 'Anonymous' } : {}),
      ...(body.bookDescribe !== undefined ? { description: body.bookDescribe } : {}),
      ...(body.category !== undefined ? { category: body.category } : {}),
      ...(readLanguage ? { read_language: readLanguage.code } : {}),
    });
    // The visibility belongs to the public book; its owner may change it from the copy's popup too.
    let book = view.book;
    if (body.bookStatus !== undefined && body.bookStatus !== book.visibility) {
      if (!this.canEditPublic(book, user)) throw fail('insufficientPermissions');
      book = await this.d.repo.updateBook(book.id, { visibility: body.bookStatus, public_deleted: false });
    }
    return this.summary({ book, copy }, user);
  }

  /**
   * Removes the book from the user's library. The uploader is asked whether to keep the book's info
   * in the public library: `keepPublic` false also takes the public book down.
   */
  async removeCopy(user: UserRow, code: string, keepPublic: boolean): Promise<void> {
    const view = await this.view(user, code);
    const takeDown = !keepPublic && this.canEditPublic(view.book, user);
    if (!view.copy && !takeDown) throw fail('bookNotFound');
    if (view.copy) await this.d.repo.library.deleteCopy(view.copy);
    if (takeDown) await this.takeDown(view.book);
    else await this.dropIfOrphan(view.book.id);
  }

  // ---------- the public book ----------

  async updatePublic(user: UserRow, body: UpdateBookBody): Promise<BookSummary> {
    const view = await this.view(user, body.bookCode);
    if (!this.canEditPublic(view.book, user)) throw fail('insufficientPermissions');
    const book = await this.d.repo.updateBook(view.book.id, {
      ...(body.bookName !== undefined ? { title: body.bookName } : {}),
      ...(body.bookAuthor !== undefined ? { author: body.bookAuthor || 'Anonymous' } : {}),
      ...(body.bookDescribe !== undefined ? { description: body.bookDescribe } : {}),
      ...(body.category !== undefined ? { category: body.category } : {}),
      ...(body.bookStatus !== undefined ? { visibility: body.bookStatus, public_deleted: false } : {}),
    });
    return this.summary({ book, copy: view.copy }, user, true);
  }

  /** Takes the public book out of the public library (owner or admin). Readers who have it keep it. */
  async deletePublic(user: UserRow, code: string): Promise<void> {
    const view = await this.view(user, code);
    if (!this.canEditPublic(view.book, user)) throw fail('insufficientPermissions');
    await this.takeDown(view.book);
  }

  private async takeDown(book: BookRow): Promise<void> {
    await this.d.repo.updateBook(book.id, { visibility: 0, public_deleted: true });
    await this.dropIfOrphan(book.id);
  }

  /** A book out of the public library that nobody has any more is deleted with its files. */
  private async dropIfOrphan(bookId: number): Promise<void> {
    const book = await this.d.repo.findBookById(bookId);
    if (!book || !(book.public_deleted || book.visibility === 0)) return;
    if ((await this.d.repo.library.copiesCount(bookId)) > 0) return;
    await this.d.repo.deleteBook(bookId);
    this.d.logger.info({ bookId, code: book.code }, 'book deleted');
  }

  /**
   * Copies book info between the user's copy and the public book: 'fromPublic' refreshes the copy,
   * 'toPublic' publishes the copy's info (owner or admin).
   */
  async sync(user: UserRow, code: string, direction: 'fromPublic' | 'toPublic'): Promise<BookSummary> {
    const view = await this.view(user, code);
    if (!view.copy) throw fail('bookNotFound');
    if (direction === 'fromPublic') {
      const copy = await this.d.repo.library.updateCopy(view.copy.id, {
        title: view.book.title,
        author: view.book.author,
        description: view.book.description,
        category: view.book.category,
        cover_key: null,
      });
      return this.summary({ book: view.book, copy }, user);
    }
    if (!this.canEditPublic(view.book, user)) throw fail('insufficientPermissions');
    const book = await this.d.repo.updateBook(view.book.id, {
      title: view.copy.title,
      author: view.copy.author,
      description: view.copy.description,
      category: view.copy.category,
      ...(view.copy.cover_key ? { cover_key: view.copy.cover_key } : {}),
    });
    return this.summary({ book, copy: view.copy }, user, true);
  }

  async batch(
    user: UserRow,
    body: BatchBody,
  ): Promise<{ done: string[]; failed: { bookCode: string; key: string }[] }> {
    const done: string[] = [];
    const failed: { bookCode: string; key: string }[] = [];
    for (const code of new Set(body.bookCodes)) {
      try {
        if (body.action === 'delete') await this.removeCopy(user, code, body.keepPublic);
        else {
          if (body.bookStatus === undefined) throw fail('badRequest');
          await this.updatePublic(user, { bookCode: code, bookStatus: body.bookStatus });
        }
        done.push(code);
      } catch (error) {
        failed.push({ bookCode: code, key: (error as { key?: string }).key ?? 'internalError' });
      }
    }
    return { done, failed };
  }

  // ---------- covers and images ----------

  /** Stores a cover (JPG/PNG, re-encoded, with a thumbnail) for the user's copy or the public book. */
  async setCover(user: UserRow, code: string, data: Buffer, scope: 'user' | 'public'): Promise<BookSummary> {
    const view = await this.view(user, code);
    if (scope === 'public' && !this.canEditPublic(view.book, user)) throw fail('insufficientPermissions');
    if (scope === 'user' && !view.copy) throw fail('bookNotFound');
    const kind =
      data.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) || data.subarray(1, 4).toString('latin1') === 'PNG';
    if (!kind) throw fail('invalidImage');
    let key: string;
    try {
      key = await this.storeCover(data);
    } catch (error) {
      if (error instanceof ImageError) throw fail('invalidImage', { detail: error.message });
      throw error;
    }
    if (scope === 'public') {
      const book = await this.d.repo.updateBook(view.book.id, { cover_key: key });
      return this.summary({ book, copy: view.copy }, user, true);
    }
    const copy = await this.d.repo.library.updateCopy(view.copy!.id, { cover_key: key });
    return this.summary({ book: view.book, copy }, user);
  }

  /** Writes a cover and its thumbnail; returns the cover's key (the thumbnail is `thumbKey(key)`). */
  async storeCover(data: Buffer): Promise<string> {
    const [cover, thumb] = await Promise.all([toJpeg(data, 600, 900), toJpeg(data, 240, 360, 80)]);
    const key = `covers/${randomBytes(12).toString('hex')}.jpg`;
    await this.d.storage.put(key, cover.data);
    await this.d.storage.put(thumbKey(key), thumb.data);
    return key;
  }
}

/** Covers made by storeCover have a thumbnail beside them. */
export const thumbKey = (key: string): string =>
  key.startsWith('covers/') ? key.replace(/\.jpg$/, '-thumb.jpg') : key;

function pageOf(query: LibraryQuery) {
  return { keyword: query.keyword || undefined, limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
}
