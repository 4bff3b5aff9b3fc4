import { sql } from 'kysely';
import type { AccessEvents } from '../../lib/access-events.ts';
import type { Db } from '../../db/client.ts';
import type { SessionRow, UserRow } from '../../db/schema.ts';

export class SessionsRepo {
  private readonly db: Db;
  /** Told after each write that can take access away (the database triggers tell other processes). */
  private readonly access: AccessEvents | undefined;
  constructor(db: Db, access?: AccessEvents) {
    this.db = db;
    this.access = access;
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
    // One round trip: this runs before every authenticated call.
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .selectAll('u')
      .select([
        's.id as s_id',
        's.user_id as s_user_id',
        's.token_hash as s_token_hash',
        's.kind as s_kind',
        's.ip as s_ip',
        's.user_agent as s_user_agent',
        's.created_at as s_created_at',
        's.last_seen_at as s_last_seen_at',
        's.expires_at as s_expires_at',
        's.revoked_at as s_revoked_at',
      ])
      .where('s.token_hash', '=', tokenHash)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    if (!row) return undefined;
    const {
      s_id,
      s_user_id,
      s_token_hash,
      s_kind,
      s_ip,
      s_user_agent,
      s_created_at,
      s_last_seen_at,
      s_expires_at,
      s_revoked_at,
      ...user
    } = row;
    return {
      user: user as UserRow,
      session: {
        id: s_id,
        user_id: s_user_id,
        token_hash: s_token_hash,
        kind: s_kind,
        ip: s_ip,
        user_agent: s_user_agent,
        created_at: s_created_at,
        last_seen_at: s_last_seen_at,
        expires_at: s_expires_at,
        revoked_at: s_revoked_at,
      },
    };
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
    this.access?.emit({ userId });
    return Number(result.numUpdatedRows) === 1;
  }

  async revoke(id: number): Promise<void> {
    const revoked = await this.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning('user_id')
      .executeTakeFirst();
    if (revoked) this.access?.emit({ userId: revoked.user_id });
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
    this.access?.emit({ userId });
    return Number(result.numUpdatedRows);
  }
}
