import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

export interface MintedInvite {
  code: string;
  maxUses: number | null;
  usedCount: number;
  expiresAt: string | null;
  note: string | null;
  createdAt: string;
}

/** Invitation codes minted by admins (each user also has an own code, kept on the user row). */
export class InvitesRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async insert(invite: {
    code: string;
    createdBy: number;
    maxUses: number | null;
    expiresAt: Date | null;
    note: string | null;
  }) {
    await this.db
      .insertInto('invite_codes')
      .values({
        code: invite.code,
        created_by: invite.createdBy,
        max_uses: invite.maxUses,
        expires_at: invite.expiresAt,
        note: invite.note,
      })
      .execute();
  }

  /** Whether a minted code exists and has a use left now (`use` takes it, atomically, at registration). */
  async isUsable(code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('invite_codes')
      .select('code')
      .where('code', '=', code)
      .where((eb) => eb.or([eb('max_uses', 'is', null), eb('used_count', '<', eb.ref('max_uses'))]))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** How many minted codes have a use left now (the set-up checklist). */
  async countUsable(): Promise<number> {
    const row = await this.db
      .selectFrom('invite_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where((eb) => eb.or([eb('max_uses', 'is', null), eb('used_count', '<', eb.ref('max_uses'))]))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Takes one use of a minted code when it is still valid; false otherwise. Safe under concurrency. */
  async use(db: Db, code: string): Promise<boolean> {
    const result = await db
      .updateTable('invite_codes')
      .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
      .where('code', '=', code)
      .where((eb) => eb.or([eb('max_uses', 'is', null), eb('used_count', '<', eb.ref('max_uses'))]))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async list(limit = 200): Promise<MintedInvite[]> {
    const rows = await this.db
      .selectFrom('invite_codes')
      .selectAll()
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      code: r.code,
      maxUses: r.max_uses,
      usedCount: r.used_count,
      expiresAt: r.expires_at?.toISOString() ?? null,
      note: r.note,
      createdAt: r.created_at.toISOString(),
    }));
  }
}
