import { Suspense } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { Button, Tabs } from 'antd';
import { ArrowLeftOutlined, CloseOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { NEW_TAB, useTabs } from '../../stores/tabs.ts';
import { useAuth } from '../../stores/auth.ts';
import { useUiLanguage } from '../../i18n/index.ts';
import { findLanguage } from '@yidu/shared/languages';
import { LanguageSwitcher } from '../../shell/LanguageSwitcher.tsx';
import { PageFallback } from '../../shell/PageFallback.tsx';
import { UserInfoPopover } from '../account/UserInfoPopover.tsx';
import { readerPath } from '../../api/reader.ts';
import { useTabsSync } from './useTabsSync.ts';
import { ReaderTheme } from './ReaderTheme.tsx';
import { useMediaQuery } from '../../shell/useMediaQuery.ts';
import { OfflineBanner } from '../offline/OfflineBanner.tsx';
import './reader.css';

/** The reader shell (SPEC §2.3): the permanent New Tab plus one tab per open book. */
export default function TabsLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { tabs, activeId, remove } = useTabs();
  const userLanguage = useAuth((s) => s.user?.languageCode);
  const uiLanguage = useUiLanguage((s) => s.language);
  const targetLanguage = userLanguage ?? findLanguage(uiLanguage)?.code ?? uiLanguage;
  useTabsSync();

  const go = (id: string) => {
    const tab = tabs.find((x) => x.id === id);
    if (!tab || tab.kind === 'newtab') void navigate('/tabs/new');
    else void navigate(readerPath(tab.book.bookCode, tab.book.language || targetLanguage));
  };

  const reading = pathname.startsWith('/tabs/read/');
  const phone = useMediaQuery('(max-width: 640px)');
  return (
    <ReaderTheme reading={reading}>
      <div className="yd-tabs-shell">
        <div className="yd-tabs-bar">
          <Link to="/books/user" aria-label={t('tabs.backToLibrary')} title={t('tabs.backToLibrary')}>
            <Button type="text" icon={<ArrowLeftOutlined />} />
          </Link>
          <Tabs
            className="yd-tabs"
            type="editable-card"
            size="small"
            activeKey={activeId}
            onChange={go}
            hideAdd
            removeIcon={<CloseOutlined aria-label={t('tabs.close')} />}
            onEdit={(key, action) => {
              if (action === 'remove' && typeof key === 'string') {
                const wasActive = key === activeId;
                remove(key);
                if (wasActive) go(useTabs.getState().activeId);
              }
            }}
            // On a phone the New Tab is pinned before the book tabs, an icon named for screen readers:
            // as one tab among them it was scrolled away or cut down to a character or two.
            tabBarExtraContent={
              phone
                ? {
                    left: (
                      <button
                        type="button"
                        className={`yd-newtab-pinned${activeId === NEW_TAB.id ? ' is-active' : ''}`}
                        aria-label={t('tabs.newTab')}
                        title={t('tabs.newTab')}
                        aria-current={activeId === NEW_TAB.id ? 'page' : undefined}
                        onClick={() => go(NEW_TAB.id)}
                      >
                        <PlusOutlined aria-hidden />
                      </button>
                    ),
                  }
                : undefined
            }
            items={tabs
              .filter((tab) => !(phone && tab.kind === 'newtab'))
              .map((tab) =>
                tab.kind === 'newtab'
                  ? { key: NEW_TAB.id, label: t('tabs.newTab'), closable: false, icon: <PlusOutlined /> }
                  : {
                      key: tab.id,
                      label: (
                        <span className="yd-tab-label" title={tab.book.name}>
                          {tab.book.name}
                        </span>
                      ),
                      closable: true,
                    },
              )}
          />
          <div className="yd-tabs-right">
            <LanguageSwitcher compact />
            <UserInfoPopover compact />
          </div>
        </div>
        <OfflineBanner />
        <main className={reading ? 'yd-tabs-content is-reader' : 'yd-tabs-content'}>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </ReaderTheme>
  );
}
