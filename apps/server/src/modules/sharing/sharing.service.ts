import { randomBytes } from 'node:crypto';
import {
  AI_FEATURES,
  type AiFeature,
  type BookSummary,
  type Share,
  type ShareCreateBody,
  type ShareInfo,
} from '@yidu/shared';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookRow, BookSharesTable, UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import { thumbKey } from '../books/books.service.ts';

type ShareRow = Selectable<BookSharesTable>;

const stateOf = (share: ShareRow): Share['state'] =>
  share.revoked_at ? 'revoked' : share.expires_at && share.expires_at.getTime() <= Date.now() ? 'expired' : 'active';

/**
 * Share links: a book with a chosen set of AI features. Accepting puts the book in the recipient's
 * library with exactly those features, enforced on every AI call; revoking takes them away again.
 * Sharing never changes a book's visibility.
 */
export class SharingService {
  private readonly d: { db: Db; books: BooksService; publicUrl: string; logger: Logger };
  constructor(deps: { db: Db; books: BooksService; publicUrl: string; logger: Logger }) {
    this.d = deps;
  }

  private async present(share: ShareRow): Promise<Share> {
    const [book, accepted] = await Promise.all([
      this.d.db.selectFrom('books').select(['code', 'title']).where('id', '=', share.book_id).executeTakeFirstOrThrow(),
      this.d.db
        .selectFrom('share_grants')
        .select(sql<string>`count(*)`.as('n'))
        .where('share_id', '=', share.id)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      id: share.id,
      bookCode: book.code,
      bookName: book.title,
      features: share.features as AiFeature[],
      url: `${this.d.publicUrl}/book/share/${share.id}`,
      state: stateOf(share),
      expiresAt: share.expires_at?.toISOString() ?? null,
      createdAt: share.created_at.toISOString(),
      accepted: Number(accepted.n),
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
    const share = await this.d.db
      .insertInto('book_shares')
      .values({
        id: randomBytes(9).toString('base64url'),
        book_id: view.book.id,
        owner_id: user.id,
        features,
        expires_at: body.expiresInDays ? new Date(Date.now() + body.expiresInDays * 86_400_000) : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    this.d.logger.info({ userId: user.id, bookId: view.book.id, shareId: share.id, features }, 'share created');
    return this.present(share);
  }

  async mine(user: UserRow, bookCode?: string): Promise<Share[]> {
    let query = this.d.db.selectFrom('book_shares').selectAll().where('owner_id', '=', user.id);
    if (bookCode) {
      const { book } = await this.d.books.view(user, bookCode);
      query = query.where('book_id', '=', book.id);
    }
    const rows = await query.orderBy('created_at', 'desc').limit(200).execute();
    return Promise.all(rows.map((r) => this.present(r)));
  }

  private async find(id: string): Promise<ShareRow> {
    const share = await this.d.db.selectFrom('book_shares').selectAll().where('id', '=', id).executeTakeFirst();
    if (!share) throw fail('notFound');
    return share;
  }

  /** What the recipient's page shows: the book, the granted features, whether the link still works. */
  async info(user: UserRow, id: string): Promise<ShareInfo> {
    const share = await this.find(id);
    const book = (await this.d.books.repo.findBookById(share.book_id))!;
    const owner = await this.d.db
      .selectFrom('users')
      .select(['username', 'show_name_on_shares'])
      .where('id', '=', share.owner_id)
      .executeTakeFirst();
    const accepted = await this.d.db
      .selectFrom('share_grants')
      .select('user_id')
      .where('share_id', '=', id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    const state = stateOf(share);
    const isAccepted = accepted !== undefined || book.owner_id === user.id;
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
    await this.d.db
      .insertInto('share_grants')
      .values({ share_id: share.id, user_id: user.id, book_id: book.id })
      .onConflict((oc) => oc.columns(['share_id', 'user_id']).doNothing())
      .execute();
    if (!(await this.d.books.repo.findCopy(user.id, book.id))) {
      await this.d.books.repo.addCopy({
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
    await this.d.db
      .updateTable('book_shares')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    // Their copies are dropped when no other valid link and no public visibility keep the book theirs.
    await sql`
      DELETE FROM user_books ub
      USING share_grants g, books b
      WHERE g.share_id = ${id} AND ub.user_id = g.user_id AND ub.book_id = g.book_id AND ub.source = 'share'
        AND b.id = ub.book_id AND NOT (b.visibility = 1 AND NOT b.public_deleted) AND b.owner_id IS DISTINCT FROM ub.user_id
        AND NOT EXISTS (SELECT 1 FROM share_grants g2 JOIN book_shares s ON s.id = g2.share_id
                        WHERE g2.user_id = g.user_id AND g2.book_id = g.book_id AND g2.share_id <> ${id}
                          AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now()))`.execute(
      this.d.db,
    );
    this.d.logger.info({ userId: user.id, shareId: id }, 'share revoked');
  }
}
