import { BarChartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

export default function StatisticsPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      title={t('pages.statistics.title')}
      description={t('pages.statistics.soon')}
      icon={<BarChartOutlined />}
    />
  );
}
