import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/** Days as 'YYYY-MM-DD' in the database's time zone. */
export type Day = string;

const series = (end: Day, days: number) =>
  sql`generate_series(${end}::date - ${days - 1}::int, ${end}::date, interval '1 day')`;

/** The SQL behind the admin statistics; every query reads real tables, nothing is estimated. */
export class AdminStats {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Upload requests per day over `days` days ending on `end`, by outcome and visibility. */
  async uploads(end: Day, days: number, bookStatus?: number) {
    const rows = await sql<{
      day: string;
      total: string;
      completed: string;
      failed: string;
      running: string;
      public: string;
      private: string;
    }>`
      SELECT to_char(d, 'YYYY-MM-DD') AS day,
        count(r.id) AS total,
        count(r.id) FILTER (WHERE r.stage = 'completed') AS completed,
        count(r.id) FILTER (WHERE r.status = 'failed') AS failed,
        count(r.id) FILTER (WHERE r.status = 'running' OR (r.status = 'done' AND r.stage <> 'completed')) AS running,
        count(r.id) FILTER (WHERE r.book_status = 1) AS public,
        count(r.id) FILTER (WHERE r.book_status = 0) AS private
      FROM ${series(end, days)} d
      LEFT JOIN upload_requests r ON r.created_at >= d AND r.created_at < d + interval '1 day'
        AND (${bookStatus ?? null}::int IS NULL OR r.book_status = ${bookStatus ?? null}::int)
      GROUP BY d ORDER BY d`.execute(this.db);
    return rows.rows.map((r) => ({
      day: r.day,
      total: +r.total,
      completed: +r.completed,
      failed: +r.failed,
      running: +r.running,
      public: +r.public,
      private: +r.private,
    }));
  }

  async registrations(end: Day, days: number) {
    const rows = await sql<{ day: string; count: string }>`
      SELECT to_char(d, 'YYYY-MM-DD') AS day, count(u.id) AS count
      FROM ${series(end, days)} d LEFT JOIN users u ON u.created_at >= d AND u.created_at < d + interval '1 day'
      GROUP BY d ORDER BY d`.execute(this.db);
    return rows.rows.map((r) => ({ day: r.day, count: +r.count }));
  }

  /** Successful logins per day, and how many different users logged in. */
  async logins(end: Day, days: number) {
    const rows = await sql<{ day: string; logins: string; users: string; failures: string }>`
      SELECT to_char(d, 'YYYY-MM-DD') AS day,
        count(e.id) FILTER (WHERE e.success) AS logins,
        count(DISTINCT e.user_id) FILTER (WHERE e.success) AS users,
        count(e.id) FILTER (WHERE NOT e.success) AS failures
      FROM ${series(end, days)} d LEFT JOIN login_events e ON e.created_at >= d AND e.created_at < d + interval '1 day'
      GROUP BY d ORDER BY d`.execute(this.db);
    return rows.rows.map((r) => ({ day: r.day, logins: +r.logins, users: +r.users, failures: +r.failures }));
  }

  async loginCount(end: Day, days: number) {
    const row = await sql<{ logins: string; users: string }>`
      SELECT count(*) AS logins, count(DISTINCT user_id) AS users FROM login_events
      WHERE success AND created_at >= ${end}::date - ${days - 1}::int AND created_at < ${end}::date + 1`.execute(
      this.db,
    );
    return { logins: +row.rows[0]!.logins, users: +row.rows[0]!.users };
  }

  /** Of the users who registered on `base`, the share who logged in on each of the next `days` days. */
  async retention(base: Day, days: number) {
    const cohort = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM users WHERE created_at >= ${base}::date AND created_at < ${base}::date + 1`.execute(
      this.db,
    );
    const size = +cohort.rows[0]!.n;
    const rows = await sql<{ day: number; retained: string }>`
      SELECT k AS day, count(DISTINCT e.user_id) AS retained
      FROM generate_series(1, ${days}::int) k
      LEFT JOIN users u ON u.created_at >= ${base}::date AND u.created_at < ${base}::date + 1
      LEFT JOIN login_events e ON e.user_id = u.id AND e.success
        AND e.created_at >= ${base}::date + k AND e.created_at < ${base}::date + k + 1
      GROUP BY k ORDER BY k`.execute(this.db);
    return {
      baseDate: base,
      cohort: size,
      days: rows.rows.map((r) => ({ day: r.day, retained: +r.retained, rate: size ? +r.retained / size : 0 })),
    };
  }

  /** Users registered more than `regDays` days ago whose last login is older than `lastLoginDays` days. */
  async oldLoginUsers(regDays: number, lastLoginDays: number) {
    return this.db
      .selectFrom('users')
      .select(['id', 'account', 'username', 'email', 'created_at', 'last_login_at', 'login_count'])
      .where('created_at', '<', sql<Date>`now() - make_interval(days => ${regDays})`)
      .where((eb) =>
        eb.or([
          eb('last_login_at', 'is', null),
          eb('last_login_at', '<', sql<Date>`now() - make_interval(days => ${lastLoginDays})`),
        ]),
      )
      .orderBy('last_login_at', 'asc')
      .limit(500)
      .execute();
  }

  /** Users with at least `count` operations (logins, uploads, paid actions) on a day. */
  async frequentOperators(day: Day, count: number) {
    const rows = await sql<{
      id: number;
      account: string;
      username: string;
      logins: string;
      uploads: string;
      paid: string;
      total: string;
    }>`
      WITH ops AS (
        SELECT user_id, 1 AS login, 0 AS upload, 0 AS paid FROM login_events WHERE success AND created_at >= ${day}::date AND created_at < ${day}::date + 1
        UNION ALL SELECT user_id, 0, 1, 0 FROM upload_events WHERE created_at >= ${day}::date AND created_at < ${day}::date + 1
        UNION ALL SELECT user_id, 0, 0, 1 FROM points_ledger WHERE type = 'expenditure' AND created_at >= ${day}::date AND created_at < ${day}::date + 1
      )
      SELECT u.id, u.account, u.username, sum(o.login) AS logins, sum(o.upload) AS uploads, sum(o.paid) AS paid, count(*) AS total
      FROM ops o JOIN users u ON u.id = o.user_id
      GROUP BY u.id HAVING count(*) >= ${count} ORDER BY total DESC LIMIT 200`.execute(this.db);
    return rows.rows.map((r) => ({
      id: r.id,
      account: r.account,
      username: r.username,
      logins: +r.logins,
      uploads: +r.uploads,
      paidActions: +r.paid,
      total: +r.total,
    }));
  }

  /** Points spent per feature per day, and characters translated per engine per day. */
  async usage(end: Day, days: number) {
    const points = await sql<{ day: string; reason: string; points: string }>`
      SELECT to_char(date_trunc('day', created_at), 'YYYY-MM-DD') AS day, reason, sum(points) AS points
      FROM points_ledger WHERE type = 'expenditure' AND created_at >= ${end}::date - ${days - 1}::int AND created_at < ${end}::date + 1
      GROUP BY 1, 2 ORDER BY 1, 2`.execute(this.db);
    const engines = await sql<{ day: string; engine: string; characters: string }>`
      SELECT to_char(date_trunc('day', created_at), 'YYYY-MM-DD') AS day, engine, sum(source_chars) AS characters
      FROM translation_memory WHERE created_at >= ${end}::date - ${days - 1}::int AND created_at < ${end}::date + 1
      GROUP BY 1, 2 ORDER BY 1, 2`.execute(this.db);
    return {
      pointsByFeature: points.rows.map((r) => ({ day: r.day, feature: r.reason, points: +r.points })),
      charactersByEngine: engines.rows.map((r) => ({ day: r.day, engine: r.engine, characters: +r.characters })),
    };
  }

  /** Failed uploads and translations of the given users, newest first, with their messages. */
  async errorsOf(userIds: number[]) {
    if (userIds.length === 0) return { uploads: [], translations: [] };
    const uploads = await this.db
      .selectFrom('upload_requests as r')
      .leftJoin('books as b', 'b.id', 'r.book_id')
      .select([
        'r.id as requestId',
        'r.user_id as userId',
        'r.book_name as bookName',
        'b.code as bookCode',
        'r.stage',
        'r.error_key as errorKey',
        'r.error_detail as detail',
        'r.updated_at as at',
      ])
      .where('r.user_id', 'in', userIds)
      .where('r.status', '=', 'failed')
      .orderBy('r.updated_at', 'desc')
      .limit(200)
      .execute();
    const translations = await sql<{ bookCode: string; language: string; blocks: string; error: string; at: Date }>`
      SELECT b.code AS "bookCode", t.target_lang AS language, count(*) AS blocks, max(t.error) AS error, max(t.updated_at) AS at
      FROM book_translations t JOIN books b ON b.id = t.book_id
      WHERE t.status = 'failed' AND t.requested_by = ANY(${userIds})
      GROUP BY b.code, t.target_lang ORDER BY at DESC LIMIT 200`.execute(this.db);
    return {
      uploads: uploads.map((u) => ({ ...u, at: u.at.toISOString() })),
      translations: translations.rows.map((t) => ({ ...t, blocks: +t.blocks, at: t.at.toISOString() })),
    };
  }

  /** The job queue per job name: counts per state and the age of the oldest waiting job. */
  async queue() {
    const rows = await sql<{ name: string; state: string; count: string; oldest: Date | null }>`
      SELECT name, state, count(*) AS count, min(created_on) FILTER (WHERE state IN ('created', 'retry')) AS oldest
      FROM pgboss.job GROUP BY name, state ORDER BY name, state`.execute(this.db);
    const byName = new Map<
      string,
      { name: string; states: Record<string, number>; oldestWaitingSeconds: number | null }
    >();
    for (const r of rows.rows) {
      const entry = byName.get(r.name) ?? { name: r.name, states: {}, oldestWaitingSeconds: null };
      entry.states[r.state] = +r.count;
      if (r.oldest) {
        const age = Math.round((Date.now() - r.oldest.getTime()) / 1000);
        entry.oldestWaitingSeconds = Math.max(entry.oldestWaitingSeconds ?? 0, age);
      }
      byName.set(r.name, entry);
    }
    return [...byName.values()];
  }

  async databaseSize(): Promise<number> {
    const row = await sql<{ size: string }>`SELECT pg_database_size(current_database()) AS size`.execute(this.db);
    return +row.rows[0]!.size;
  }

  async postgresVersion(): Promise<string> {
    const row = await sql<{ version: string }>`SELECT current_setting('server_version') AS version`.execute(this.db);
    return row.rows[0]!.version;
  }
}
