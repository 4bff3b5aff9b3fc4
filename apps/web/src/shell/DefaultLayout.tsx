import { Suspense, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Button, Drawer, Grid, Layout, Menu, type MenuProps } from 'antd';
import {
  BarChartOutlined,
  BookOutlined,
  CheckSquareOutlined,
  CloudDownloadOutlined,
  CloudUploadOutlined,
  RobotOutlined,
  DollarOutlined,
  FileSearchOutlined,
  FlagOutlined,
  GiftOutlined,
  KeyOutlined,
  MenuOutlined,
  MessageOutlined,
  ReadOutlined,
  SettingOutlined,
  TeamOutlined,
  ToolOutlined,
  TranslationOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isAdmin, useAuth } from '../stores/auth.ts';
import { Logo } from './Logo.tsx';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { PageFallback } from './PageFallback.tsx';
import { SetupBanner } from './SetupBanner.tsx';
import { UserInfoPopover } from '../features/account/UserInfoPopover.tsx';
import { OfflineBanner } from '../features/offline/OfflineBanner.tsx';

type MenuItem = Required<MenuProps>['items'][number];

/** Nav entries, longest paths matched first for the selected state. */
const NAV_PATHS = [
  '/books/all',
  '/books/user',
  '/book/upload',
  '/tabs/new',
  '/vocabulary',
  '/integral',
  '/bug',
  '/downloads',
  '/admin/statistics',
  '/admin-error-book',
  '/admin22/tongji',
  '/admin/test',
  '/admin/translation-reports',
];

function useNavItems(): MenuItem[] {
  const { t } = useTranslation();
  const user = useAuth((s) => s.user);
  const items: MenuItem[] = [
    { key: '/books/all', icon: <BookOutlined />, label: <Link to="/books/all">{t('nav.publicLibrary')}</Link> },
    { key: '/books/user', icon: <ReadOutlined />, label: <Link to="/books/user">{t('nav.myLibrary')}</Link> },
    { key: '/book/upload', icon: <CloudUploadOutlined />, label: <Link to="/book/upload">{t('nav.upload')}</Link> },
    { key: '/vocabulary', icon: <FileSearchOutlined />, label: <Link to="/vocabulary">{t('nav.vocabulary')}</Link> },
    { key: '/integral', icon: <GiftOutlined />, label: <Link to="/integral">{t('nav.points')}</Link> },
    { key: '/bug', icon: <MessageOutlined />, label: <Link to="/bug">{t('nav.feedback')}</Link> },
    { key: '/downloads', icon: <CloudDownloadOutlined />, label: <Link to="/downloads">{t('offline.nav')}</Link> },
  ];
  if (isAdmin(user)) {
    items.push({
      key: 'admin',
      icon: <SettingOutlined />,
      label: t('nav.admin'),
      children: [
        {
          key: '/admin/statistics',
          icon: <BarChartOutlined />,
          label: <Link to="/admin/statistics">{t('nav.statistics')}</Link>,
        },
        {
          key: '/admin-error-book',
          icon: <WarningOutlined />,
          label: <Link to="/admin-error-book">{t('nav.errorBooks')}</Link>,
        },
        {
          key: '/admin22/tongji',
          icon: <BarChartOutlined />,
          label: <Link to="/admin22/tongji">{t('nav.tongji')}</Link>,
        },
        {
          key: '/admin/test?tab=setup',
          icon: <CheckSquareOutlined />,
          label: <Link to="/admin/test?tab=setup">{t('nav.setup')}</Link>,
        },
        {
          key: '/admin/translation-reports',
          icon: <FlagOutlined />,
          label: <Link to="/admin/translation-reports">{t('nav.translationReports')}</Link>,
        },
        { key: '/admin/test', icon: <ToolOutlined />, label: <Link to="/admin/test">{t('nav.test')}</Link> },
        {
          key: '/admin/test?tab=users',
          icon: <TeamOutlined />,
          label: <Link to="/admin/test?tab=users">{t('nav.adminUsers')}</Link>,
        },
        {
          key: '/admin/test?tab=invites',
          icon: <KeyOutlined />,
          label: <Link to="/admin/test?tab=invites">{t('nav.invites')}</Link>,
        },
        {
          key: '/admin/test?tab=engines',
          icon: <TranslationOutlined />,
          label: <Link to="/admin/test?tab=engines">{t('nav.engines')}</Link>,
        },
        {
          key: '/admin/test?tab=ai',
          icon: <RobotOutlined />,
          label: <Link to="/admin/test?tab=ai">{t('nav.aiModels')}</Link>,
        },
        {
          key: '/admin/test?tab=prices',
          icon: <DollarOutlined />,
          label: <Link to="/admin/test?tab=prices">{t('nav.prices')}</Link>,
        },
      ],
    });
  }
  return items;
}

/** The frame of the signed-in pages: top bar (logo, nav, language, user) and the page below. */
export function DefaultLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const screens = Grid.useBreakpoint();
  const compact = screens.lg === false;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const token = useAuth((s) => s.token);
  const items = useNavItems();
  const selected = NAV_PATHS.filter((p) => location.pathname.startsWith(p));

  return (
    <Layout className="yd-app">
      <Layout.Header className="yd-header">
        {compact && (
          <Button
            type="text"
            icon={<MenuOutlined />}
            aria-label={t('nav.menu')}
            onClick={() => setDrawerOpen(true)}
            className="yd-header-menu-button"
          />
        )}
        <Logo to={token ? '/books/all' : '/'} />
        {!compact && (
          <Menu
            className="yd-header-nav"
            mode="horizontal"
            items={items}
            selectedKeys={selected}
            disabledOverflow={false}
          />
        )}
        <div className="yd-header-right">
          <LanguageSwitcher compact={compact} />
          {token ? (
            <UserInfoPopover compact={screens.sm === false} />
          ) : (
            <Link to="/login">
              <Button type="primary">{t('nav.login')}</Button>
            </Link>
          )}
        </div>
      </Layout.Header>
      {compact && (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement="left"
          size={280}
          title={<Logo to={token ? '/books/all' : '/'} />}
          styles={{ body: { padding: 8 } }}
        >
          <Menu
            mode="inline"
            items={items}
            selectedKeys={selected}
            defaultOpenKeys={['admin']}
            onClick={() => setDrawerOpen(false)}
            style={{ borderInlineEnd: 'none' }}
          />
        </Drawer>
      )}
      <SetupBanner />
      <OfflineBanner />
      <Layout.Content className="yd-content">
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
    </Layout>
  );
}
