import { LayoutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

/** /template: purpose not shown in the spec; a neutral placeholder. */
export default function TemplatePage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.template.title')} icon={<LayoutOutlined />} />;
}
