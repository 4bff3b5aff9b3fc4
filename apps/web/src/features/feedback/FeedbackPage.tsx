import { MessageOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

export default function FeedbackPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon title={t('pages.feedback.title')} description={t('pages.feedback.soon')} icon={<MessageOutlined />} />
  );
}
