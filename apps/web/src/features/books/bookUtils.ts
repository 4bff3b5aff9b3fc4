import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import type { BookSummary } from '@yidu/shared/books';
import { useAuth } from '../../stores/auth.ts';
import { useTabs } from '../../stores/tabs.ts';
import { useUiLanguage } from '../../i18n/index.ts';
import { otherLanguageName, readingLanguageOptions, uiLanguageInfo } from '../../i18n/languages.ts';

/** The reading language for opening a book: the user's language or, failing that, the UI language (SPEC §2.3). */
export function useReadingLanguage(): string {
  const userLanguage = useAuth((s) => s.user?.languageCode);
  const uiLanguage = useUiLanguage((s) => s.language);
  return userLanguage || uiLanguage;
}

/** Opens a book in the reader: adds (or refreshes) its tab, then goes to /tabs/read/{bookCode}/{language}. */
export function useOpenBook(): (book: Pick<BookSummary, 'bookCode' | 'bookName' | 'coverUrl'>) => void {
  const navigate = useNavigate();
  const language = useReadingLanguage();
  return useCallback(
    (book) => {
      useTabs.getState().addBook({ bookCode: book.bookCode, name: book.bookName, language, cover: book.coverUrl });
      void navigate(`/tabs/read/${encodeURIComponent(book.bookCode)}/${encodeURIComponent(language)}`);
    },
    [navigate, language],
  );
}

/**
 * Language names in the interface language, by code: the 26 reading languages, and the ISO code of a
 * book detected in another language ('he' → Hebrew, 希伯来语).
 */
export function useLanguageNames() {
  const uiLanguage = useUiLanguage((s) => s.language);
  return useMemo(() => {
    const options = readingLanguageOptions(uiLanguage);
    const byCode = new Map(options.map((o) => [o.code.toLowerCase(), o.label]));
    return {
      options,
      nameOf: (code: string | null | undefined): string | null =>
        code ? (byCode.get(code.toLowerCase()) ?? otherLanguageName(uiLanguage, code) ?? code) : null,
    };
  }, [uiLanguage]);
}

/** A short, localized date ("2026年11月22日", "Nov 22, 2026"). */
export function useFormatDate(): (iso: string) => string {
  const uiLanguage = useUiLanguage((s) => s.language);
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(uiLanguageInfo(uiLanguage).bcp47, { dateStyle: 'medium' });
    return (iso: string) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? '' : format.format(date);
    };
  }, [uiLanguage]);
}

/** Grouped numbers in the interface language ("1,234"). */
export function useFormatNumber(): (value: number) => string {
  const uiLanguage = useUiLanguage((s) => s.language);
  return useMemo(() => {
    const format = new Intl.NumberFormat(uiLanguageInfo(uiLanguage).bcp47);
    return (value: number) => format.format(value);
  }, [uiLanguage]);
}

/** Quiet cloth colours for generated covers: [background, ink]. */
const COVER_PALETTE: [string, string][] = [
  ['#7c3a2d', '#f6e7d8'],
  ['#2f4a5a', '#e8eef0'],
  ['#4b5d3a', '#eef0e0'],
  ['#6b4f7a', '#f1e9f3'],
  ['#8a6a2f', '#fbf2dc'],
  ['#3d3a36', '#efe8dc'],
  ['#2d5b57', '#e3f0ec'],
  ['#9a4b3c', '#fbe9e2'],
  ['#34406b', '#e7eaf6'],
  ['#5e4634', '#f4ebe0'],
];

/** A stable colour pair for a title. */
export function coverColors(seed: string): [string, string] {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.codePointAt(0)!) | 0;
  return COVER_PALETTE[Math.abs(hash) % COVER_PALETTE.length]!;
}

/** The upload format shown on a card ("EPUB"). */
export const formatLabel = (format: string) => format.toUpperCase();
