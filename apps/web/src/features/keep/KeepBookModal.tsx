import { useState } from 'react';
import { Alert, App, Button, Modal, Progress, Radio, Select, Space, Spin, Typography } from 'antd';
import { DownloadOutlined, StopOutlined, TranslationOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BookTranslationQuote, BookTranslationStatus, ExportMode } from '@yidu/shared/keep';
import { findLanguage } from '@yidu/shared/languages';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { keepApi } from '../../api/keep.ts';
import { saveBlob } from '../admin/download.ts';
import { useFormatNumber, useLanguageNames } from '../books/bookUtils.ts';
import './keep.css';

/** How often a running translation's progress is fetched. */
const PROGRESS_POLL_MS = 1_500;

export interface KeepBookModalProps {
  open: boolean;
  onClose: () => void;
  bookCode: string;
  bookName: string;
  /** The book's own language: it is not offered as a target. */
  originalLanguage: string | null;
  /** The language chosen first (the reader's language, or the one the book is read in). */
  language: string;
}

/**
 * "A book to keep" (issue 20): translate the whole book in a language — a quote first, confirmed,
 * then its progress with Cancel — and export it as an EPUB (original and translation, or the
 * translation alone). Reached from the book detail popup and the reader's bar.
 */
export function KeepBookModal({ open, onClose, bookCode, bookName, originalLanguage, language }: KeepBookModalProps) {
  const { t } = useTranslation();
  const { options } = useLanguageNames();
  const initial = findLanguage(language)?.code ?? language;
  const [target, setTarget] = useState(initial === originalLanguage ? 'en' : initial);
  const choices = options
    .filter((o) => o.code !== originalLanguage)
    .map((o) => ({ value: o.code, label: o.label === o.native ? o.label : `${o.label} · ${o.native}` }));

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={560}
      destroyOnHidden
      title={t('keep.title', { title: bookName })}
      className="yd-keep-modal"
    >
      <label className="yd-keep-language">
        <span>{t('keep.language')}</span>
        <Select
          value={target}
          onChange={setTarget}
          options={choices}
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 220 }}
          aria-label={t('keep.language')}
        />
      </label>
      <KeepBody key={target} bookCode={bookCode} bookName={bookName} language={target} />
    </Modal>
  );
}

function KeepBody({ bookCode, bookName, language }: { bookCode: string; bookName: string; language: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const formatNumber = useFormatNumber();
  const { nameOf } = useLanguageNames();
  const [quoting, setQuoting] = useState(false);
  const [mode, setMode] = useState<ExportMode>('bilingual');
  const [missing, setMissing] = useState<number | null>(null);
  const statusKey = ['keep', 'status', bookCode, language];

  const status = useQuery({
    queryKey: statusKey,
    queryFn: () => keepApi.status(bookCode, language),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? PROGRESS_POLL_MS : false),
  });
  const quote = useQuery({
    queryKey: ['keep', 'quote', bookCode, language],
    queryFn: () => keepApi.quote(bookCode, language),
    enabled: quoting,
    staleTime: 0,
    gcTime: 0,
  });

  const start = useMutation({
    mutationFn: (points: number) => keepApi.start(bookCode, language, points),
    onSuccess: (next) => {
      queryClient.setQueryData(statusKey, next);
      setQuoting(false);
      setMissing(null);
    },
    onError: (error) => {
      // The price changed since the quote: show the new one to confirm.
      if (error instanceof ApiError && error.key === 'pointsConfirmationRequired') {
        void quote.refetch();
        void message.warning(t('keep.quote.changed'));
        return;
      }
      void message.error(errorMessage(error));
    },
  });
  const cancel = useMutation({
    mutationFn: () => keepApi.cancel(bookCode, language),
    onSuccess: (next) => queryClient.setQueryData(statusKey, next),
    onError: (error) => void message.error(errorMessage(error)),
  });
  const download = useMutation({
    mutationFn: () => keepApi.exportEpub(bookCode, language, mode),
    onSuccess: (blob) => {
      saveBlob(blob, `${bookName} (${nameOf(language) ?? language}).epub`);
      void message.success(t('keep.export.done'));
    },
    onError: (error) => {
      if (error instanceof ApiError && error.key === 'bookNotTranslated') {
        setMissing(typeof error.data?.missingPages === 'number' ? error.data.missingPages : 0);
        return;
      }
      void message.error(errorMessage(error));
    },
  });

  const job = status.data ?? null;
  const running = job?.state === 'running';
  const askQuote = () => {
    setQuoting(true);
    if (quoting) void quote.refetch();
  };

  return (
    <div className="yd-keep">
      <section className="yd-keep-section" aria-label={t('keep.translateAction')}>
        <Typography.Title level={5}>
          <TranslationOutlined /> {t('keep.translateAction')}
        </Typography.Title>
        {status.isPending ? (
          <Spin size="small" />
        ) : running ? (
          <Running job={job} onCancel={() => cancel.mutate()} cancelling={cancel.isPending} />
        ) : quoting ? (
          <QuoteCard
            quote={quote.data}
            loading={quote.isFetching}
            error={quote.error}
            starting={start.isPending}
            onConfirm={(points) => start.mutate(points)}
            onBack={() => setQuoting(false)}
          />
        ) : (
          <>
            {job && <Finished job={job} />}
            {job?.state !== 'done' && (
              <Button type="primary" icon={<TranslationOutlined />} onClick={askQuote}>
                {job ? t('keep.translateRest') : t('keep.translateAction')}
              </Button>
            )}
          </>
        )}
      </section>

      <section className="yd-keep-section" aria-label={t('keep.exportAction')}>
        <Typography.Title level={5}>
          <DownloadOutlined /> {t('keep.exportAction')}
        </Typography.Title>
        <Radio.Group
          value={mode}
          onChange={(e) => setMode(e.target.value as ExportMode)}
          options={[
            { value: 'bilingual', label: t('keep.export.bilingual') },
            { value: 'translated', label: t('keep.export.translated') },
          ]}
          aria-label={t('keep.export.mode')}
        />
        <p className="yd-muted yd-keep-hint">{t('keep.export.hint')}</p>
        {missing !== null && (
          <Alert
            type="info"
            showIcon
            className="yd-keep-missing"
            title={t('keep.export.missing', { pages: formatNumber(missing) })}
            action={
              !running && (
                <Button size="small" type="primary" onClick={askQuote}>
                  {t('keep.translateRest')}
                </Button>
              )
            }
          />
        )}
        <Button icon={<DownloadOutlined />} loading={download.isPending} onClick={() => download.mutate()}>
          {t('keep.export.download')}
        </Button>
      </section>
    </div>
  );
}

function QuoteCard(props: {
  quote: BookTranslationQuote | undefined;
  loading: boolean;
  error: unknown;
  starting: boolean;
  onConfirm: (points: number) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const formatNumber = useFormatNumber();
  const { quote } = props;
  if (props.error) return <Alert type="error" showIcon title={errorMessage(props.error)} />;
  if (!quote || props.loading)
    return (
      <div className="yd-keep-quote is-loading" role="status">
        <Spin size="small" /> <span>{t('keep.quote.loading')}</span>
      </div>
    );
  if (quote.points === 0 && quote.paragraphsToTranslate === 0)
    return <Alert type="success" showIcon title={t('keep.quote.nothing')} />;
  const enough = quote.available >= quote.points;
  return (
    <div className="yd-keep-quote" data-testid="keep-quote">
      <div className="yd-keep-price">
        <strong>{formatNumber(quote.points)}</strong> {t('keep.quote.points')}
      </div>
      <p>
        {quote.cachedCharacters > 0
          ? t('keep.quote.detail', {
              pages: formatNumber(quote.pagesToPay),
              fresh: formatNumber(quote.freshCharacters),
              cached: formatNumber(quote.cachedCharacters),
            })
          : t('keep.quote.detailFresh', {
              pages: formatNumber(quote.pagesToPay),
              fresh: formatNumber(quote.freshCharacters),
            })}
      </p>
      <p className="yd-muted">{t('keep.quote.howCharged')}</p>
      {enough ? (
        <p>{t('keep.quote.balance', { available: formatNumber(quote.available) })}</p>
      ) : (
        <Alert
          type="warning"
          showIcon
          title={t('keep.quote.notEnough', {
            points: formatNumber(quote.points),
            available: formatNumber(quote.available),
          })}
        />
      )}
      <Space className="yd-keep-actions">
        <Button onClick={props.onBack}>{t('common.cancel')}</Button>
        <Button
          type="primary"
          disabled={!enough}
          loading={props.starting}
          onClick={() => props.onConfirm(quote.points)}
        >
          {t('keep.quote.confirm', { points: formatNumber(quote.points) })}
        </Button>
      </Space>
    </div>
  );
}

function Running({
  job,
  onCancel,
  cancelling,
}: {
  job: BookTranslationStatus;
  onCancel: () => void;
  cancelling: boolean;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const formatNumber = useFormatNumber();
  const confirmCancel = () =>
    modal.confirm({
      title: t('keep.progress.cancelTitle'),
      content: t('keep.progress.cancelText'),
      okText: t('keep.progress.cancel'),
      cancelText: t('keep.progress.keepGoing'),
      onOk: onCancel,
    });
  return (
    <div className="yd-keep-progress" data-testid="keep-progress">
      <Progress percent={job.percent} status="active" />
      <p>
        {t('keep.progress.pages', { done: formatNumber(job.pagesDone), total: formatNumber(job.pageCount) })}
        {' · '}
        {t('keep.progress.charged', {
          charged: formatNumber(job.pointsCharged),
          reserved: formatNumber(job.pointsReserved),
        })}
      </p>
      <p className="yd-muted">{t('keep.progress.readMeanwhile')}</p>
      <Button danger icon={<StopOutlined />} loading={cancelling} onClick={confirmCancel}>
        {t('keep.progress.cancel')}
      </Button>
    </div>
  );
}

function Finished({ job }: { job: BookTranslationStatus }) {
  const { t } = useTranslation();
  const formatNumber = useFormatNumber();
  const pages = { done: formatNumber(job.pagesDone), total: formatNumber(job.pageCount) };
  if (job.state === 'done')
    return (
      <Alert
        type="success"
        showIcon
        className="yd-keep-finished"
        title={t('keep.progress.done', { charged: formatNumber(job.pointsCharged) })}
        description={
          job.failedParagraphs > 0
            ? t('keep.progress.failedParagraphs', { n: formatNumber(job.failedParagraphs) })
            : undefined
        }
      />
    );
  if (job.state === 'cancelled')
    return <Alert type="info" showIcon className="yd-keep-finished" title={t('keep.progress.cancelled', pages)} />;
  return (
    <Alert
      type="warning"
      showIcon
      className="yd-keep-finished"
      title={t('keep.progress.failed', pages)}
      description={job.errorKey ? t(`errors.${job.errorKey}`) : undefined}
    />
  );
}
