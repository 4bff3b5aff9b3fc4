import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

export type HealthSource = 'use' | 'probe' | 'test';

/** What one process saw of an engine since its last flush, merged (latest first). */
export interface HealthEntry {
  key: string;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastError: string | null;
  /** Of the latest outcome. */
  latencyMs: number;
  checkedBy: HealthSource;
}

export interface HealthRow {
  key: string;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastError: string | null;
  latencyMs: number | null;
  checkedBy: HealthSource | null;
}

/** The engine_health table: one row per engine or AI model, written by every process. */
export class HealthRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Merges entries into the table. Several processes write at once: times only move forward
   * (GREATEST), and the error, latency and source follow whichever outcome is the newest.
   */
  async merge(entries: HealthEntry[]): Promise<void> {
    for (const e of entries) {
      const latest = [e.lastSuccessAt, e.lastFailureAt].filter((d): d is Date => d !== null).sort((a, b) => +b - +a)[0];
      await sql`
        INSERT INTO engine_health AS h (key, last_success_at, last_failure_at, last_error, latency_ms, checked_by, updated_at)
        VALUES (${e.key}, ${e.lastSuccessAt}, ${e.lastFailureAt}, ${e.lastError}, ${e.latencyMs}, ${e.checkedBy}, now())
        ON CONFLICT (key) DO UPDATE SET
          last_success_at = GREATEST(h.last_success_at, EXCLUDED.last_success_at),
          last_failure_at = GREATEST(h.last_failure_at, EXCLUDED.last_failure_at),
          last_error = CASE WHEN EXCLUDED.last_failure_at IS NOT NULL
              AND (h.last_failure_at IS NULL OR EXCLUDED.last_failure_at >= h.last_failure_at)
            THEN EXCLUDED.last_error ELSE h.last_error END,
          latency_ms = CASE WHEN ${latest ?? null}::timestamptz >= GREATEST(h.last_success_at, h.last_failure_at)
              OR GREATEST(h.last_success_at, h.last_failure_at) IS NULL
            THEN EXCLUDED.latency_ms ELSE h.latency_ms END,
          checked_by = CASE WHEN ${latest ?? null}::timestamptz >= GREATEST(h.last_success_at, h.last_failure_at)
              OR GREATEST(h.last_success_at, h.last_failure_at) IS NULL
            THEN EXCLUDED.checked_by ELSE h.checked_by END,
          updated_at = now()`.execute(this.db);
    }
  }

  async all(): Promise<HealthRow[]> {
    const rows = await this.db.selectFrom('engine_health').selectAll().execute();
    return rows.map((r) => ({
      key: r.key,
      lastSuccessAt: r.last_success_at,
      lastFailureAt: r.last_failure_at,
      lastError: r.last_error,
      latencyMs: r.latency_ms,
      checkedBy: r.checked_by as HealthSource | null,
    }));
  }

  /** Forgets what was seen of an engine (its settings changed: the old outcomes say nothing now). */
  async forget(key: string): Promise<void> {
    await this.db.deleteFrom('engine_health').where('key', '=', key).execute();
  }
}
