import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

export default function UploadPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon title={t('pages.upload.title')} description={t('pages.upload.soon')} icon={<CloudUploadOutlined />} />
  );
}
