import { LineChartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

export default function TongjiPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon title={t('pages.tongji.title')} description={t('pages.tongji.soon')} icon={<LineChartOutlined />} />
  );
}
