import { lazy, Suspense, useState } from 'react';
import { Button, Tooltip } from 'antd';
import { CloudDownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { KeepBookModalProps } from './KeepBookModal.tsx';

const KeepBookModal = lazy(() => import('./KeepBookModal.tsx').then((m) => ({ default: m.KeepBookModal })));

/** The "translate whole book / export EPUB" dialog, loaded the first time it is opened. */
export function KeepBookDialog(props: KeepBookModalProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <KeepBookModal {...props} />
    </Suspense>
  );
}

/** The reader bar's entry to the same dialog, for the book and language being read. */
export function KeepBookButton(props: Omit<KeepBookModalProps, 'open' | 'onClose'>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('keep.open')}>
        <Button
          type="text"
          icon={<CloudDownloadOutlined />}
          aria-label={t('keep.open')}
          onClick={() => setOpen(true)}
        />
      </Tooltip>
      <KeepBookDialog {...props} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
