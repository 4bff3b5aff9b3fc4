import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { FeedbackStatus, FeedbackTable, FeedbackType } from '../../db/schema.ts';

/** A feedback with the username of its sender (null once the account is gone). */
export type FeedbackRow = Selectable<FeedbackTable> & { username: string | null };
export type NewFeedback = Insertable<FeedbackTable>;

export interface FeedbackFilter {
  /** Only this user's feedback (everyone's when undefined: admins). */
  userId?: number | undefined;
  status?: FeedbackStatus | undefined;
  type?: FeedbackType | undefined;
  /** In the title or the description, case-insensitively; % and _ match themselves. */
  keyword?: string | undefined;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);

/** The only SQL about feedback. */
export class FeedbackRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Feedback with its sender's username: every read goes through this. */
  private base() {
    return this.db
      .selectFrom('feedback as f')
      .leftJoin('users as u', 'u.id', 'f.user_id')
      .selectAll('f')
      .select('u.username');
  }

  async insert(feedback: NewFeedback): Promise<number> {
    const row = await this.db.insertInto('feedback').values(feedback).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  find(id: number): Promise<FeedbackRow | undefined> {
    return this.base().where('f.id', '=', id).executeTakeFirst();
  }

  /** A page of feedback, newest first, with the number of all that match. */
  async search(
    filter: FeedbackFilter,
    page: { limit: number; offset: number },
  ): Promise<{ rows: FeedbackRow[]; total: number }> {
    let base = this.base();
    if (filter.userId !== undefined) base = base.where('f.user_id', '=', filter.userId);
    if (filter.status) base = base.where('f.status', '=', filter.status);
    if (filter.type) base = base.where('f.type', '=', filter.type);
    if (filter.keyword) {
      const pattern = `%${escapeLike(filter.keyword.toLowerCase())}%`;
      base = base.where((eb) =>
        eb.or([eb(sql`lower(f.title)`, 'like', pattern), eb(sql`lower(f.description)`, 'like', pattern)]),
      );
    }
    const [rows, count] = await Promise.all([
      base.orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(page.limit).offset(page.offset).execute(),
      base
        .clearSelect()
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Sets the status and, when an answer is given, the reply and the admin who wrote it. False when there is no such feedback. */
  async setStatus(
    id: number,
    status: FeedbackStatus,
    answer?: { reply: string | null; repliedBy: number },
  ): Promise<boolean> {
    const updated = await this.db
      .updateTable('feedback')
      .set({
        status,
        ...(answer !== undefined ? { reply: answer.reply, replied_by: answer.repliedBy } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }
}
