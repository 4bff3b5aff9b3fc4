import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { DevicePasswordsTable, UserRow } from '../../db/schema.ts';
import type { AccessEvents } from '../../lib/access-events.ts';

export type DevicePasswordRow = Selectable<DevicePasswordsTable>;

/** The only SQL about device passwords. Every query about a user's passwords is bound to that user. */
export class DevicesRepo {
  private readonly db: Db;
  /** Told after a revocation, so that this process forgets the password at once (the trigger tells the others). */
  private readonly access: AccessEvents | undefined;
  constructor(db: Db, access?: AccessEvents) {
    this.db = db;
    this.access = access;
  }

  /**
   * Adds a password unless the user has `max` live ones already. The user's row is locked for the
   * count and the insert, so that requests racing each other never pass the limit together.
   */
  async insertWithin(
    userId: number,
    max: number,
    row: { name: string; key_hmac: string },
  ): Promise<DevicePasswordRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      const live = await trx
        .selectFrom('device_passwords')
        .select(sql<string>`count(*)`.as('n'))
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(live.n) >= max) return undefined;
      return trx
        .insertInto('device_passwords')
        .values({ user_id: userId, ...row })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  listLive(userId: number): Promise<DevicePasswordRow[]> {
    return this.db
      .selectFrom('device_passwords')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Revokes one of the user's live passwords; false when there is no such password. */
  async revoke(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('device_passwords')
      .set({ revoked_at: new Date() })
      .where('id', '=', String(id))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const revoked = Number(result.numUpdatedRows) === 1;
    if (revoked) this.access?.emit({ userId });
    return revoked;
  }

  /** The password stored under this HMAC (revoked or not) with its user. */
  async findByKey(keyHmac: string): Promise<{ device: DevicePasswordRow; user: UserRow } | undefined> {
    const device = await this.db
      .selectFrom('device_passwords')
      .selectAll()
      .where('key_hmac', '=', keyHmac)
      .executeTakeFirst();
    if (!device) return undefined;
    const user = await this.db.selectFrom('users').selectAll().where('id', '=', device.user_id).executeTakeFirst();
    return user ? { device, user } : undefined;
  }

  async touch(id: string, usedBy: string): Promise<void> {
    await this.db
      .updateTable('device_passwords')
      .set({ last_used_at: new Date(), last_used_by: usedBy.slice(0, 120) })
      .where('id', '=', id)
      .execute();
  }
}
