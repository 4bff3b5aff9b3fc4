import type { Kysely } from 'kysely';

/**
 * Where each block of a PDF book stands on its pages, for the page view beside the reflow: a JSON
 * array of `{ page, x, y, w, h }` (fractions of the displayed page, see engines/parsers/pdf/pdf-regions.ts),
 * one per page and column piece. NULL: not a PDF, a block without a place (OCR), or parsed before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('book_blocks').addColumn('pdf_regions', 'jsonb').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
