import { ShareAltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

export default function SharePage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.share.title')} description={t('pages.share.soon')} icon={<ShareAltOutlined />} />;
}
