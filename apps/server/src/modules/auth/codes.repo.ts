import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { CodePurpose } from '../../db/schema.ts';

export interface StoredCode {
  id: number;
  code_hash: string;
  attempts: number;
  expires_at: Date;
  consumed_at: Date | null;
  target: string;
}

/** One-time codes (SMS and mail codes, activation links), stored as hashes. */
export class CodesRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async insert(code: { purpose: CodePurpose; target: string; codeHash: string; expiresAt: Date; ip: string | null }) {
    await this.db
      .insertInto('verification_codes')
      .values({
        purpose: code.purpose,
        target: code.target,
        code_hash: code.codeHash,
        expires_at: code.expiresAt,
        ip: code.ip,
      })
      .execute();
  }

  /**
   * When the last code for (purpose, target) was sent, and how many were sent in the last 24 hours.
   * A target ending in ':' counts every target that starts with it (a user's email-change links).
   */
  async sendHistory(purpose: CodePurpose, target: string): Promise<{ lastSentAt: Date | null; lastDay: number }> {
    const row = await this.db
      .selectFrom('verification_codes')
      .select([sql<Date | null>`max(created_at)`.as('last'), sql<string>`count(*)`.as('count')])
      .where('purpose', '=', purpose)
      .where((eb) => (target.endsWith(':') ? eb('target', 'like', `${target}%`) : eb('target', '=', target)))
      .where('created_at', '>', sql<Date>`now() - interval '1 day'`)
      .executeTakeFirstOrThrow();
    return { lastSentAt: row.last, lastDay: Number(row.count) };
  }

  /** The newest unconsumed code for (purpose, target). */
  latest(purpose: CodePurpose, target: string): Promise<StoredCode | undefined> {
    return this.db
      .selectFrom('verification_codes')
      .select(['id', 'code_hash', 'attempts', 'expires_at', 'consumed_at', 'target'])
      .where('purpose', '=', purpose)
      .where('target', '=', target)
      .where('consumed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  findByHash(purpose: CodePurpose, codeHash: string): Promise<StoredCode | undefined> {
    return this.db
      .selectFrom('verification_codes')
      .select(['id', 'code_hash', 'attempts', 'expires_at', 'consumed_at', 'target'])
      .where('purpose', '=', purpose)
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
  }

  async countAttempt(id: number): Promise<void> {
    await this.db
      .updateTable('verification_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** Consumes a code exactly once, even under concurrent use; false when it was already used. */
  async consume(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('verification_codes')
      .set({ consumed_at: new Date() })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
