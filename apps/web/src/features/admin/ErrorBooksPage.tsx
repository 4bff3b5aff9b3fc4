import { WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

export default function ErrorBooksPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      title={t('pages.errorBooks.title')}
      description={t('pages.errorBooks.soon')}
      icon={<WarningOutlined />}
    />
  );
}
