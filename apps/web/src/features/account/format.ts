import { useMemo } from 'react';
import { useUiLanguage } from '../../i18n/index.ts';
import { uiLanguageInfo } from '../../i18n/languages.ts';

/** Date and time in the interface language ("2026/11/22 14:05", "Nov 22, 2026, 2:05 PM"). */
export function useFormatDateTime(): (iso: string | null | undefined) => string {
  const uiLanguage = useUiLanguage((s) => s.language);
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(uiLanguageInfo(uiLanguage).bcp47, {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    return (iso) => {
      if (!iso) return '–';
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? '–' : format.format(date);
    };
  }, [uiLanguage]);
}
