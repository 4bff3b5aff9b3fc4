import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Builds the document title of SPEC §2.2: '{page title} · {reader name}', or the reader name alone. */
export function documentTitle(appName: string, title?: string | null): string {
  return title ? `${title} · ${appName}` : appName;
}

/** Sets the document title while the page is shown; follows language changes. */
export function usePageTitle(title?: string | null, options: { bare?: boolean } = {}): void {
  const { t } = useTranslation();
  const appName = t('app.name');
  const { bare = false } = options;
  useEffect(() => {
    document.title = bare && title ? title : documentTitle(appName, title);
  }, [appName, title, bare]);
}
