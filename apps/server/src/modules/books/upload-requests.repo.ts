import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { AccessEvents } from '../../lib/access-events.ts';
import type { BookRow, UploadRequestRow } from '../../db/schema.ts';

/** An upload request that did not become a book yet, as its uploader's list shows it. */
export interface UnfinishedRow {
  id: string;
  book_name: string;
  stage: string;
  status: 'running' | 'done' | 'failed';
  error_key: string | null;
  target_language: string | null;
  file_name: string;
  format: string;
  created_at: Date;
  updated_at: Date;
}

/**
 * The SQL of an upload request's life outside its stages: the book it leaves in the library, the
 * title chosen afterwards, the uploader's unfinished requests, giving one up, and the sweep's finds.
 * The book and the title choice lock the request's row first, so that they never cross.
 */
export class UploadRequestsRepo {
  private readonly db: Db;
  private readonly access: AccessEvents | undefined;
  constructor(db: Db, access?: AccessEvents) {
    this.db = db;
    this.access = access;
  }

  /**
   * The parsed book of a request made ready and put in its uploader's library, under the title the
   * request holds at this moment (a title chosen meanwhile is already there; one chosen later renames
   * the book, see chooseTitle).
   */
  async saveBook(requestId: string): Promise<BookRow> {
    const book = await this.db.transaction().execute(async (trx) => {
      const request = await trx
        .selectFrom('upload_requests')
        .selectAll()
        .where('id', '=', requestId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const saved = await trx
        .updateTable('books')
        .set({
          title: request.book_name,
          author: request.book_author,
          description: request.book_describe,
          visibility: request.book_status,
          status: 'ready',
          updated_at: new Date(),
        })
        .where('id', '=', request.book_id!)
        .returningAll()
        .executeTakeFirstOrThrow();
      const copy = await trx
        .insertInto('user_books')
        .values({
          user_id: request.user_id,
          book_id: saved.id,
          title: saved.title,
          author: saved.author,
          description: saved.description,
          read_language: request.target_language,
          source: 'upload',
        })
        .onConflict((oc) => oc.columns(['user_id', 'book_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (copy) {
        await trx
          .updateTable('books')
          .set((eb) => ({ readers_count: eb('readers_count', '+', 1) }))
          .where('id', '=', saved.id)
          .execute();
      }
      return saved;
    });
    this.access?.emit({ bookId: book.id });
    return book;
  }

  /**
   * The uploader's answer to the title question, taken once: the request keeps it and, when its book
   * is already in the library, the book and the uploader's copy are renamed. False when the question
   * was answered before.
   */
  async chooseTitle(requestId: string, title: string): Promise<boolean> {
    const bookId = await this.db.transaction().execute(async (trx) => {
      const request = await trx
        .selectFrom('upload_requests')
        .select(['user_id', 'book_id', 'results'])
        .where('id', '=', requestId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if ((request.results as Record<string, unknown>).titleChosen !== undefined) return undefined;
      await sql`UPDATE upload_requests
        SET book_name = ${title}, results = results || ${JSON.stringify({ titleChosen: title })}::jsonb, updated_at = now()
        WHERE id = ${requestId}`.execute(trx);
      if (request.book_id === null) return null;
      const renamed = await trx
        .updateTable('books')
        .set({ title, updated_at: new Date() })
        .where('id', '=', request.book_id)
        .where('status', '=', 'ready')
        .returning('id')
        .executeTakeFirst();
      if (!renamed) return null;
      await trx
        .updateTable('user_books')
        .set({ title, updated_at: new Date() })
        .where('book_id', '=', request.book_id)
        .where('user_id', '=', request.user_id)
        .execute();
      return request.book_id;
    });
    if (typeof bookId === 'number') this.access?.emit({ bookId });
    return bookId !== undefined;
  }

  /** The user's requests that are neither a book nor given up, newest first. */
  unfinished(userId: number, limit: number): Promise<UnfinishedRow[]> {
    return this.db
      .selectFrom('upload_requests as r')
      .innerJoin('files as f', 'f.id', 'r.file_id')
      .select([
        'r.id',
        'r.book_name',
        'r.stage',
        sql<UnfinishedRow['status']>`r.status`.as('status'),
        'r.error_key',
        'r.target_language',
        'f.original_name as file_name',
        'f.format',
        'r.created_at',
        'r.updated_at',
      ])
      .where('r.user_id', '=', userId)
      .where('r.stage', '<>', 'completed')
      .where('r.status', '<>', 'discarded')
      .orderBy('r.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Gives a request up, only while nothing works on it (between stages, or failed): a stage that a
   * poller or the sweep starts at the same moment wins, and the request is not given up. The book
   * it parsed, never in anyone's library, goes with it. Undefined when it was not given up.
   */
  async discard(userId: number, requestId: string): Promise<UploadRequestRow | undefined> {
    const discarded = await this.db
      .updateTable('upload_requests')
      .set({ status: 'discarded', job_id: null, updated_at: new Date() })
      .where('id', '=', requestId)
      .where('user_id', '=', userId)
      .where('stage', '<>', 'completed')
      .where('status', 'in', ['done', 'failed'])
      .returningAll()
      .executeTakeFirst();
    if (discarded?.book_id) {
      await this.db.deleteFrom('books').where('id', '=', discarded.book_id).where('status', '<>', 'ready').execute();
    }
    return discarded;
  }

  /** Running requests whose stage said nothing for `seconds` (its worker may be gone). */
  silentRunning(seconds: number, limit: number): Promise<UploadRequestRow[]> {
    return this.db
      .selectFrom('upload_requests')
      .selectAll()
      .where('stage', '<>', 'completed')
      .where('status', '<>', 'discarded')
      .where('status', '=', 'running')
      .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  }

  /**
   * Requests waiting between stages that nobody drove on for `minutes` (the tab was closed): done at a
   * stage before the last, or with a title that could not be translated.
   */
  abandoned(minutes: number, limit: number): Promise<UploadRequestRow[]> {
    return this.db
      .selectFrom('upload_requests')
      .selectAll()
      .where('stage', '<>', 'completed')
      .where('status', '<>', 'discarded')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('status', '=', 'done'),
            eb('stage', 'in', ['infoSaving', 'parsingFile', 'detectingLanguage', 'translatingTitle']),
          ]),
          eb.and([eb('status', '=', 'failed'), eb('stage', '=', 'translatingTitle')]),
        ]),
      )
      .where('updated_at', '<', sql<Date>`now() - make_interval(mins => ${minutes})`)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  }

  /** Lets the server chain the rest of a request's stages itself (as Path A does). */
  async chainOn(id: string): Promise<void> {
    await this.db.updateTable('upload_requests').set({ auto_chain: true }).where('id', '=', id).execute();
  }
}
