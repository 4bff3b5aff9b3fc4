import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from './Logo.tsx';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { PageFallback } from './PageFallback.tsx';

/** Account pages: a centred card on a calm background, with the app name and the language switcher. */
export function LoginLayout() {
  const { t } = useTranslation();
  return (
    <div className="yd-login">
      <div className="yd-login-top">
        <Logo to="/" />
        <LanguageSwitcher />
      </div>
      <main className="yd-login-main">
        <div className="yd-login-card">
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </div>
        <p className="yd-login-tagline">{t('app.tagline')}</p>
      </main>
    </div>
  );
}
