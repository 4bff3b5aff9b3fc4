import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChunkLoadError } from './lazyPage.tsx';
import { usePageTitle } from './usePageTitle.ts';
import { NotFoundPage } from '../features/system/NotFoundPage.tsx';

/** What the router shows when a page throws: a manual reload for code that failed to load twice. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = error instanceof ChunkLoadError;
  usePageTitle(chunk ? t('app.loadFailedTitle') : t('app.errorTitle'));
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (!chunk) console.error(error);
  return (
    <div className="yd-error-page">
      <Result
        status={chunk ? 'warning' : 'error'}
        title={chunk ? t('app.loadFailedTitle') : t('app.errorTitle')}
        subTitle={chunk ? t('app.loadFailedText') : t('app.errorText')}
        extra={
          <Space wrap>
            <Button type="primary" onClick={() => window.location.reload()}>
              {t('app.reload')}
            </Button>
            <Button href="/">{t('app.backHome')}</Button>
          </Space>
        }
      />
    </div>
  );
}
