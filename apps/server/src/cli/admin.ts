/**
 * Admin command line: `npm run admin -- <command> [options]`
 *
 *   create  --account <name> --password <password> [--email <email>]   create an admin account
 *   promote --account <name>                                          make an existing user an admin
 *   invite  [--count <n>] [--max-uses <n>] [--days <n>] [--note <text>] mint invitation codes
 *
 * It uses the same configuration as the server (DATA_DIR, DATABASE_URL...). With the embedded
 * database it connects to the running server's PostgreSQL (found through DATA_DIR, whatever its port),
 * or starts it for the moment when no server runs.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { loadConfig } from '../config/env.ts';
import { readOrCreateSecret } from '../config/secret.ts';
import { createServices } from '../context.ts';
import { createDb } from '../db/client.ts';
import { clusterHolder, embeddedUrl, startEmbeddedPostgres } from '../db/embedded.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { OutboxSms } from '../engines/sms/sms.ts';
import { LocalStorage } from '../engines/storage/storage.ts';
import { AppError } from '../http/errors.ts';
import { JobQueue } from '../jobs/queue.ts';
import { createLogger } from '../lib/logger.ts';

const USAGE = `Usage: npm run admin -- <command> [options]
  create  --account <name> --password <password> [--email <email>]
  promote --account <name>
  invite  [--count <n>] [--max-uses <n>] [--days <n>] [--note <text>]`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    account: { type: 'string' },
    password: { type: 'string' },
    email: { type: 'string' },
    count: { type: 'string', default: '1' },
    'max-uses': { type: 'string', default: '1' },
    days: { type: 'string' },
    note: { type: 'string' },
  },
});
const command = positionals[0];
if (!command || !['create', 'promote', 'invite'].includes(command)) {
  console.error(USAGE);
  process.exit(2);
}

const loaded = loadConfig(process.env, 'api');
if (!loaded.ok) {
  console.error(loaded.errors.join('\n'));
  process.exit(1);
}
const config = loaded.config;
const logger = createLogger('warn', 'yidu-admin');
config.appSecret ||= await readOrCreateSecret(config.dataDir, 'app-secret');

let stopEmbedded: (() => Promise<void>) | undefined;
let url = config.databaseUrl;
if (!url) {
  // The running server's database, whatever port it was started on: its postmaster.pid says where it
  // listens. Never stopped from here; started for the moment only when none runs.
  const running = await clusterHolder(config.dataDir);
  if (running?.answers) url = await embeddedUrl(config.dataDir, running.port);
  else {
    const embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPgPort,
      logger,
    }).catch((error: unknown) => {
      console.error((error as Error).message);
      process.exit(1);
    });
    stopEmbedded = embedded.stop;
    url = embedded.url;
  }
}

const { db } = createDb(url, 2);
const queue = new JobQueue(url, logger, { worker: false });
let exitCode = 0;
try {
  await migrateToLatest(db as unknown as Kysely<unknown>);
  await queue.start();
  const services = createServices({
    config,
    db,
    queue,
    logger,
    sms: new OutboxSms(path.join(config.dataDir, 'outbox'), logger),
    storage: new LocalStorage(path.join(config.dataDir, 'files')),
  });

  if (command === 'create') {
    if (!values.account || !values.password) throw new Error('create needs --account and --password');
    const user = await services.auth.createUser({
      account: values.account,
      password: values.password,
      email: values.email,
      role: 'admin',
    });
    console.log(`Admin "${user.account}" created (id ${user.id}).`);
  } else if (command === 'promote') {
    if (!values.account) throw new Error('promote needs --account');
    const user = await db
      .updateTable('users')
      .set({ role: 'admin' })
      .where('account', '=', values.account)
      .returning('id')
      .executeTakeFirst();
    if (!user) throw new Error(`no user with the account "${values.account}"`);
    console.log(`"${values.account}" is now an admin.`);
  } else {
    const admin = await db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .orderBy('id')
      .executeTakeFirst();
    if (!admin) throw new Error('create an admin first');
    const codes = await services.admin.mintInviteCodes(admin.id, {
      count: Number(values.count),
      maxUses: Number(values['max-uses']) || null,
      expiresInDays: values.days ? Number(values.days) : null,
      note: values.note ?? null,
    });
    console.log(codes.join('\n'));
  }
} catch (error) {
  console.error(error instanceof AppError ? `${error.key}: ${error.message}` : (error as Error).message);
  exitCode = 1;
} finally {
  await queue.stop();
  await db.destroy();
  await stopEmbedded?.();
}
process.exit(exitCode);
