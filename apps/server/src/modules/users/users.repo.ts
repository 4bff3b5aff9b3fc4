import { sql } from 'kysely';
import type { AccessEvents } from '../../lib/access-events.ts';
import type { Db } from '../../db/client.ts';
import type { NewUser, UserRow, UserUpdate } from '../../db/schema.ts';
import { lockUntilCommit } from '../../db/locks.ts';

/** The only place with SQL about users. */
export class UsersRepo {
  private readonly db: Db;
  /** Told after each write that can take access away (the database triggers tell other processes). */
  private readonly access: AccessEvents | undefined;
  constructor(db: Db, access?: AccessEvents) {
    this.db = db;
    this.access = access;
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Finds the user a person means when they type `login`: their account, email or phone. */
  findByLogin(login: string): Promise<UserRow | undefined> {
    // Accounts are stored in NFKC: the full-width ａｌｉｃｅ typed on a phone is alice.
    const lower = login.normalize('NFKC').trim().toLowerCase();
    return (
      this.db
        .selectFrom('users')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb(sql`lower(account)`, '=', lower),
            eb(sql`lower(email)`, '=', lower),
            eb('phone', '=', login.trim()),
          ]),
        )
        // An exact account match wins over another user's email or phone.
        .orderBy(sql`lower(account) = ${lower}`, 'desc')
        .executeTakeFirst()
    );
  }

  async accountTaken(account: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(account)`, '=', account.toLowerCase())
      .executeTakeFirst();
    return row !== undefined;
  }

  async emailTaken(email: string, exceptUserId?: number): Promise<boolean> {
    let query = this.db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase());
    if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async phoneTaken(phone: string): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst()) !== undefined;
  }

  findByInviteCode(code: string): Promise<Pick<UserRow, 'id' | 'status'> | undefined> {
    return this.db.selectFrom('users').select(['id', 'status']).where('invite_code', '=', code).executeTakeFirst();
  }

  /**
   * `name` if no user has it (compared as the unique index does, without case), else the first of
   * name2, name3… that is free. Inside the caller's transaction, under a lock of the name that it
   * holds until it commits: registrations wanting the same name take turns, each seeing the last.
   */
  async freeUsername(trx: Db, name: string): Promise<string> {
    const base = name.slice(0, 36);
    await lockUntilCommit(trx, `username:${base.toLowerCase()}`);
    const rows = await trx
      .selectFrom('users')
      .select(sql<string>`lower(username)`.as('taken'))
      .where(sql`lower(username)`, 'like', `${base.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`)
      .execute();
    const taken = new Set(rows.map((r) => r.taken));
    if (!taken.has(base.toLowerCase())) return base;
    for (let n = 2; ; n += 1) if (!taken.has(`${base}${n}`.toLowerCase())) return `${base}${n}`;
  }

  /** Whether another user than `exceptUserId` has this username (without case). */
  async usernameTaken(username: string, exceptUserId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .where('id', '!=', exceptUserId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async inviteCodeTaken(code: string): Promise<boolean> {
    const own = await this.db.selectFrom('users').select('id').where('invite_code', '=', code).executeTakeFirst();
    if (own) return true;
    const minted = await this.db.selectFrom('invite_codes').select('code').where('code', '=', code).executeTakeFirst();
    return minted !== undefined;
  }

  insert(db: Db, user: NewUser): Promise<UserRow> {
    return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, changes: UserUpdate): Promise<UserRow | undefined> {
    const updated = await this.db
      .updateTable('users')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    this.access?.emit({ userId: id });
    return updated;
  }

  async recordLogin(id: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ login_count: eb('login_count', '+', 1), last_login_at: new Date() }))
      .where('id', '=', id)
      .execute();
  }

  async recordLoginEvent(event: {
    userId: number | null;
    account: string;
    ip: string | null;
    success: boolean;
    reason: string | null;
  }): Promise<void> {
    await this.db
      .insertInto('login_events')
      .values({
        user_id: event.userId,
        account: event.account.slice(0, 254),
        ip: event.ip,
        success: event.success,
        reason: event.reason,
      })
      .execute();
  }

  /** Username search for admins: substring match, served by the trigram index. */
  searchByUsername(term: string, limit = 50): Promise<UserRow[]> {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('username', 'ilike', pattern), eb('account', 'ilike', pattern)]))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async hasLoggedInBeforeToday(id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('login_events')
      .select('id')
      .where('user_id', '=', id)
      .where('success', '=', true)
      .where('created_at', '<', sql<Date>`date_trunc('day', now())`)
      .executeTakeFirst();
    return row !== undefined;
  }
}
