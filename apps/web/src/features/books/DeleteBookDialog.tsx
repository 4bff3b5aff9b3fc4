import { useState } from 'react';
import { Modal, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BookSummary } from '@yidu/shared/books';

interface DeleteBookDialogProps {
  /** The books to delete; null when closed. */
  books: BookSummary[] | null;
  onCancel: () => void;
  /** Runs the deletion; the dialog stays open (busy) until it settles. */
  onConfirm: (keepPublic: boolean) => Promise<void>;
}

/** Whether deleting these books needs the keep-public question: the user uploaded a public one. */
export const asksKeepPublic = (books: BookSummary[]) => books.some((b) => b.isOwner && b.bookStatus === 1);

/**
 * Deleting from the personal library (SPEC §2.4, §6). The uploader of a public book is asked whether
 * to keep the book's info in the public library; anyone else just confirms.
 */
export function DeleteBookDialog({ books, onCancel, onConfirm }: DeleteBookDialogProps) {
  const { t } = useTranslation();
  const [keepPublic, setKeepPublic] = useState(true);
  const [busy, setBusy] = useState(false);
  const list = books ?? [];
  const ask = asksKeepPublic(list);
  const single = list.length === 1 ? list[0] : undefined;

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm(ask ? keepPublic : true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={books !== null}
      title={
        single ? t('books.delete.titleOne', { name: single.bookName }) : t('books.delete.titleMany', { n: list.length })
      }
      okText={t('books.delete.ok')}
      okButtonProps={{ danger: true, loading: busy }}
      cancelText={t('common.cancel')}
      onOk={confirm}
      onCancel={busy ? undefined : onCancel}
      afterOpenChange={(open) => open && setKeepPublic(true)}
      destroyOnHidden
      width={480}
    >
      <Typography.Paragraph type="secondary">
        {single ? t('books.delete.textOne') : t('books.delete.textMany')}
      </Typography.Paragraph>
      {ask && (
        <div className="yd-keep-public" data-testid="keep-public-question">
          <Typography.Paragraph strong>
            {single ? t('books.delete.keepQuestion') : t('books.delete.keepQuestionMany')}
          </Typography.Paragraph>
          <Radio.Group
            value={keepPublic}
            onChange={(event) => setKeepPublic(event.target.value as boolean)}
            className="yd-radio-stack"
            options={[
              { value: true, label: t('books.delete.keepYes') },
              { value: false, label: t('books.delete.keepNo') },
            ]}
          />
        </div>
      )}
    </Modal>
  );
}
