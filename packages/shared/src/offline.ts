import { z } from 'zod';
import { PageData } from './reader.ts';

/**
 * Offline reading: a book's pages are kept on the reader's device (IndexedDB) with the translations
 * the reader has already paid for. Downloading charges nothing and translates nothing: a page that is
 * not translated yet, or not paid for by this reader, is left out and listed as missing.
 */
export const OFFLINE_PAGES_PER_CALL = 20;

export const OfflinePagesQuery = z.object({
  bookCode: z.string().min(1).max(40),
  language: z.string().min(1).max(40),
  from: z.coerce.number().int().min(1),
  /** At most OFFLINE_PAGES_PER_CALL pages from `from`; past the last page is cut to it. */
  to: z.coerce.number().int().min(1),
});

export const OfflinePages = z.object({
  pageCount: z.number(),
  /** The pages of the range the reader may keep, each as the reader shows it. */
  pages: z.array(PageData),
  /** Pages of the range left out: translations missing, or not paid for by this reader. */
  missing: z.array(z.number()),
});
export type OfflinePages = z.infer<typeof OfflinePages>;
