import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

export default function SettingsPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon title={t('pages.settings.title')} description={t('pages.settings.soon')} icon={<UserOutlined />} />
  );
}
