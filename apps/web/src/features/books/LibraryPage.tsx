import { BookOutlined, ReadOutlined } from '@ant-design/icons';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/ComingSoon.tsx';

/** /books/{kind}: 'all' = public library, 'user' = personal library. */
export default function LibraryPage() {
  const { t } = useTranslation();
  const { kind } = useParams();
  const title =
    kind === 'all' ? t('pages.library.all') : kind === 'user' ? t('pages.library.user') : t('pages.library.other');
  return (
    <ComingSoon
      title={title}
      description={t('pages.library.soon')}
      icon={kind === 'user' ? <ReadOutlined /> : <BookOutlined />}
    />
  );
}
