import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The app mark and name; links home. */
export function Logo({ to = '/', compact = false }: { to?: string; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Link to={to} className="yd-logo" aria-label={t('app.name')}>
      <svg className="yd-logo-mark" viewBox="0 0 64 64" aria-hidden="true">
        <rect width="64" height="64" rx="14" fill="currentColor" />
        <path d="M14 18c7-2 13-1 18 3v27c-5-4-11-5-18-3z" fill="#fdf6ec" />
        <path d="M50 18c-7-2-13-1-18 3v27c5-4 11-5 18-3z" fill="#f3dcc4" />
      </svg>
      {!compact && <span className="yd-logo-name">{t('app.name')}</span>}
    </Link>
  );
}
