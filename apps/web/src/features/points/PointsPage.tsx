import { GiftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

export default function PointsPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.points.title')} description={t('pages.points.soon')} icon={<GiftOutlined />} />;
}
