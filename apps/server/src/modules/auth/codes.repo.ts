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
   * One guess at the newest unconsumed code for (purpose, target), in one statement: the guess is
   * counted and, when it is right, the code consumed. Guesses racing each other queue on the code's
   * row, so no more than `maxAttempts` are ever compared, and a right guess after them finds the code
   * dead. True when the guess was right.
   */
  async attempt(purpose: CodePurpose, target: string, codeHash: string, maxAttempts: number): Promise<boolean> {
    const result = await sql<{ consumed: boolean }>`
      UPDATE verification_codes SET
        attempts = attempts + 1,
        consumed_at = CASE WHEN code_hash = ${codeHash} THEN now() END
      WHERE id = (SELECT id FROM verification_codes
                  WHERE purpose = ${purpose} AND target = ${target} AND consumed_at IS NULL
                  ORDER BY created_at DESC, id DESC LIMIT 1)
        AND consumed_at IS NULL AND attempts < ${maxAttempts} AND expires_at > now()
      RETURNING consumed_at IS NOT NULL AS consumed`.execute(this.db);
    return result.rows[0]?.consumed === true;
  }

  findByHash(purpose: CodePurpose, codeHash: string): Promise<StoredCode | undefined> {
    return this.db
      .selectFrom('verification_codes')
      .select(['id', 'code_hash', 'attempts', 'expires_at', 'consumed_at', 'target'])
      .where('purpose', '=', purpose)
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
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
