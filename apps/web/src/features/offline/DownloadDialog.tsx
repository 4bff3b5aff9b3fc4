import { Link } from 'react-router';
import { Alert, Button, Modal, Progress, Space, Typography } from 'antd';
import { CloudDownloadOutlined, CheckCircleFilled, DeleteOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { bookKey } from './store.ts';
import { formatBytes, useDownloadedBooks } from './useDownloads.ts';

/** What is kept of a book on this device, its size; downloading, updating and removing it. */
export function DownloadDialog({
  bookCode,
  bookName,
  language,
  onClose,
}: {
  bookCode: string;
  bookName: string;
  language: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const downloads = useDownloadedBooks();
  const key = bookKey(bookCode, language);
  const book = downloads.books?.[key];
  const progress = downloads.running[key];
  const error = downloads.errors[key];
  const setOpen = (open: boolean) => !open && onClose();
  return (
    <Modal
      open
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
              {t('offline.progress', {
                done: progress.pagesDone,
                count: progress.pageCount,
                size: formatBytes(progress.bytes),
              })}
            </Typography.Text>
          </div>
        )}
        {book && !progress && (
          <div role="status" className="yd-offline-kept-facts">
            <CheckCircleFilled className="yd-offline-ok" />{' '}
            {t('offline.kept', { pages: book.pages.length, size: formatBytes(book.bytes) })}
            {book.missing.length > 0 && (
              <Typography.Paragraph type="secondary">
                {t('offline.missing', { count: book.missing.length })}
              </Typography.Paragraph>
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
  );
}
