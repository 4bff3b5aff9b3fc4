import type { LookupEntry } from '@yidu/shared';
import type { Db } from '../../db/client.ts';

export interface LookupKey {
  keyHash: string;
  from: string;
  to: string;
  engine: string;
  model: string;
}

/** The shared cache of looked-up words: one entry per word, sentence, languages and source. */
export class LookupRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async cached(key: LookupKey): Promise<LookupEntry | undefined> {
    const row = await this.db
      .selectFrom('word_lookups')
      .select('entry')
      .where('key_hash', '=', key.keyHash)
      .where('source_lang', '=', key.from)
      .where('target_lang', '=', key.to)
      .where('engine', '=', key.engine)
      .where('model', '=', key.model)
      .executeTakeFirst();
    return row?.entry as LookupEntry | undefined;
  }

  async remember(key: LookupKey, text: string, entry: LookupEntry): Promise<void> {
    await this.db
      .insertInto('word_lookups')
      .values({
        key_hash: key.keyHash,
        source_lang: key.from,
        target_lang: key.to,
        engine: key.engine,
        model: key.model,
        text,
        entry: JSON.stringify(entry),
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
