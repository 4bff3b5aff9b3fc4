import type { ReactNode } from 'react';
import { Result, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from './usePageTitle.ts';

/** The body of a page that is not built yet: a real, translated placeholder that sets the title. */
export function ComingSoon({ title, description, icon }: { title: string; description?: string; icon: ReactNode }) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <div className="yd-panel yd-coming-soon">
      <Result
        icon={<span className="yd-coming-soon-icon">{icon}</span>}
        title={<h1 className="yd-page-heading">{title}</h1>}
        subTitle={description ?? t('pages.comingSoonText')}
        extra={<Tag color="orange">{t('common.comingSoon')}</Tag>}
      />
    </div>
  );
}
