import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Empty, List, Popconfirm, Space, Typography } from 'antd';
import { DeleteOutlined, ReadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { readerPath } from '../../api/reader.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useLanguageNames } from '../books/bookUtils.ts';
import { useTabs } from '../../stores/tabs.ts';
import type { StoredBook } from './db.ts';
import { mediaUrl } from './store.ts';
import { formatBytes, useDownloadedBooks } from './useDownloads.ts';
import './offline.css';

function Cover({ book }: { book: StoredBook }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    void mediaUrl(book.detail.coverUrl).then(setUrl);
  }, [book.detail.coverUrl]);
  return url ? <img src={url} alt="" /> : <span className="yd-downloads-nocover" aria-hidden />;
}

/** /downloads: the books kept on this device for reading offline, what each takes, and removing them. */
export default function DownloadsPage() {
  const { t } = useTranslation();
  usePageTitle(t('offline.pageTitle'));
  const navigate = useNavigate();
  const downloads = useDownloadedBooks();
  const { nameOf } = useLanguageNames();
  const [usage, setUsage] = useState<{ usage?: number; quota?: number }>({});
  const books = Object.values(downloads.books ?? {}).sort((a, b) => b.downloadedAt.localeCompare(a.downloadedAt));
  const total = books.reduce((sum, b) => sum + b.bytes, 0);
  useEffect(() => {
    void navigator.storage
      ?.estimate?.()
      .then(setUsage)
      .catch(() => undefined);
  }, [downloads.books]);

  const open = (book: StoredBook) => {
    useTabs
      .getState()
      .addBook({ bookCode: book.bookCode, name: book.detail.bookName, language: book.language, cover: null });
    void navigate(readerPath(book.bookCode, book.language));
  };

  return (
    <div className="yd-downloads">
      <Typography.Title level={3}>{t('offline.pageTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('offline.pageIntro')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('offline.total', { count: books.length, size: formatBytes(total) })}
        {usage.quota
          ? ` · ${t('offline.quota', { used: formatBytes(usage.usage ?? 0), quota: formatBytes(usage.quota) })}`
          : ''}
      </Typography.Paragraph>
      <List
        loading={downloads.books === undefined}
        dataSource={books}
        locale={{ emptyText: <Empty description={t('offline.none')} /> }}
        renderItem={(book) => (
          <List.Item
            actions={[
              <Button key="open" type="primary" icon={<ReadOutlined />} onClick={() => open(book)}>
                {t('offline.open')}
              </Button>,
              <Popconfirm
                key="remove"
                title={t('offline.removeConfirm')}
                okText={t('offline.remove')}
                cancelText={t('common.cancel')}
                onConfirm={() => void downloads.remove(book.key)}
              >
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('offline.removeBook', { book: book.detail.bookName })}
                >
                  {t('offline.remove')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <div className="yd-downloads-item">
              <Cover book={book} />
              <Space direction="vertical" size={2}>
                <Typography.Text strong>{book.detail.bookName}</Typography.Text>
                <span className="yd-downloads-facts">
                  {t('offline.facts', {
                    pages: book.pages.length,
                    count: book.detail.pageCount,
                    size: formatBytes(book.bytes),
                    language: nameOf(book.language) ?? book.language,
                  })}
                </span>
                {book.missing.length > 0 && (
                  <span className="yd-downloads-facts">{t('offline.missing', { count: book.missing.length })}</span>
                )}
              </Space>
            </div>
          </List.Item>
        )}
      />
    </div>
  );
}
