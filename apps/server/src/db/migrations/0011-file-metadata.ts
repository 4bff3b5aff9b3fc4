import type { Kysely } from 'kysely';

/**
 * What a stored file says about itself (title, author, description, the key of its cover), read once
 * when it is first uploaded (engines/parsers/metadata/metadata.ts). NULL: not read yet (files stored before).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('metadata', 'jsonb').execute();
}
