import type { HighlightRow } from './integrations.repo.ts';

/** What a highlight says, in both languages: the marked text, and the paragraph in the other language. */
export interface HighlightText {
  /** The marked text as the reader marked it (the whole paragraph when the mark has no quote). */
  quote: string;
  /** The quote's language. */
  quoteLanguage: string;
  /** The paragraph in the other language (its translation, or its original for a mark made in the translation); '' when there is none. */
  other: string;
  otherLanguage: string;
}

/**
 * Both languages of a highlight. `translationReadable`: the reader may see this paragraph's translation
 * (its page is paid for or free); otherwise no translation is given away through an export.
 */
export function highlightText(row: HighlightRow, translationReadable: boolean): HighlightText {
  const original = row.original_language ?? '';
  const reading = row.language ?? '';
  const translation = translationReadable && reading !== original ? (row.translation ?? '') : '';
  if (row.in_translation) {
    return { quote: row.quote || translation, quoteLanguage: reading, other: row.block_text, otherLanguage: original };
  }
  return { quote: row.quote || row.block_text, quoteLanguage: original, other: translation, otherLanguage: reading };
}

/** The Yidu address of a highlight's paragraph: the reader opens that page and brings the paragraph into view. */
export function paragraphLink(
  publicUrl: string,
  row: Pick<HighlightRow, 'book_code' | 'language' | 'page' | 'block_id'> & { id?: string },
  fallbackLanguage: string,
): string {
  const language = row.language ?? fallbackLanguage;
  const query = new URLSearchParams({ page: String(row.page), block: row.block_id });
  if (row.id) query.set('mark', row.id);
  return `${publicUrl}/tabs/read/${encodeURIComponent(row.book_code)}/${encodeURIComponent(language)}?${query}`;
}
