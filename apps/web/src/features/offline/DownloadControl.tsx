import { lazy, Suspense, useState } from 'react';
import { Button, Tooltip } from 'antd';
import { CloudDownloadOutlined, CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { bookKey } from './store.ts';
import { useDownloadedBooks } from './useDownloads.ts';
import './offline.css';

// Loaded when first opened: the reader's first page comes with less code.
const DownloadDialog = lazy(() => import('./DownloadDialog.tsx').then((m) => ({ default: m.DownloadDialog })));

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
      {open && (
        <Suspense fallback={null}>
          <DownloadDialog bookCode={bookCode} bookName={bookName} language={language} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
