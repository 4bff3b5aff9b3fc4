/**
 * `npm run admin -- backup FILE` and `restore FILE [--force]` (see db/backup/). The admin CLI hands
 * over the database it found (the running server's, the embedded one started for the moment, or
 * DATABASE_URL) before it migrates anything: a restore builds the schema itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/env.ts';
import { backupDatabase, secretFingerprint } from '../db/backup/backup.ts';
import { BackupFileError } from '../db/backup/format.ts';
import { restoreDatabase, RestoreRefused, type RestoreStep } from '../db/backup/restore.ts';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function yiduVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../../../package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** What else a restore needs besides the database, in the words of this deployment. */
function filesReminder(config: Config): string {
  const files = config.s3
    ? `The files (books, images, covers) are in the S3 bucket "${config.s3.bucket}": they are not in this backup.`
    : `The files (books, images, covers, avatars) are not in it: copy ${path.resolve(config.dataDir, 'files')} as well (after this backup, so that every file it names is there).`;
  const secret = process.env.APP_SECRET
    ? 'Keep your APP_SECRET with it.'
    : `Keep ${path.resolve(config.dataDir, 'app-secret')} with it: without it the stored engine and AI model keys cannot be read.`;
  return `${files}\n${secret}`;
}

const RESTORE_STEPS: Record<RestoreStep, string> = {
  checking: 'Checking the whole backup file',
  schema: "Building the backup's schema",
  loading: 'Loading the rows',
  indexing: 'Building the indexes and checking the foreign keys',
  migrating: 'Applying the migrations added since',
  analyzing: 'Gathering statistics for the planner',
};

/** Runs the command; returns the process's exit code. */
export async function runBackupCommand(
  command: 'backup' | 'restore',
  options: { url: string; file: string | undefined; force: boolean; config: Config },
): Promise<number> {
  const { config } = options;
  if (!options.file) {
    console.error(`${command} needs a file: npm run admin -- ${command} FILE`);
    return 2;
  }
  try {
    if (command === 'backup') {
      const done = await backupDatabase({
        url: options.url,
        file: options.file,
        yiduVersion: yiduVersion(),
        appSecret: config.appSecret,
      });
      console.log(
        `Database saved to ${done.file}: ${done.tables} tables, ${done.rows} rows, ${mb(done.fileBytes)} (${mb(done.rawBytes)} of data) in ${seconds(done.ms)}.`,
      );
      console.log(filesReminder(config));
      return 0;
    }
    const done = await restoreDatabase({
      url: options.url,
      file: options.file,
      force: options.force,
      // A large restore takes minutes: say what it is doing.
      onStep: (step) => console.log(`${RESTORE_STEPS[step]}…`),
    });
    const { header } = done.contents;
    console.log(
      `Restored the backup of ${header.createdAt} (Yidu ${header.yidu}): ${done.contents.tables.length} tables, ${done.rows} rows, in ${seconds(done.ms)}.`,
    );
    if (done.migratedSince.length) console.log(`Migrated since: ${done.migratedSince.join(', ')}.`);
    if (header.secretFingerprint && header.secretFingerprint !== secretFingerprint(config.appSecret)) {
      console.warn(
        `The backup was made with another app secret than ${process.env.APP_SECRET ? 'APP_SECRET' : path.resolve(config.dataDir, 'app-secret')}: put the old one in its place (or set APP_SECRET as before) before starting Yidu, or re-enter the engine and AI model keys.`,
      );
    }
    if (!config.s3)
      console.log(`Copy the backed-up files into ${path.resolve(config.dataDir, 'files')} before starting Yidu.`);
    return 0;
  } catch (error) {
    if (error instanceof BackupFileError || error instanceof RestoreRefused) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}
