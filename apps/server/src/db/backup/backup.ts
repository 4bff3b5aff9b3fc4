/**
 * Yidu's own logical backup of its database, made while Yidu runs (`npm run admin -- backup FILE`).
 * No pg_dump matches the embedded PostgreSQL 18 on most machines, and Yidu's schema is its
 * migrations, so the backup holds what those cannot make again: the applied migrations' names and
 * every row of our tables, streamed with COPY from one REPEATABLE READ snapshot (one connection, one
 * transaction: a consistent picture however long it takes, without blocking writers).
 */
import { createHmac } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { temporaryNameFor } from '../../engines/storage/disk.ts';
import { appliedMigrations, quoteIdent, SCHEMA, sequencesOf, tablesOf } from './catalog.ts';
import { checksum, END_OF_ROWS, FORMAT_VERSION, line, MAGIC, type BackupHeader, type BackupTrailer } from './format.ts';

/** gzip's level: 6 (its default) makes text a fifth of its size; see bench/backup.ts for the others. */
const GZIP_LEVEL = 6;

export interface BackupSummary {
  file: string;
  migrations: number;
  tables: number;
  rows: number;
  /** Bytes of COPY text before compression. */
  rawBytes: number;
  /** Bytes of the file. */
  fileBytes: number;
  ms: number;
}

/** What tells two app secrets apart without revealing either. */
export function secretFingerprint(secret: string | undefined): string | null {
  return secret
    ? createHmac('sha256', secret).update('yidu-backup-secret-fingerprint').digest('hex').slice(0, 16)
    : null;
}

export async function backupDatabase(options: {
  url: string;
  file: string;
  yiduVersion: string;
  appSecret?: string | undefined;
  /** gzip's level (1-9); GZIP_LEVEL unless a benchmark compares. */
  gzipLevel?: number;
}): Promise<BackupSummary> {
  const started = Date.now();
  const file = path.resolve(options.file);
  // Written beside the target and renamed when complete: a backup cut short (a full disk, Ctrl-C)
  // never stands where a good one is expected.
  const temporary = temporaryNameFor(file);
  const client = new pg.Client({ connectionString: options.url, application_name: 'yidu-backup' });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const migrations = await appliedMigrations(client);
    if (migrations.length === 0) throw new Error('This database holds no Yidu data: it was never migrated.');
    const tables = await tablesOf(client);
    const header: BackupHeader = {
      format: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      yidu: options.yiduVersion,
      postgres: (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version,
      migrations,
      secretFingerprint: secretFingerprint(options.appSecret),
    };

    const hash = checksum();
    const rows: Record<string, number> = {};
    let rawBytes = 0;
    const counted = (data: Buffer): Buffer => {
      hash.update(data);
      rawBytes += data.length;
      return data;
    };
    async function* content(): AsyncGenerator<Buffer> {
      yield counted(Buffer.from(`${MAGIC} ${FORMAT_VERSION}\n`));
      yield counted(Buffer.from(line(header)));
      for (const { table, columns } of tables) {
        yield counted(Buffer.from(line({ table, columns })));
        const copy = client.query(
          copyTo(`COPY ${SCHEMA}.${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) TO STDOUT`),
        );
        for await (const chunk of copy) yield counted(chunk as Buffer);
        rows[table] = copy.rowCount;
        yield counted(Buffer.from(END_OF_ROWS));
      }
      // Read last: every id in the snapshot was handed out before, so no restored id is handed out again.
      const trailer: BackupTrailer = {
        end: true,
        rows,
        sequences: await sequencesOf(client),
        sha256: hash.digest('hex'),
      };
      const last = Buffer.from(line(trailer));
      rawBytes += last.length;
      yield last;
    }
    await pipeline(
      Readable.from(content()),
      createGzip({ level: options.gzipLevel ?? GZIP_LEVEL }),
      createWriteStream(temporary, { flags: 'wx', mode: 0o600 }),
    );
    await client.query('COMMIT');
    await rename(temporary, file);
    return {
      file,
      migrations: migrations.length,
      tables: tables.length,
      rows: Object.values(rows).reduce((a, b) => a + b, 0),
      rawBytes,
      fileBytes: (await stat(file)).size,
      ms: Date.now() - started,
    };
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
