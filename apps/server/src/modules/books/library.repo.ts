import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookRow, UserBookRow, UserBooksTable } from '../../db/schema.ts';
import type { AccessEvents } from '../../lib/access-events.ts';
import type { BookView, ListQuery } from './books.repo.ts';

/** A share grant counts while its link is neither revoked nor expired. */
export const activeShare = sql<boolean>`s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now())`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);

/** SQL of personal libraries (users' copies of books) and of the public library's lists. */
export class LibraryRepo {
  private readonly db: Db;
  /** Told after each write that can take access away (the database triggers tell other processes). */
  private readonly access: AccessEvents | undefined;
  constructor(db: Db, access?: AccessEvents) {
    this.db = db;
    this.access = access;
  }

  findCopy(userId: number, bookId: number): Promise<UserBookRow | undefined> {
    return this.db
      .selectFrom('user_books')
      .selectAll()
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId)
      .executeTakeFirst();
  }

  /** Adds a book to a user's library (no-op when it is already there) and counts the reader. */
  async addCopy(copy: Insertable<UserBooksTable>): Promise<UserBookRow> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('user_books')
        .values(copy)
        .onConflict((oc) => oc.columns(['user_id', 'book_id']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) {
        await trx
          .updateTable('books')
          .set((eb) => ({ readers_count: eb('readers_count', '+', 1) }))
          .where('id', '=', copy.book_id)
          .execute();
        return inserted;
      }
      return trx
        .selectFrom('user_books')
        .selectAll()
        .where('user_id', '=', copy.user_id)
        .where('book_id', '=', copy.book_id)
        .executeTakeFirstOrThrow();
    });
  }

  updateCopy(id: number, patch: Updateable<UserBooksTable>): Promise<UserBookRow> {
    return this.db
      .updateTable('user_books')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async deleteCopy(copy: UserBookRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_books').where('id', '=', copy.id).execute();
      await trx
        .updateTable('books')
        .set((eb) => ({ readers_count: sql`greatest(${eb.ref('readers_count')} - 1, 0)` }))
        .where('id', '=', copy.book_id)
        .execute();
    });
    this.access?.emit({ bookId: copy.book_id });
  }

  async copiesCount(bookId: number): Promise<number> {
    const row = await this.db
      .selectFrom('user_books')
      .select(sql<string>`count(*)`.as('n'))
      .where('book_id', '=', bookId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The user's library, newest first unless sorted otherwise. */
  async listCopies(userId: number, query: ListQuery & { sort: string }): Promise<{ rows: BookView[]; total: number }> {
    let base = this.db
      .selectFrom('user_books as ub')
      .innerJoin('books as b', 'b.id', 'ub.book_id')
      .where('ub.user_id', '=', userId)
      .where('b.status', '=', 'ready')
      // A book that came through a share link stays while one of its links is valid (or it is public).
      .where(
        sql<boolean>`(ub.source <> 'share' OR b.owner_id = ${userId} OR (b.visibility = 1 AND NOT b.public_deleted)
          OR EXISTS (SELECT 1 FROM share_grants g JOIN book_shares s ON s.id = g.share_id
                     WHERE g.user_id = ${userId} AND g.book_id = b.id AND ${activeShare}))`,
      );
    if (query.keyword) {
      const pattern = `%${escapeLike(query.keyword.toLowerCase())}%`;
      base = base.where((eb) =>
        eb.or([eb(sql`lower(ub.title)`, 'like', pattern), eb(sql`lower(ub.author)`, 'like', pattern)]),
      );
    }
    const order =
      query.sort === 'title'
        ? sql`ub.title ASC`
        : query.sort === 'updated'
          ? sql`ub.updated_at DESC`
          : query.sort === 'added'
            ? sql`ub.added_at DESC`
            : sql`coalesce(ub.last_read_at, ub.added_at) DESC`;
    const [rows, count] = await Promise.all([
      base
        .selectAll('b')
        .select([
          'ub.id as copy_id',
          'ub.title as copy_title',
          'ub.author as copy_author',
          'ub.description as copy_description',
          'ub.category as copy_category',
          'ub.cover_key as copy_cover_key',
          'ub.read_language as copy_read_language',
          'ub.source as copy_source',
          'ub.added_at as copy_added_at',
          'ub.updated_at as copy_updated_at',
          'ub.last_read_at as copy_last_read_at',
        ])
        .orderBy(order)
        .orderBy('ub.id', 'desc')
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
      base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      total: Number(count.n),
      rows: rows.map((r) => {
        const {
          copy_id,
          copy_title,
          copy_author,
          copy_description,
          copy_category,
          copy_cover_key,
          copy_read_language,
          copy_source,
          copy_added_at,
          copy_updated_at,
          copy_last_read_at,
          ...book
        } = r;
        return {
          book: book as BookRow,
          copy: {
            id: copy_id,
            user_id: userId,
            book_id: book.id,
            title: copy_title,
            author: copy_author,
            description: copy_description,
            category: copy_category,
            cover_key: copy_cover_key,
            read_language: copy_read_language,
            source: copy_source,
            added_at: copy_added_at,
            updated_at: copy_updated_at,
            last_read_at: copy_last_read_at,
          },
        };
      }),
    };
  }

  /**
   * The public library. New: newest first. Popular: most readers (people who have it in their
   * library), then newest. Recommended: books picked by admins first, then well-described popular ones.
   */
  async listPublic(section: string, query: ListQuery, sort: string): Promise<{ rows: BookRow[]; total: number }> {
    let base = this.db
      .selectFrom('books')
      .where('visibility', '=', 1)
      .where('status', '=', 'ready')
      .where('public_deleted', '=', false);
    if (query.keyword) {
      const pattern = `%${escapeLike(query.keyword.toLowerCase())}%`;
      base = base.where((eb) =>
        eb.or([eb(sql`lower(title)`, 'like', pattern), eb(sql`lower(author)`, 'like', pattern)]),
      );
    }
    if (section === 'recommended') {
      base = base.where((eb) =>
        eb.or([
          eb('recommended', '=', true),
          eb.and([eb('readers_count', '>=', 2), eb(sql`length(description)`, '>=', 20)]),
        ]),
      );
    }
    let ordered = base.selectAll();
    if (sort === 'title') ordered = ordered.orderBy('title');
    else if (sort === 'updated') ordered = ordered.orderBy('updated_at', 'desc');
    else if (section === 'popular') ordered = ordered.orderBy('readers_count', 'desc').orderBy('created_at', 'desc');
    else if (section === 'recommended')
      ordered = ordered.orderBy('recommended', 'desc').orderBy('readers_count', 'desc').orderBy('created_at', 'desc');
    else ordered = ordered.orderBy('created_at', 'desc');
    const [rows, count] = await Promise.all([
      ordered.orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute(),
      base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** The user's copies of the given books (for the "in my library" mark on public lists). */
  async copiesOf(userId: number, bookIds: number[]): Promise<Map<number, UserBookRow>> {
    if (bookIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('user_books')
      .selectAll()
      .where('user_id', '=', userId)
      .where('book_id', 'in', bookIds)
      .execute();
    return new Map(rows.map((r) => [r.book_id, r]));
  }

  /** Books the user uploaded (their own uploads, whatever the visibility). */
  async listOwned(userId: number, query: ListQuery): Promise<{ rows: BookRow[]; total: number }> {
    let base = this.db.selectFrom('books').where('owner_id', '=', userId).where('status', '=', 'ready');
    if (query.keyword) base = base.where(sql`lower(title)`, 'like', `%${escapeLike(query.keyword.toLowerCase())}%`);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
      base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
