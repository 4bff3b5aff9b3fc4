/**
 * Restores a backup made by backup.ts (`npm run admin -- restore FILE`): the whole file is read and
 * checked first (its checksum, row counts, and that this version knows its migrations); then the
 * schema is built by our own migrations up to the backup's, the rows are loaded in one transaction
 * (all or nothing), and the migrations made since run last, as they would on an upgrade.
 */
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, finished } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createDb } from '../client.ts';
import { knownMigrations, migrateOnly, migrateToLatest } from '../migrate.ts';
import { foreignKeysOf, plainIndexesOf, quoteIdent, SCHEMA, tablesOf } from './catalog.ts';
import { BackupFileError, readBackup, type BackupHeader, type BackupTrailer } from './format.ts';

export interface BackupContents {
  header: BackupHeader;
  trailer: BackupTrailer;
  /** Rows per table, in the file's order. */
  tables: { table: string; rows: number }[];
}

/** A restore that would destroy data or cannot work, with what to do instead. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

function openBackup(file: string) {
  // The callback form hands errors on to the last stream, whose reader then throws them.
  return pipeline(createReadStream(file), createGunzip(), () => undefined);
}

/** Reads a whole backup and checks it; throws BackupFileError when it cannot be restored here. */
export async function inspectBackup(file: string): Promise<BackupContents> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new BackupFileError(`There is no backup file at ${file}.`);
  let header: BackupHeader | undefined;
  let trailer: BackupTrailer | undefined;
  const tables: BackupContents['tables'] = [];
  for await (const event of readBackup(openBackup(file))) {
    if (event.type === 'header') {
      header = event.header;
      const known = new Set(knownMigrations());
      const unknown = header.migrations.filter((name) => !known.has(name));
      if (unknown.length > 0)
        throw new BackupFileError(
          `This backup was made by a newer Yidu (${header.yidu}): its database has migrations this version does not know (${unknown.join(', ')}). Restore it with that version or a later one.`,
        );
    } else if (event.type === 'tableEnd') tables.push({ table: event.frame.table, rows: event.rows });
    else if (event.type === 'trailer') trailer = event.trailer;
  }
  return { header: header!, trailer: trailer!, tables };
}

export type RestoreStep = 'checking' | 'schema' | 'loading' | 'indexing' | 'migrating' | 'analyzing';

export interface RestoreSummary {
  contents: BackupContents;
  rows: number;
  /** Migrations of this version run after the load (the backup was older). */
  migratedSince: string[];
  ms: number;
}

/**
 * Restores into the database at `url`, which must hold no Yidu data unless `force` is given (then
 * everything of Yidu's in it is replaced, once nothing else is connected to it).
 */
export async function restoreDatabase(options: {
  url: string;
  file: string;
  force: boolean;
  /** Told each step as it starts (a large restore takes minutes). */
  onStep?: (step: RestoreStep) => void;
}): Promise<RestoreSummary> {
  const started = Date.now();
  const step = options.onStep ?? (() => undefined);
  step('checking');
  const contents = await inspectBackup(options.file);
  const client = new pg.Client({ connectionString: options.url, application_name: 'yidu-restore' });
  await client.connect();
  try {
    await makeRoom(client, options.force);
    step('schema');
    await withDb(options.url, (db) => migrateOnly(db, contents.header.migrations));
    const rows = await load(client, options.file, step);
    step('migrating');
    const migratedSince = await withDb(options.url, (db) => migrateToLatest(db));
    // Fresh statistics for the planner, as autovacuum would make them later.
    step('analyzing');
    await client.query('ANALYZE');
    return { contents, rows, migratedSince, ms: Date.now() - started };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function withDb<T>(url: string, work: (db: Kysely<unknown>) => Promise<T>): Promise<T> {
  const { db } = createDb(url, 1);
  try {
    return await work(db as unknown as Kysely<unknown>);
  } finally {
    await db.destroy();
  }
}

/** Refuses a database that holds anything of Yidu's, unless told to replace it. */
async function makeRoom(client: pg.Client, force: boolean): Promise<void> {
  const { rows } = await client.query<{ tables: number; queue: boolean }>(
    `SELECT (SELECT count(*)::int FROM pg_tables WHERE schemaname = $1) AS tables,
            EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'pgboss') AS queue`,
    [SCHEMA],
  );
  const { tables, queue } = rows[0]!;
  if (tables === 0 && !queue) return;
  if (!force)
    throw new RestoreRefused(
      `The database is not empty (${tables} tables). Restore into a new DATA_DIR or an empty database, or add --force to replace everything in it.`,
    );
  const others = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  if (others.rows[0]!.n > 0)
    throw new RestoreRefused(
      `${others.rows[0]!.n} other connections use this database (is Yidu running on it?): stop them, then restore.`,
    );
  await client.query(`DROP SCHEMA IF EXISTS pgboss CASCADE`);
  await client.query(`DROP SCHEMA ${SCHEMA} CASCADE`);
  await client.query(`CREATE SCHEMA ${SCHEMA}`);
}

/** Memory for building each index after the load (the server's default, 64 MB, sorts on disk sooner). */
const INDEX_BUILD_MEMORY = '256MB';

/**
 * Loads every row in one transaction: foreign keys and plain indexes are dropped and made again after
 * (which checks the keys all at once and builds each index in one pass, as pg_dump's restores do),
 * user triggers (access-change notices) are off, the rows the migrations seeded are replaced by the
 * backup's, and the sequences are set last.
 */
async function load(client: pg.Client, file: string, step: (step: RestoreStep) => void): Promise<number> {
  await client.query('BEGIN');
  try {
    const target = new Map((await tablesOf(client)).map((t) => [t.table, new Set(t.columns)]));
    const foreignKeys = await foreignKeysOf(client);
    for (const key of foreignKeys)
      await client.query(`ALTER TABLE ${SCHEMA}.${quoteIdent(key.table)} DROP CONSTRAINT ${quoteIdent(key.name)}`);
    const indexes = await plainIndexesOf(client);
    for (const index of indexes) await client.query(`DROP INDEX ${SCHEMA}.${quoteIdent(index.name)}`);
    const names = [...target.keys()].map((t) => `${SCHEMA}.${quoteIdent(t)}`);
    for (const name of names) await client.query(`ALTER TABLE ${name} DISABLE TRIGGER USER`);
    if (names.length > 0) await client.query(`TRUNCATE ${names.join(', ')}`);

    step('loading');
    let total = 0;
    let copy: ReturnType<typeof copyFrom> | undefined;
    let copyDone: Promise<void> | undefined;
    for await (const event of readBackup(openBackup(file))) {
      if (event.type === 'table') {
        const { table, columns } = event.frame;
        const have = target.get(table);
        if (!have) throw new RestoreRefused(`The restored schema has no table ${table}, which the backup holds.`);
        const missing = columns.filter((c) => !have.has(c));
        if (missing.length)
          throw new RestoreRefused(`The restored table ${table} lacks columns ${missing.join(', ')}.`);
        copy = client.query(
          copyFrom(`COPY ${SCHEMA}.${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) FROM STDIN`),
        );
        const stream = copy;
        copyDone = new Promise((resolve, reject) => finished(stream, (error) => (error ? reject(error) : resolve())));
        copyDone.catch(() => undefined); // awaited at the table's end; a failure also stops the writes
      } else if (event.type === 'rows') {
        if (!copy!.write(event.data)) await Promise.race([once(copy!, 'drain'), copyDone]);
      } else if (event.type === 'tableEnd') {
        copy!.end();
        await copyDone;
        if (copy!.rowCount !== event.rows)
          throw new Error(`table ${event.frame.table}: ${copy!.rowCount} rows loaded, ${event.rows} in the backup`);
        total += event.rows;
        copy = undefined;
      } else if (event.type === 'trailer') {
        for (const sequence of event.trailer.sequences) {
          const name = `${SCHEMA}.${quoteIdent(sequence.name)}`;
          if (sequence.value === null) await client.query(`ALTER SEQUENCE ${name} RESTART`);
          else await client.query(`SELECT setval($1::regclass, $2::bigint, true)`, [name, sequence.value]);
        }
      }
    }
    step('indexing');
    await client.query(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
    for (const index of indexes) await client.query(index.definition);
    for (const key of foreignKeys)
      await client.query(
        `ALTER TABLE ${SCHEMA}.${quoteIdent(key.table)} ADD CONSTRAINT ${quoteIdent(key.name)} ${key.definition}`,
      );
    for (const name of names) await client.query(`ALTER TABLE ${name} ENABLE TRIGGER USER`);
    await client.query('COMMIT');
    return total;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
