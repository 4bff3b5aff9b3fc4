import { Button, Modal, Progress } from 'antd';
import { StopOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import type { UploadCount } from '@yidu/shared/books';

/** Whether today's or this month's uploads from this IP reached the limit (SPEC §9). */
export const limitReached = (counts: UploadCount | undefined) =>
  !!counts && (counts.today >= counts.dailyLimit || counts.thisMonth >= counts.monthlyLimit);

/** The 'Upload Limit Reached' modal (SPEC §2.4): counts, limits, the trial notice and the contact address. */
export function LimitModal({
  counts,
  open,
  onClose,
}: {
  counts: UploadCount | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  if (!counts) return null;
  const rows = [
    { label: t('books.limit.today'), used: counts.today, limit: counts.dailyLimit },
    { label: t('books.limit.thisMonth'), used: counts.thisMonth, limit: counts.monthlyLimit },
  ];
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={
        <span className="yd-limit-title">
          <StopOutlined /> {t('books.limit.title')}
        </span>
      }
      footer={
        <div className="yd-modal-footer">
          <Link to="/books/user">
            <Button>{t('books.limit.toLibrary')}</Button>
          </Link>
          <Button type="primary" onClick={onClose}>
            {t('books.limit.ok')}
          </Button>
        </div>
      }
      width={460}
      className="yd-limit-modal"
    >
      <div className="yd-limit-rows">
        {rows.map((row) => (
          <div key={row.label} className="yd-limit-row">
            <div className="yd-limit-row-head">
              <span>{row.label}</span>
              <strong>{t('books.limit.usage', { used: row.used, limit: row.limit })}</strong>
            </div>
            <Progress
              percent={row.limit > 0 ? Math.min(100, (row.used / row.limit) * 100) : 100}
              showInfo={false}
              status={row.used >= row.limit ? 'exception' : 'normal'}
              strokeColor={row.used >= row.limit ? undefined : 'var(--yd-accent)'}
              size="small"
            />
          </div>
        ))}
      </div>
      <p className="yd-limit-notice">{t('books.limit.trial')}</p>
      <p className="yd-muted">
        <Trans
          i18nKey="books.limit.contact"
          values={{ email: counts.contactEmail }}
          components={{ mail: <a href={`mailto:${counts.contactEmail}`} /> }}
        />
      </p>
    </Modal>
  );
}
