/** Where a reader is in a book: the page, the paragraph at the top of the view and how far into it (0..1). */
export interface Place {
  page: number;
  blockId: string | null;
  blockOffset: number | null;
}

/**
 * The last place seen per book in this session, so that switching tabs, or the reading language
 * (another reader is mounted), shows it at once.
 */
export const lastPlaces = new Map<string, Place>();
