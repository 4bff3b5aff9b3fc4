import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Modal, Progress, Space, Tooltip, Typography } from 'antd';
import { CloudDownloadOutlined, CheckCircleFilled, DeleteOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { bookKey } from './store.ts';
import { formatBytes, useDownloadedBooks } from './useDownloads.ts';
import './offline.css';

interface DownloadControlProps {
  bookCode: string;
  bookName: string;
  language: string;
  /** `icon`: the reader bar's icon button; `button`: a labelled button (book detail). */
  variant: 'icon' | 'button';
}

/**
 * "Download for offline": keeps the book's pages (with the translations already paid for), pictures
 * and marks on the device; shows what is kept and its size, and removes it. Its accessible name says
 * 离线 / offline in every state, so screen readers find it.
 */
export function DownloadControl({ bookCode, bookName, language, variant }: DownloadControlProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const downloads = useDownloadedBooks();
  const key = bookKey(bookCode, language);
  const book = downloads.books?.[key];
  const progress = downloads.running[key];
  const error = downloads.errors[key];
  const label = progress ? t('offline.downloading') : book ? t('offline.downloaded') : t('offline.download');
  const icon = book && !progress ? <CheckCircleFilled /> : <CloudDownloadOutlined />;

  return (
    <>
      {variant === 'icon' ? (
        <Tooltip title={label}>
          <Button
            type="text"
            icon={icon}
            aria-label={label}
            className={book ? 'yd-offline-kept' : undefined}
            onClick={() => setOpen(true)}
          />
        </Tooltip>
      ) : (
        <Button icon={icon} aria-label={label} onClick={() => setOpen(true)}>
          {label}
        </Button>
      )}
      <Modal
        open={open}
        title={t('offline.title', { book: bookName })}
        onCancel={() => setOpen(false)}
        footer={null}
        destroyOnHidden
      >
        <div className="yd-offline-panel">
          <Typography.Paragraph type="secondary">{t('offline.explain')}</Typography.Paragraph>
          {progress && (
            <div role="status">
              <Progress
                percent={progress.pageCount ? Math.round((progress.pagesDone / progress.pageCount) * 100) : 0}
                status="active"
              />
              <Typography.Text>
                {t('offline.progress', { done: progress.pagesDone, count: progress.pageCount, size: formatBytes(progress.bytes) })}
              </Typography.Text>
            </div>
          )}
          {book && !progress && (
            <div role="status" className="yd-offline-kept-facts">
              <CheckCircleFilled className="yd-offline-ok" />{' '}
              {t('offline.kept', { pages: book.pages.length, size: formatBytes(book.bytes) })}
              {book.missing.length > 0 && (
                <Typography.Paragraph type="secondary">{t('offline.missing', { count: book.missing.length })}</Typography.Paragraph>
              )}
            </div>
          )}
          {error && <Alert type="error" showIcon message={error} />}
          <Space wrap>
            <Button
              type="primary"
              icon={book ? <SyncOutlined /> : <CloudDownloadOutlined />}
              loading={!!progress}
              onClick={() => void downloads.download(bookCode, language)}
            >
              {book ? t('offline.update') : t('offline.start')}
            </Button>
            {book && !progress && (
              <Button danger icon={<DeleteOutlined />} onClick={() => void downloads.remove(key)}>
                {t('offline.remove')}
              </Button>
            )}
            <Link to="/downloads" onClick={() => setOpen(false)}>
              {t('offline.allDownloads')}
            </Link>
          </Space>
        </div>
      </Modal>
    </>
  );
}
