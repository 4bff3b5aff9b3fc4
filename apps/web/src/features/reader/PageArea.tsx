import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Result, Spin } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PageData } from '@yidu/shared/reader';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { readerApi } from '../../api/reader.ts';
import { isConfirmationRequired } from './paid.tsx';
import { pageQueryKey } from './usePage.ts';

const isInsufficientPoints = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.key === 'insufficientPoints';
const numberIn = (error: ApiError, name: string) => (typeof error.data?.[name] === 'number' ? error.data[name] : 0);

interface PageAreaProps {
  bookCode: string;
  /** The book's own language: its pages in it are free, and shown while a translation is not paid for. */
  originalLanguage: string | null;
  language: string;
  page: number | null;
  data: PageData | undefined;
  error: Error | null;
  onRetry: () => void;
  /** The reader confirmed this page's price; `remember`: not to be asked again for this book. */
  onConfirm: (remember: boolean) => void;
  /** Tries every paragraph whose translation failed again now. */
  onRetryUntranslated: (blockIds: string[]) => void;
  render: (data: PageData) => ReactNode;
}

/**
 * The page of the reader, or what stands before its translation: the price to confirm (confirmation
 * mode) or too few points, each with the original text below, free; or a failure. Above a page with
 * paragraphs whose translation failed for now (they show their original), one quiet line says they
 * will be retried, with a button to retry them all now.
 */
export function PageArea(props: PageAreaProps) {
  const { t } = useTranslation();
  const { bookCode, originalLanguage, language, page, error } = props;
  const [remember, setRemember] = useState(false);
  const needsConfirm = isConfirmationRequired(error);
  const insufficient = isInsufficientPoints(error);
  const showOriginal = (needsConfirm || insufficient) && page !== null && !!originalLanguage;
  const original = useQuery({
    queryKey: pageQueryKey({ bookCode, language: originalLanguage ?? '', page: page ?? 1 }),
    queryFn: ({ signal }) => readerApi.page({ bookCode, language: originalLanguage!, page: page! }, signal),
    enabled: showOriginal && originalLanguage !== language,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const originalText = showOriginal && original.data ? props.render(original.data) : null;

  if (needsConfirm)
    return (
      <>
        <div className="yd-page-confirm" role="group" aria-label={t('reader.paid.title')}>
          <p>
            {t('reader.paid.pageText', {
              points: numberIn(error, 'points'),
              characters: numberIn(error, 'characters'),
            })}
          </p>
          <Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)}>
            {t('reader.paid.remember')}
          </Checkbox>
          <Button type="primary" onClick={() => props.onConfirm(remember)}>
            {t('reader.paid.translate')}
          </Button>
          {originalText && <p className="yd-muted">{t('reader.paid.originalBelow')}</p>}
        </div>
        {originalText}
      </>
    );
  if (insufficient)
    return (
      <>
        <Alert
          className="yd-page-insufficient"
          type="warning"
          showIcon
          message={t('errors.insufficientPoints')}
          description={t('reader.paid.pageInsufficient', {
            points: numberIn(error, 'points'),
            balance: numberIn(error, 'balance'),
          })}
          action={<Button onClick={props.onRetry}>{t('reader.tryAgain')}</Button>}
        />
        {originalText}
      </>
    );
  if (error)
    return (
      <Result
        status="error"
        title={t('reader.pageFailed')}
        subTitle={errorMessage(error)}
        extra={<Button onClick={props.onRetry}>{t('reader.tryAgain')}</Button>}
      />
    );
  if (!props.data)
    return (
      <div className="yd-reader-loading">
        <Spin />
      </div>
    );
  const untranslated = props.data.translated ? props.data.blocks.filter((b) => b.status === 'failed') : [];
  return (
    <>
      {untranslated.length > 0 && (
        <div className="yd-untranslated-notice" role="status">
          <span>{t('reader.untranslated.notice')}</span>
          <Button
            type="link"
            size="small"
            icon={<ReloadOutlined />}
            onClick={() => props.onRetryUntranslated(untranslated.map((b) => b.id))}
          >
            {t('reader.untranslated.retryAll')}
          </Button>
        </div>
      )}
      {props.render(props.data)}
    </>
  );
}
