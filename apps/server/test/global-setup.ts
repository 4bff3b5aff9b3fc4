import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/db/embedded.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { JobQueue } from '../src/jobs/queue.ts';
import { createLogger } from '../src/lib/logger.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection URL to a database on the test server with rights to create databases. */
    pgAdminUrl: string;
    /** A migrated database that each test file clones (CREATE DATABASE ... TEMPLATE). */
    pgTemplate: string;
  }
}

export const TEMPLATE = 'yidu_test_template';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Starts one real PostgreSQL for the whole run (embedded, or TEST_DATABASE_URL), and prepares a
 * migrated template database with the job queue's schema, so each test file gets a fresh copy fast.
 */
export default async function setup(project: TestProject) {
  const logger = createLogger('warn', 'test-db');
  let embedded: EmbeddedServer | undefined;
  let dataDir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-test-pg-'));
    embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), logger, database: 'postgres' });
    adminUrl = embedded.url;
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  await admin.end();

  const templateUrl = withDatabase(adminUrl, TEMPLATE);
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: templateUrl, max: 2 }) }),
  });
  await migrateToLatest(db);
  await db.destroy();
  const queue = new JobQueue(templateUrl, logger, { worker: false });
  await queue.start();
  await queue.stop();

  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', TEMPLATE);

  return async () => {
    await embedded?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
