import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, type Role } from './config/env.ts';
import { boot } from './boot.ts';
import { createLogger } from './lib/logger.ts';

const ROLES: Role[] = ['api', 'worker', 'all'];

function parseRole(argv: string[]): Role {
  const arg = argv.find((a) => a.startsWith('--role='))?.slice('--role='.length) ?? process.env.ROLE ?? 'all';
  if (!ROLES.includes(arg as Role)) {
    console.error(`Unknown role "${arg}": use --role=api, --role=worker or --role=all.`);
    process.exit(2);
  }
  return arg as Role;
}

const version = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as { version: string }
).version;
const loaded = loadConfig(process.env, parseRole(process.argv.slice(2)), version);
if (!loaded.ok) {
  console.error('Yidu cannot start: the configuration has problems.');
  for (const error of loaded.errors) console.error(`  - ${error}`);
  console.error('See the configuration table in README.md.');
  process.exit(1);
}
const config = loaded.config;
const logger = createLogger(config.logLevel);

let running: Awaited<ReturnType<typeof boot>>;
try {
  running = await boot(config, logger);
} catch (error) {
  logger.fatal({ err: error }, 'Yidu failed to start');
  process.exit(1);
}

if (running.app) {
  await running.app.listen({ port: config.port, host: config.host });
  logger.info(`Yidu is running on ${config.publicUrl} (role ${config.role}, data in ${config.dataDir})`);
} else {
  logger.info(`Yidu worker running (data in ${config.dataDir})`);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    logger.error('shutdown took too long; exiting');
    process.exit(1);
  }, 30_000);
  force.unref();
  await running.stop();
  logger.info('stopped cleanly');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
