import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookSharesTable } from '../../db/schema.ts';

export type ShareRow = Selectable<BookSharesTable>;
export type NewShare = Insertable<BookSharesTable>;

/** The only SQL about share links and the grants made by accepting them. */
export class SharingRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  // ---------- links ----------

  insert(share: NewShare): Promise<ShareRow> {
    return this.db.insertInto('book_shares').values(share).returningAll().executeTakeFirstOrThrow();
  }

  find(id: string): Promise<ShareRow | undefined> {
    return this.db.selectFrom('book_shares').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The links a user created (on one book, if given), newest first; at most 200. */
  byOwner(ownerId: number, bookId?: number): Promise<ShareRow[]> {
    let query = this.db.selectFrom('book_shares').selectAll().where('owner_id', '=', ownerId);
    if (bookId !== undefined) query = query.where('book_id', '=', bookId);
    return query.orderBy('created_at', 'desc').limit(200).execute();
  }

  /** Stamps the link revoked; a link already revoked keeps the time it was first revoked. */
  async markRevoked(id: string): Promise<void> {
    await this.db
      .updateTable('book_shares')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  // ---------- what a link shows ----------

  /** The shared book's code and title, as the link lists it. */
  book(bookId: number): Promise<{ code: string; title: string }> {
    return this.db.selectFrom('books').select(['code', 'title']).where('id', '=', bookId).executeTakeFirstOrThrow();
  }

  /** Who shared: the name is shown only when its owner allows it (show_name_on_shares). */
  owner(userId: number): Promise<{ username: string; show_name_on_shares: boolean } | undefined> {
    return this.db
      .selectFrom('users')
      .select(['username', 'show_name_on_shares'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  // ---------- grants ----------

  /** How many users accepted the link. */
  async grantCount(shareId: string): Promise<number> {
    const row = await this.db
      .selectFrom('share_grants')
      .select(sql<string>`count(*)`.as('n'))
      .where('share_id', '=', shareId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async hasGrant(shareId: string, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('share_grants')
      .select('user_id')
      .where('share_id', '=', shareId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Records that the user accepted the link; accepting twice changes nothing. */
  async grant(shareId: string, userId: number, bookId: number): Promise<void> {
    await this.db
      .insertInto('share_grants')
      .values({ share_id: shareId, user_id: userId, book_id: bookId })
      .onConflict((oc) => oc.columns(['share_id', 'user_id']).doNothing())
      .execute();
  }

  /**
   * After a link is revoked, the copies its recipients had only through it: dropped when no other
   * valid link and no public visibility keep the book theirs (the uploader's own copy always stays).
   */
  async dropCopiesOnlyThrough(shareId: string): Promise<void> {
    await sql`
      DELETE FROM user_books ub
      USING share_grants g, books b
      WHERE g.share_id = ${shareId} AND ub.user_id = g.user_id AND ub.book_id = g.book_id AND ub.source = 'share'
        AND b.id = ub.book_id AND NOT (b.visibility = 1 AND NOT b.public_deleted) AND b.owner_id IS DISTINCT FROM ub.user_id
        AND NOT EXISTS (SELECT 1 FROM share_grants g2 JOIN book_shares s ON s.id = g2.share_id
                        WHERE g2.user_id = g.user_id AND g2.book_id = g.book_id AND g2.share_id <> ${shareId}
                          AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now()))`.execute(
      this.db,
    );
  }
}
