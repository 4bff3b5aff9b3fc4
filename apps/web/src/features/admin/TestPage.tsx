import { ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

export default function TestPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.test.title')} description={t('pages.test.soon')} icon={<ToolOutlined />} />;
}
