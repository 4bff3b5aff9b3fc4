import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { SessionRow, UserRow } from '../../db/schema.ts';

export class SessionsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async create(session: {
    userId: number;
    tokenHash: string;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
    kind?: 'login' | 'impersonation';
  }): Promise<SessionRow> {
    return this.db
      .insertInto('sessions')
      .values({
        user_id: session.userId,
        token_hash: session.tokenHash,
        expires_at: session.expiresAt,
        ip: session.ip,
        user_agent: session.userAgent?.slice(0, 400) ?? null,
        kind: session.kind ?? 'login',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The live session for a token hash, with its user; undefined when revoked, expired or unknown. */
  async findLive(tokenHash: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const session = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    if (!session) return undefined;
    const user = await this.db.selectFrom('users').selectAll().where('id', '=', session.user_id).executeTakeFirst();
    return user ? { session, user } : undefined;
  }

  /** Marks a session as seen; at most once a minute per session to spare writes on hot paths. */
  async touch(id: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: new Date() })
      .where('id', '=', id)
      .where('last_seen_at', '<', sql<Date>`now() - interval '1 minute'`)
      .execute();
  }

  /** A user's live sessions, newest first (for their sessions list). */
  listLive(userId: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('last_seen_at', 'desc')
      .limit(100)
      .execute();
  }

  /** Revokes one of a user's sessions; false when it is not theirs or already gone. */
  async revokeOwn(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async revoke(id: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every live session of a user but `keepSessionId`. */
  async revokeAllForUser(userId: number, keepSessionId?: number): Promise<number> {
    let query = this.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
