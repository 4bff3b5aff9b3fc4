import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../shell/usePageTitle.ts';

/** Shown to signed-in users who are not admins on admin pages. */
export function ForbiddenPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.forbidden.title'));
  return (
    <div className="yd-panel">
      <Result
        status="403"
        title={<h1 className="yd-page-heading">{t('pages.forbidden.title')}</h1>}
        subTitle={t('pages.forbidden.text')}
        extra={
          <Link to="/">
            <Button type="primary">{t('app.backHome')}</Button>
          </Link>
        }
      />
    </div>
  );
}
