import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001-accounts.ts';
import * as m0002 from './migrations/0002-books.ts';
import * as m0003 from './migrations/0003-translation.ts';
import * as m0004 from './migrations/0004-ai.ts';
import * as m0005 from './migrations/0005-engine-settings.ts';
import * as m0006 from './migrations/0006-glossary.ts';
import * as m0007 from './migrations/0007-reading.ts';
import * as m0008 from './migrations/0008-sharing-feedback.ts';
import * as m0009 from './migrations/0009-audit.ts';
import * as m0010 from './migrations/0010-access-events.ts';
import * as m0011 from './migrations/0011-file-metadata.ts';
import * as m0012 from './migrations/0012-upload-claims.ts';
import * as m0013 from './migrations/0013-points-holds.ts';
import * as m0014 from './migrations/0014-passage-search.ts';
import * as m0015 from './migrations/0015-setup-ai-models-health.ts';
import * as m0016 from './migrations/0016-translation-retry-backoff.ts';
import * as m0017words from './migrations/0017-words-to-learn.ts';
import * as m0018 from './migrations/0018-whole-book-translations.ts';
import * as m0019 from './migrations/0019-consistent-translation.ts';
import * as m0027 from './migrations/0027-fit-names.ts';
import * as m0025 from './migrations/0025-ereaders.ts';
import * as m0026 from './migrations/0026-offline-and-integrations.ts';
import * as m0024 from './migrations/0024-reading-place-uploads.ts';
import * as m0020 from './migrations/0020-pdf-regions.ts';
import * as m0021 from './migrations/0021-pdf-page-index.ts';
import * as m0022 from './migrations/0022-book-contents.ts';
import * as m0028 from './migrations/0028-pending-crops.ts';

/** Forward-only migrations, applied in name order at boot. Add new ones to this list. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-books': m0002,
  '0003-translation': m0003,
  '0004-ai': m0004,
  '0005-engine-settings': m0005,
  '0006-glossary': m0006,
  '0007-reading': m0007,
  '0008-sharing-feedback': m0008,
  '0009-audit': m0009,
  '0010-access-events': m0010,
  '0011-file-metadata': m0011,
  '0012-upload-claims': m0012,
  '0013-points-holds': m0013,
  '0014-passage-search': m0014,
  '0015-setup-ai-models-health': m0015,
  '0016-translation-retry-backoff': m0016,
  '0017-words-to-learn': m0017words,
  '0018-whole-book-translations': m0018,
  '0019-consistent-translation': m0019,
  '0027-fit-names': m0027,
  '0025-ereaders': m0025,
  '0026-offline-and-integrations': m0026,
  '0024-reading-place-uploads': m0024,
  '0020-pdf-regions': m0020,
  '0021-pdf-page-index': m0021,
  '0022-book-contents': m0022,
  '0028-pending-crops': m0028,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** The table where applied migrations are recorded. */
export const MIGRATION_TABLE = 'yidu_migrations';

export async function migrateToLatest(db: Kysely<unknown>, chosen: MigrationProvider = provider): Promise<string[]> {
  // Unordered: migrations are written on parallel branches and each stands alone; a database that
  // has a later one already still gets an earlier one merged after it.
  const migrator = new Migrator({
    db,
    provider: chosen,
    migrationTableName: MIGRATION_TABLE,
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations this version of Yidu knows, by name. */
export function knownMigrations(): string[] {
  return Object.keys(MIGRATIONS).sort();
}

/**
 * Applies these migrations and no others (a backup's schema: see db/backup/restore.ts); every name
 * must be known.
 */
export async function migrateOnly(db: Kysely<unknown>, names: string[]): Promise<string[]> {
  const chosen: Record<string, Migration> = {};
  for (const name of names) {
    const migration = MIGRATIONS[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    chosen[name] = migration;
  }
  return migrateToLatest(db, { getMigrations: async () => chosen });
}
