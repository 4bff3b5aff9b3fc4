import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../shell/usePageTitle.ts';

/** Catch-all page (SPEC §2.1 '/:path(.*)'). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.notFound.title'));
  return (
    <div className="yd-panel">
      <Result
        status="404"
        title={<h1 className="yd-page-heading">{t('pages.notFound.title')}</h1>}
        subTitle={t('pages.notFound.text')}
        extra={
          <Link to="/">
            <Button type="primary">{t('app.backHome')}</Button>
          </Link>
        }
      />
    </div>
  );
}

export { NotFoundPage };
