import { useState } from 'react';
import { App, Button, Empty, Input, Segmented, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { DownloadOutlined, RedoOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, type FailedTranslation, type FailedUpload } from '../../api/admin.ts';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useFormatDateTime } from '../account/format.ts';
import { saveBlob } from './download.ts';
import '../books/books.css';
import '../account/account.css';
import './admin.css';

type By = 'username' | 'account';

/** Failed uploads of the matching users, with the original file of each (findUploadByUserName). */
async function loadErrors(by: By, value: string) {
  const report = by === 'username' ? await adminApi.errorsByUsername(value) : await adminApi.errorsByAccount(value);
  const names = [...new Set(report.users.map((u) => u.username))];
  const uploads = (await Promise.all(names.map((n) => adminApi.uploadsOf(n).catch(() => [])))).flat();
  const files = new Map(uploads.map((u) => [u.requestId, u]));
  return { ...report, files };
}

/** /admin-error-book: books whose pipeline failed — stage, error, owner; retry and download the original. */
export default function ErrorBooksPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.errorBooks.title'));
  const { message } = App.useApp();
  const formatDateTime = useFormatDateTime();
  const [by, setBy] = useState<By>('username');
  const [text, setText] = useState('');
  const [search, setSearch] = useState<{ by: By; value: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const report = useQuery({
    queryKey: ['admin', 'errors', search],
    queryFn: () => loadErrors(search!.by, search!.value),
    enabled: search !== null,
    retry: false,
  });
  const owner = (id: number) => report.data?.users.find((u) => u.id === id);

  const retry = async (row: FailedUpload) => {
    setBusy(`retry-${row.requestId}`);
    try {
      await adminApi.retryUpload(row.requestId);
      void message.success(t('admin.errors.retried'));
      void report.refetch();
    } catch (error) {
      void message.error(`${t('admin.errors.retryFailed')}: ${errorMessage(error)}`);
    } finally {
      setBusy(null);
    }
  };
  const download = async (fileId: string, name: string) => {
    setBusy(`file-${fileId}`);
    try {
      saveBlob(await adminApi.download(fileId), name);
    } catch (error) {
      void message.error(`${t('admin.errors.downloadFailed')}: ${errorMessage(error)}`);
    } finally {
      setBusy(null);
    }
  };

  const stageLabel = (stage: string) =>
    t(`books.stageFailed.${stage}`, { defaultValue: t(`books.stage.${stage}`, { defaultValue: stage }) });
  const errorLabel = (key: string | null) => (key ? t(`errors.${key}`, { defaultValue: key }) : '–');
  const noMatch = report.error instanceof ApiError && report.error.key === 'noSuchAccount';

  return (
    <div className="yd-admin-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('pages.errorBooks.title')}</h1>
          <span className="yd-library-count">{t('admin.errors.subtitle')}</span>
        </div>
      </div>
      <div className="yd-panel">
        <form
          className="yd-filter-bar"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) setSearch({ by, value: text.trim() });
          }}
        >
          <Segmented<By>
            value={by}
            onChange={setBy}
            options={[
              { value: 'username', label: t('admin.byUsername') },
              { value: 'account', label: t('admin.byAccount') },
            ]}
          />
          <Space.Compact className="yd-admin-search">
            <Input
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={by === 'username' ? t('admin.usernamePlaceholder') : t('admin.accountPlaceholder')}
              aria-label={by === 'username' ? t('admin.byUsername') : t('admin.byAccount')}
            />
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={report.isFetching}>
              {t('admin.find')}
            </Button>
          </Space.Compact>
        </form>

        {!search ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin.errors.prompt')} />
        ) : report.isError ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={noMatch ? t('admin.noUser') : errorMessage(report.error)}
          />
        ) : (
          <>
            {report.data && (
              <p className="yd-muted">
                {t('admin.errors.matched', {
                  users: report.data.users.map((u) => `${u.username} (${u.account})`).join(', '),
                })}
              </p>
            )}
            <Typography.Title level={5} className="yd-section-title">
              {t('admin.errors.failedUploads')}
            </Typography.Title>
            <Table<FailedUpload>
              rowKey="requestId"
              size="small"
              loading={report.isPending}
              dataSource={report.data?.uploads ?? []}
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              scroll={{ x: 900 }}
              locale={{
                emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin.errors.none')} />,
              }}
              columns={[
                {
                  key: 'book',
                  title: t('admin.errors.book'),
                  render: (_, r) => (
                    <span className="yd-admin-cell-stack">
                      <strong>{r.bookName ?? report.data?.files.get(r.requestId)?.fileName ?? '–'}</strong>
                      {r.bookCode && <span className="yd-muted">{r.bookCode}</span>}
                    </span>
                  ),
                },
                {
                  key: 'stage',
                  title: t('admin.errors.stage'),
                  render: (_, r) => <Tag color="red">{stageLabel(r.stage)}</Tag>,
                },
                {
                  key: 'error',
                  title: t('admin.errors.error'),
                  render: (_, r) => (
                    <span className="yd-admin-cell-stack">
                      <span>{errorLabel(r.errorKey)}</span>
                      {r.errorKey && <code className="yd-muted">{r.errorKey}</code>}
                      {r.detail && (
                        <Typography.Text type="secondary" className="yd-admin-detail" ellipsis={{ tooltip: r.detail }}>
                          {r.detail}
                        </Typography.Text>
                      )}
                    </span>
                  ),
                },
                {
                  key: 'owner',
                  title: t('admin.errors.owner'),
                  render: (_, r) => {
                    const u = owner(r.userId);
                    return u ? `${u.username} (${u.account})` : r.userId;
                  },
                },
                { key: 'at', title: t('admin.errors.time'), render: (_, r) => formatDateTime(r.at) },
                {
                  key: 'actions',
                  title: t('admin.actions'),
                  render: (_, r) => {
                    const file = report.data?.files.get(r.requestId);
                    return (
                      <Space wrap>
                        <Button
                          size="small"
                          icon={<RedoOutlined />}
                          loading={busy === `retry-${r.requestId}`}
                          onClick={() => void retry(r)}
                        >
                          {t('admin.errors.retry')}
                        </Button>
                        <Tooltip title={file ? file.fileName : t('admin.errors.noFile')}>
                          <Button
                            size="small"
                            icon={<DownloadOutlined />}
                            disabled={!file}
                            loading={file ? busy === `file-${file.fileId}` : false}
                            onClick={() => file && void download(file.fileId, file.fileName)}
                          >
                            {t('admin.errors.download')}
                          </Button>
                        </Tooltip>
                      </Space>
                    );
                  },
                },
              ]}
            />
            <Typography.Title level={5} className="yd-section-title yd-admin-spaced">
              {t('admin.errors.failedTranslations')}
            </Typography.Title>
            <Table<FailedTranslation>
              rowKey={(r) => `${r.bookCode}-${r.language}`}
              size="small"
              loading={report.isPending}
              dataSource={report.data?.translations ?? []}
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              scroll={{ x: 640 }}
              locale={{
                emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin.errors.none')} />,
              }}
              columns={[
                { key: 'book', title: t('admin.errors.bookCode'), dataIndex: 'bookCode' },
                { key: 'lang', title: t('admin.errors.language'), dataIndex: 'language' },
                { key: 'blocks', title: t('admin.errors.blocks'), dataIndex: 'blocks', align: 'right' },
                {
                  key: 'error',
                  title: t('admin.errors.error'),
                  render: (_, r) => (
                    <Typography.Text className="yd-admin-detail" ellipsis={{ tooltip: r.error }}>
                      {r.error}
                    </Typography.Text>
                  ),
                },
                { key: 'at', title: t('admin.errors.time'), render: (_, r) => formatDateTime(r.at) },
              ]}
            />
          </>
        )}
      </div>
    </div>
  );
}
