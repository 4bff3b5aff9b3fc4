import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { EngineSettingsTable } from '../../db/schema.ts';
import { lockUntilCommit } from '../../db/locks.ts';

export type EngineSettingsRow = Selectable<EngineSettingsTable>;
export type NewEngineSettings = Insertable<EngineSettingsTable>;

/** The translation engine settings admins saved (keys sealed); none saved means the environment's. */
export class EnginesRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The saved engines in their fallback order. */
  all(): Promise<EngineSettingsRow[]> {
    return this.db.selectFrom('engine_settings').selectAll().orderBy('position').execute();
  }

  /** Whether any engine was saved at all. */
  async anySaved(): Promise<boolean> {
    return (await this.db.selectFrom('engine_settings').select('name').limit(1).executeTakeFirst()) !== undefined;
  }

  /**
   * Replaces the whole list in one transaction: no process ever reads it half written, and saves at
   * once take turns (each would otherwise insert over rows the other wrote).
   */
  async replaceAll(rows: NewEngineSettings[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockUntilCommit(trx, 'engineSettings');
      await trx.deleteFrom('engine_settings').execute();
      await trx.insertInto('engine_settings').values(rows).execute();
    });
  }
}
