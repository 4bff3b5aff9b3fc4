import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useUiLanguage } from '../i18n/index.ts';
import { setAppMessage } from './feedback.ts';
import { theme } from './theme.ts';
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

/** Query client, Ant Design theme and locale (following the interface language), antd App context. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  const antdLocale = useUiLanguage((s) => s.antdLocale);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={antdLocale} theme={theme}>
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
