import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Alert } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SETUP_QUERY, setupApi } from '../api/setup.ts';
import { isAdmin, useAuth } from '../stores/auth.ts';

const HIDDEN_KEY = 'yidu.setupBanner.hidden';

/**
 * Tells admins, on every page, while something essential is missing or not working (no translation
 * engine answers, no AI model). Hidden for the browser session on request, until the problems change.
 */
export function SetupBanner() {
  const { t } = useTranslation();
  const location = useLocation();
  const admin = isAdmin(useAuth((s) => s.user));
  const report = useQuery({
    queryKey: SETUP_QUERY,
    queryFn: setupApi.report,
    enabled: admin,
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
    retry: false,
  });
  const [hidden, setHidden] = useState(() => sessionStorage.getItem(HIDDEN_KEY));
  if (!admin || !report.data?.attention) return null;
  const problems = report.data.items.filter((i) => i.essential && (i.status === 'missing' || i.status === 'failing'));
  const signature = problems.map((i) => `${i.id}:${i.status}`).join(',');
  const onChecklist =
    location.pathname === '/admin/test' && new URLSearchParams(location.search).get('tab') === 'setup';
  if (hidden === signature || onChecklist) return null;

  return (
    <Alert
      className="yd-setup-banner"
      type="warning"
      showIcon
      banner
      role="alert"
      data-testid="setup-banner"
      message={
        <span>
          <strong>{t('admin.setup.banner.title')}</strong>{' '}
          {problems
            .map((i) =>
              t('admin.setup.banner.item', {
                item: t(`admin.setup.item.${i.id}.title`),
                status: t(`admin.setup.status.${i.status}`),
              }),
            )
            .join(' · ')}{' '}
          <Link to="/admin/test?tab=setup">{t('admin.setup.banner.open')}</Link>
        </span>
      }
      closable={{ 'aria-label': t('admin.setup.banner.hide') }}
      onClose={() => {
        sessionStorage.setItem(HIDDEN_KEY, signature);
        setHidden(signature);
      }}
    />
  );
}
