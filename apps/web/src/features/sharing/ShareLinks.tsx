import { Button, Empty, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import { CopyOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Share } from '@yidu/shared/social';
import { useFormatDate } from '../books/bookUtils.ts';

export const STATE_COLORS: Record<Share['state'], string> = { active: 'green', expired: 'orange', revoked: 'default' };

interface ShareLinksProps {
  shares: Share[] | undefined;
  loading: boolean;
  /** Show the book title on each row (the list of all links). */
  showBook?: boolean;
  onCopy: (share: Share) => void;
  onRevoke: (share: Share) => Promise<void>;
  emptyText: string;
}

/** A sharer's links: features, state, accepted count, expiry, with copy and revoke. */
export function ShareLinks({ shares, loading, showBook = false, onCopy, onRevoke, emptyText }: ShareLinksProps) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  if (loading) return <Skeleton active paragraph={{ rows: 3 }} title={false} />;
  if (!shares?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  return (
    <ul className="yd-share-list">
      {shares.map((share) => (
        <li key={share.id} className="yd-share-row" data-testid={`share-${share.id}`} data-state={share.state}>
          <div className="yd-share-row-main">
            {showBook && <div className="yd-share-row-book">{share.bookName}</div>}
            <div className="yd-share-row-features">
              {share.features.length ? (
                share.features.map((f) => (
                  <Tag key={f} variant="filled" color="orange">
                    {t(`share.feature.${f}`)}
                  </Tag>
                ))
              ) : (
                <Typography.Text type="secondary">{t('share.noFeatures')}</Typography.Text>
              )}
            </div>
            <div className="yd-share-row-meta">
              <Tag color={STATE_COLORS[share.state]}>{t(`share.state.${share.state}`)}</Tag>
              <span>{t('share.acceptedCount', { n: share.accepted })}</span>
              <span>
                {share.expiresAt
                  ? t('share.expiresOn', { date: formatDate(share.expiresAt) })
                  : t('share.neverExpires')}
              </span>
              <span>{t('share.createdOn', { date: formatDate(share.createdAt) })}</span>
            </div>
          </div>
          <div className="yd-share-row-actions">
            <Button icon={<CopyOutlined />} onClick={() => onCopy(share)} disabled={share.state !== 'active'}>
              {t('share.copy')}
            </Button>
            {share.state === 'active' && (
              <Popconfirm
                title={t('share.revokeTitle')}
                description={t('share.revokeText')}
                okText={t('share.revoke')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => onRevoke(share)}
              >
                <Button danger icon={<StopOutlined />}>
                  {t('share.revoke')}
                </Button>
              </Popconfirm>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
