/** The last page seen per book in this session, so that switching tabs shows it at once. */
export const lastPages = new Map<string, number>();
