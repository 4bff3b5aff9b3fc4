import { useState } from 'react';
import { Link } from 'react-router';
import { Avatar, Button, Divider, Popover, Space, Tag, Typography } from 'antd';
import { GiftOutlined, LogoutOutlined, UserOutlined, WalletOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@yidu/shared/auth';
import { isAdmin, useAuth } from '../../stores/auth.ts';
import { useLogout } from './logout.ts';
import { useRenewExpiredMedia } from '../../shell/mediaRenewal.ts';

function displayName(user: UserInfo | null): string {
  return user ? user.nickname || user.username || user.account : '';
}

function UserAvatar({ user, size }: { user: UserInfo | null; size: number }) {
  const name = displayName(user);
  const renewExpired = useRenewExpiredMedia();
  return (
    <Avatar
      size={size}
      src={user?.avatar || undefined}
      onError={() => {
        renewExpired(user?.avatar);
        return true;
      }}
      icon={name ? undefined : <UserOutlined />}
      className="yd-avatar"
    >
      {name ? name.slice(0, 1).toUpperCase() : null}
    </Avatar>
  );
}

/** The user detail in the header: name, points balance, top-up (not available yet), links, logout. */
export function UserInfoContent({ onNavigate }: { onNavigate?: () => void }) {
  const { t, i18n } = useTranslation();
  const user = useAuth((s) => s.user);
  const logout = useLogout();
  const points = user ? new Intl.NumberFormat(i18n.language === 'jp' ? 'ja' : i18n.language).format(user.points) : '–';
  return (
    <div className="yd-user-card">
      <Space align="center" size={12}>
        <UserAvatar user={user} size={44} />
        <div style={{ minWidth: 0 }}>
          <div className="yd-user-name">{displayName(user)}</div>
          {user && <div className="yd-user-account">{user.account}</div>}
        </div>
        {isAdmin(user) && <Tag color="gold">{t('user.admin')}</Tag>}
      </Space>
      <div className="yd-user-points">
        <div>
          <Typography.Text type="secondary">{t('user.pointsBalance')}</Typography.Text>
          <div className="yd-user-points-value" data-testid="points-balance">
            {points}
          </div>
        </div>
        <div className="yd-user-topup">
          <Button size="small" icon={<WalletOutlined />} disabled>
            {t('user.topUp')}
          </Button>
          <Typography.Text type="secondary" className="yd-user-topup-note">
            {t('user.notAvailable')}
          </Typography.Text>
        </div>
      </div>
      <div className="yd-user-links">
        <Link to="/user-settings" onClick={onNavigate}>
          <UserOutlined /> {t('user.personalCenter')}
        </Link>
        <Link to="/integral" onClick={onNavigate}>
          <GiftOutlined /> {t('user.pointsDetails')}
        </Link>
      </div>
      <Divider style={{ margin: '12px 0' }} />
      <Button
        block
        danger
        type="text"
        icon={<LogoutOutlined />}
        onClick={() => {
          onNavigate?.();
          logout();
        }}
      >
        {t('user.logout')}
      </Button>
    </div>
  );
}

export function UserInfoPopover({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const user = useAuth((s) => s.user);
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      content={<UserInfoContent onNavigate={() => setOpen(false)} />}
      arrow={false}
    >
      <Button type="text" className="yd-user-trigger" aria-label={t('user.accountMenu')}>
        <UserAvatar user={user} size={28} />
        {!compact && <span className="yd-user-trigger-name">{displayName(user)}</span>}
      </Button>
    </Popover>
  );
}
