import { useEffect, useMemo, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useUiLanguage } from '../i18n/index.ts';
import { setAppMessage } from './feedback.ts';
import { theme } from './theme.ts';
import { useMediaQuery } from './useMediaQuery.ts';
import { ApiError } from '../api/client.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Client errors (4xx) will not get better by retrying.
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/** Hands the antd App's message instance to code outside components. */
function FeedbackBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setAppMessage(message), [message]);
  return null;
}

/**
 * Query client, Ant Design theme and locale (following the interface language), antd App context.
 * A reader who asked their system for less motion gets dialogs, drawers and messages that appear
 * without zooming or sliding (antd's motion off; the reader's own CSS follows the same query).
 */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  const antdLocale = useUiLanguage((s) => s.antdLocale);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const appTheme = useMemo(
    () => (reducedMotion ? { ...theme, token: { ...theme.token, motion: false } } : theme),
    [reducedMotion],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={antdLocale} theme={appTheme}>
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
