import { ReadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

/** /tabs/read/{bookcode}/{language}: the reader comes later. */
export default function ReaderPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.reader.title')} description={t('pages.reader.soon')} icon={<ReadOutlined />} />;
}
