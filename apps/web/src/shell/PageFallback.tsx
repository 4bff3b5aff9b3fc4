import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** Shown while a page's code loads. */
export function PageFallback() {
  const { t } = useTranslation();
  return (
    <div className="yd-page-fallback" role="status">
      <Spin description={t('app.loading')} />
    </div>
  );
}
