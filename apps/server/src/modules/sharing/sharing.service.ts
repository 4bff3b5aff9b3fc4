import { randomBytes } from 'node:crypto';
import {
  AI_FEATURES,
  type AiFeature,
  type BookSummary,
  type Share,
  type ShareCreateBody,
  type ShareInfo,
} from '@yidu/shared';
import type { BookRow, UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import { thumbKey } from '../books/books.service.ts';
import type { ShareRow, SharingRepo } from './sharing.repo.ts';

const stateOf = (share: ShareRow): Share['state'] =>
  share.revoked_at ? 'revoked' : share.expires_at && share.expires_at.getTime() <= Date.now() ? 'expired' : 'active';

/**
 * Share links: a book with a chosen set of AI features. Accepting puts the book in the recipient's
 * library with exactly those features, enforced on every AI call; revoking takes them away again.
 * Sharing never changes a book's visibility.
 */
export class SharingService {
  private readonly d: { repo: SharingRepo; books: BooksService; publicUrl: string; logger: Logger };
  constructor(deps: { repo: SharingRepo; books: BooksService; publicUrl: string; logger: Logger }) {
    this.d = deps;
  }

  private async present(share: ShareRow): Promise<Share> {
    const [book, accepted] = await Promise.all([this.d.repo.book(share.book_id), this.d.repo.grantCount(share.id)]);
    return {
      id: share.id,
      bookCode: book.code,
      bookName: book.title,
      features: share.features as AiFeature[],
      url: `${this.d.publicUrl}/book/share/${share.id}`,
      state: stateOf(share),
      expiresAt: share.expires_at?.toISOString() ?? null,
      createdAt: share.created_at.toISOString(),
      accepted,
    };
  }

  /** Creates a link. Only features the sharer has can be granted; a private book only by its uploader. */
  async create(user: UserRow, body: ShareCreateBody): Promise<Share> {
    const view = await this.d.books.view(user, body.bookCode);
    const privileged = view.book.owner_id === user.id || user.role === 'admin';
    if (!privileged && !(view.book.visibility === 1 && !view.book.public_deleted))
      throw fail('insufficientPermissions');
    const own = new Set(view.features ?? []);
    const features = [...new Set(body.features)].filter((f) => AI_FEATURES.includes(f));
    if (features.some((f) => !own.has(f))) throw fail('insufficientPermissions', { reason: 'featureNotYours' });
    const share = await this.d.repo.insert({
      id: randomBytes(9).toString('base64url'),
      book_id: view.book.id,
      owner_id: user.id,
      features,
      expires_at: body.expiresInDays ? new Date(Date.now() + body.expiresInDays * 86_400_000) : null,
    });
    this.d.logger.info({ userId: user.id, bookId: view.book.id, shareId: share.id, features }, 'share created');
    return this.present(share);
  }

  async mine(user: UserRow, bookCode?: string): Promise<Share[]> {
    const bookId = bookCode ? (await this.d.books.view(user, bookCode)).book.id : undefined;
    const rows = await this.d.repo.byOwner(user.id, bookId);
    return Promise.all(rows.map((r) => this.present(r)));
  }

  private async find(id: string): Promise<ShareRow> {
    const share = await this.d.repo.find(id);
    if (!share) throw fail('notFound');
    return share;
  }

  /** What the recipient's page shows: the book, the granted features, whether the link still works. */
  async info(user: UserRow, id: string): Promise<ShareInfo> {
    const share = await this.find(id);
    const book = (await this.d.books.repo.findBookById(share.book_id))!;
    const owner = await this.d.repo.owner(share.owner_id);
    const accepted = await this.d.repo.hasGrant(id, user.id);
    const state = stateOf(share);
    const isAccepted = accepted || book.owner_id === user.id;
    const isPublic = book.visibility === 1 && !book.public_deleted;
    const mayKnowBook =
      state === 'active' || share.owner_id === user.id || user.role === 'admin' || isAccepted || isPublic;
    return {
      id,
      state,
      features: share.features as AiFeature[],
      sharedBy: owner?.show_name_on_shares ? owner.username : null,
      expiresAt: share.expires_at?.toISOString() ?? null,
      accepted: isAccepted,
      isOwner: share.owner_id === user.id,
      book: mayKnowBook ? this.presentBook(book, id) : null,
    };
  }

  private presentBook(book: BookRow, shareId: string): NonNullable<ShareInfo['book']> {
    return {
      bookCode: book.code,
      bookName: book.title,
      bookAuthor: book.author,
      bookDescribe: book.description,
      // Outside the public library, the cover is shown while the link holds (see MediaGrant).
      coverUrl: this.d.books.mediaUrl(
        book.cover_key ? thumbKey(book.cover_key) : null,
        book.visibility === 1 && !book.public_deleted ? undefined : { shareId },
      ),
      format: book.format,
      pageCount: book.page_count,
      originalLanguage: book.original_language,
    };
  }

  /** Accepts a link: the book joins the recipient's library (if it is not there already) with the link's features. */
  async accept(user: UserRow, id: string): Promise<BookSummary> {
    const share = await this.find(id);
    const state = stateOf(share);
    if (state === 'revoked') throw fail('shareRevoked');
    if (state === 'expired') throw fail('shareExpired');
    const book = (await this.d.books.repo.findBookById(share.book_id))!;
    if (book.status !== 'ready') throw fail('bookNotFound');
    await this.d.repo.grant(share.id, user.id, book.id);
    if (!(await this.d.books.repo.library.findCopy(user.id, book.id))) {
      await this.d.books.repo.library.addCopy({
        user_id: user.id,
        book_id: book.id,
        title: book.title,
        author: book.author,
        description: book.description,
        category: book.category,
        read_language: null,
        source: 'share',
      });
    }
    this.d.logger.info({ userId: user.id, shareId: id }, 'share accepted');
    const books = await this.d.books.userList(user);
    return books.find((b) => b.bookCode === book.code)!;
  }

  /** Revokes a link (its creator or an admin). Recipients who had the book only through it lose it. */
  async revoke(user: UserRow, id: string): Promise<void> {
    const share = await this.find(id);
    if (share.owner_id !== user.id && user.role !== 'admin') throw fail('insufficientPermissions');
    await this.d.repo.markRevoked(id);
    // Their copies are dropped when no other valid link and no public visibility keep the book theirs.
    await this.d.repo.dropCopiesOnlyThrough(id);
    this.d.logger.info({ userId: user.id, shareId: id }, 'share revoked');
  }
}
