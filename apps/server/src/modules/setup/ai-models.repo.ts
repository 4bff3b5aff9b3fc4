import type { Db } from '../../db/client.ts';

export type StoredUse = 'explanation' | 'annotation';

export interface StoredModel {
  use: StoredUse;
  baseUrl: string;
  model: string;
  apiKeySealed: string | null;
}

/** The AI models admins chose for the reading aids (the translation model lives in engine_settings). */
export class AiModelsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async all(): Promise<StoredModel[]> {
    const rows = await this.db.selectFrom('ai_model_settings').selectAll().execute();
    return rows.map((r) => ({ use: r.use, baseUrl: r.base_url, model: r.model, apiKeySealed: r.api_key_sealed }));
  }

  async put(model: StoredModel, adminId: number): Promise<void> {
    const values = {
      base_url: model.baseUrl,
      model: model.model,
      api_key_sealed: model.apiKeySealed,
      updated_by: adminId,
      updated_at: new Date(),
    };
    await this.db
      .insertInto('ai_model_settings')
      .values({ use: model.use, ...values })
      .onConflict((oc) => oc.column('use').doUpdateSet(values))
      .execute();
  }

  async remove(use: StoredUse): Promise<void> {
    await this.db.deleteFrom('ai_model_settings').where('use', '=', use).execute();
  }
}
