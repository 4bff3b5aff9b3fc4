import type { Insertable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookRow, BooksTable } from '../../db/schema.ts';

/** The only SQL of the first shelf: which books were seeded, each under its slug. */
export class FirstShelfRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The slug's entry: undefined if never seeded; `book` undefined if an admin removed it. */
  async find(slug: string): Promise<{ book: BookRow | undefined } | undefined> {
    const row = await this.db.selectFrom('first_shelf').select('book_id').where('slug', '=', slug).executeTakeFirst();
    if (!row) return undefined;
    const book =
      row.book_id === null
        ? undefined
        : await this.db.selectFrom('books').selectAll().where('id', '=', row.book_id).executeTakeFirst();
    return { book };
  }

  /** The book and its slug's entry, written together: a start that dies later finds the book to finish. */
  async claim(slug: string, book: Insertable<BooksTable>): Promise<BookRow> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx.insertInto('books').values(book).returningAll().executeTakeFirstOrThrow();
      await trx.insertInto('first_shelf').values({ slug, book_id: inserted.id }).execute();
      return inserted;
    });
  }
}
