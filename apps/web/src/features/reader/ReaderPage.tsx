import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { booksApi } from '../../api/books.ts';
import { errorMessage } from '../../api/errors.ts';
import { readerApi } from '../../api/reader.ts';
import { bookTabId, useTabs } from '../../stores/tabs.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { isConfirmedForSession } from './paid.tsx';
import { Reader } from './Reader.tsx';
import { pageQueryKey } from './usePage.ts';
import { useReaderSettingsSync } from './useReaderSettingsSync.ts';
import { lastPlaces } from './lastPages.ts';

/**
 * /tabs/read/{bookcode}/{language} (SPEC §2.3): arriving without a tab loads the book, adds and activates
 * a tab; with one, activates it and reloads the book (a failure is an error toast). Title: the book name.
 */
export default function ReaderPage() {
  const { bookcode = '', language = '' } = useParams();
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tabId = bookTabId(bookcode);
  const tab = useTabs((s) => s.tabs.find((x) => x.id === tabId));
  const hadTab = useRef(!!tab);
  const client = useQueryClient();
  const detail = useQuery({
    queryKey: ['readerBook', bookcode, language],
    queryFn: () => booksApi.detail(bookcode, language),
    refetchOnMount: 'always',
    retry: false,
  });
  // The position and its page load while the book does (no waterfall): the reader then finds them cached.
  const position = useQuery({
    queryKey: ['readerPosition', bookcode],
    queryFn: () => readerApi.position(bookcode),
    enabled: !lastPlaces.has(bookcode),
    retry: false,
  });
  const startPage = lastPlaces.get(bookcode)?.page ?? (position.isSuccess ? (position.data?.page ?? 1) : null);
  useEffect(() => {
    if (startPage === null) return;
    const key = { bookCode: bookcode, language, page: startPage };
    const confirm = isConfirmedForSession(bookcode);
    void client
      .prefetchQuery({
        queryKey: pageQueryKey(key),
        queryFn: ({ signal }) => readerApi.page({ ...key, confirm: confirm || undefined }, signal),
        staleTime: 5 * 60_000,
      })
      .catch(() => undefined);
  }, [client, bookcode, language, startPage]);

  useEffect(() => {
    hadTab.current = !!useTabs.getState().tabs.find((x) => x.id === bookTabId(bookcode));
    if (hadTab.current) useTabs.getState().activate(bookTabId(bookcode));
  }, [bookcode, language]);

  useEffect(() => {
    if (!detail.data) return;
    useTabs
      .getState()
      .addBook({ bookCode: bookcode, name: detail.data.bookName, language, cover: detail.data.coverUrl });
  }, [detail.data, bookcode, language]);

  const failure = detail.error;
  useEffect(() => {
    if (failure && hadTab.current) void message.error(failure.message || errorMessage(failure));
  }, [failure, message]);

  usePageTitle(detail.data?.bookName ?? (tab?.kind === 'book' ? tab.book.name : t('reader.loading')), { bare: true });
  useReaderSettingsSync();

  if (detail.data) return <Reader key={`${bookcode}/${language}`} book={detail.data} language={language} />;
  if (detail.isError) {
    return (
      <Result
        status="warning"
        title={t('reader.openFailed')}
        subTitle={errorMessage(detail.error)}
        extra={
          <Button type="primary" onClick={() => void detail.refetch()}>
            {t('reader.tryAgain')}
          </Button>
        }
      />
    );
  }
  return (
    <div className="yd-reader-loading">
      <Spin />
    </div>
  );
}
