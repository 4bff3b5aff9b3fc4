import type { TranslationRow } from './reader.repo.ts';

/**
 * When a failed block is tried again by itself. Its first retry comes RETRY_BASE_SECONDS after the
 * failure, each further one twice as late, at most RETRY_MAX_SECONDS, each spread by ±25 % so that
 * the pages of one outage do not all come back at the same moment (ReaderRepo.saveFailed computes
 * `retry_at`). It is never given up: no page stays failed for good.
 *
 * A retry happens when a reader asks for the page (getPageData, or the check of an open event
 * stream) and it is due: one conditional UPDATE puts the block back to pending, so however many
 * readers ask at once, one of them starts it, and a dead engine gets one try per block per period.
 * Nobody reading the page: nothing is tried.
 */
export const RETRY_BASE_SECONDS = 15;
export const RETRY_MAX_SECONDS = 600;

/**
 * A failed block may be tried again now: its wait is over, or the engines changed since it failed (an
 * admin saved their settings, or this process started with new ones), or it failed before retries had
 * times at all.
 */
export function isRetryDue(row: TranslationRow, now: Date, enginesChangedAt: Date): boolean {
  if (row.status !== 'failed') return false;
  return row.retry_at === null || row.retry_at <= now || row.updated_at < enginesChangedAt;
}
