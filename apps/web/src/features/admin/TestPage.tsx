import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { Diagnostics } from './Diagnostics.tsx';
import { UserTools } from './UserTools.tsx';
import { InviteCodes } from './InviteCodes.tsx';
import { EngineSettings } from './EngineSettings.tsx';
import { AiModelSettings } from './AiModelSettings.tsx';
import { SetupChecklist } from './SetupChecklist.tsx';
import { PricesEditor } from './PricesEditor.tsx';
import { AuditLog } from './AuditLog.tsx';
import '../books/books.css';
import '../account/account.css';
import './admin.css';

export const ADMIN_TABS = ['diagnostics', 'setup', 'users', 'invites', 'engines', 'ai', 'prices', 'audit'] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

/**
 * /admin/test: diagnostics, the set-up checklist, user tools and the management views (invitation codes,
 * engines, AI models, prices, audit).
 */
export default function TestPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.test.title'));
  const [params, setParams] = useSearchParams();
  const tab = (ADMIN_TABS as readonly string[]).includes(params.get('tab') ?? '')
    ? (params.get('tab') as AdminTab)
    : 'diagnostics';
  const body: Record<AdminTab, ReactNode> = {
    diagnostics: <Diagnostics />,
    setup: <SetupChecklist />,
    users: <UserTools />,
    invites: <InviteCodes />,
    engines: <EngineSettings />,
    ai: <AiModelSettings />,
    prices: <PricesEditor />,
    audit: <AuditLog />,
  };
  return (
    <div className="yd-admin-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('pages.test.title')}</h1>
          <span className="yd-library-count">{t('admin.test.subtitle')}</span>
        </div>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        items={ADMIN_TABS.map((key) => ({ key, label: t(`admin.tab.${key}`), children: body[key] }))}
      />
    </div>
  );
}
