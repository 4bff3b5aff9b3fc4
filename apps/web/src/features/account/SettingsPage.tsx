import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Grid, Radio, Select, Skeleton, Space, Switch, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@yidu/shared/auth';
import { settingsApi } from '../../api/settings.ts';
import { userApi } from '../../api/user.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useAuth } from '../../stores/auth.ts';
import { ReadingLanguageSelect } from '../auth/LanguageSelect.tsx';
import { useLanguageNames } from '../books/bookUtils.ts';
import { ProfileSection } from './ProfileSection.tsx';
import { DeleteAccountSection, EmailSection, PasswordSection, SessionsSection } from './SecuritySections.tsx';
import { useSaveUser, useSettingsAction } from './useSaveUser.ts';
import { ReadingStatsSection } from '../reading-stats/ReadingStatsSection.tsx';

// Loaded when the page has rendered: most readers never connect Readwise.
const ReadwiseSection = lazy(() =>
  import('../integrations/ReadwiseSection.tsx').then((m) => ({ default: m.ReadwiseSection })),
);
import '../books/books.css';
import './account.css';

const AUTOMATIC = '__automatic__';

function Section({ id, title, hint, children }: { id: string; title: string; hint?: string; children: ReactNode }) {
  return (
    <section id={id} className="yd-panel yd-settings-section" aria-labelledby={`${id}-title`}>
      <header className="yd-settings-section-head">
        <Typography.Title level={4} id={`${id}-title`} className="yd-section-title">
          {title}
        </Typography.Title>
        {hint && <span className="yd-muted">{hint}</span>}
      </header>
      {children}
    </section>
  );
}

/** Reading language (26) and the common languages offered first in pickers. */
function LanguageSection({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const run = useSettingsAction();
  const save = useSaveUser();
  const { options } = useLanguageNames();
  const [common, setCommon] = useState<string[]>(user.commonLanguages);
  const [savingCommon, setSavingCommon] = useState(false);
  const [savingLanguage, setSavingLanguage] = useState(false);
  return (
    <div className="yd-settings-form">
      <div className="yd-settings-field">
        <label htmlFor="settings-language">
          <strong>{t('settings.defaultLanguage')}</strong>
        </label>
        <span className="yd-muted yd-settings-hint">{t('settings.defaultLanguageHint')}</span>
        <ReadingLanguageSelect
          id="settings-language"
          value={user.language}
          loading={savingLanguage}
          disabled={savingLanguage}
          onChange={async (language) => {
            setSavingLanguage(true);
            await run(
              () => userApi.changeLanguage(language),
              t('settings.languageSaved'),
              t('settings.languageFailed'),
            );
            setSavingLanguage(false);
          }}
          style={{ width: '100%', maxWidth: 360 }}
        />
      </div>
      <div className="yd-settings-field">
        <label htmlFor="settings-common">
          <strong>{t('settings.commonLanguages')}</strong>
        </label>
        <span className="yd-muted yd-settings-hint">{t('settings.commonLanguagesHint')}</span>
        <Space.Compact className="yd-settings-inline" block>
          <Select<string[]>
            id="settings-common"
            mode="multiple"
            value={common}
            onChange={setCommon}
            maxCount={26}
            allowClear
            placeholder={t('settings.commonLanguagesPlaceholder')}
            optionFilterProp="label"
            options={options.map((o) => ({ value: o.value, label: o.label }))}
            style={{ flex: 1, minWidth: 0 }}
          />
          <Button
            type="primary"
            loading={savingCommon}
            onClick={async () => {
              setSavingCommon(true);
              await save({ commonLanguages: common }, t('settings.commonSaved'), t('settings.commonFailed'));
              setSavingCommon(false);
            }}
          >
            {t('settings.save')}
          </Button>
        </Space.Compact>
      </div>
    </div>
  );
}

/** Default sharing permission, translation engine, points deduction, privacy, reader defaults. */
function PreferencesSection({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const save = useSaveUser();
  const engines = useQuery({ queryKey: ['translation', 'engines'], queryFn: settingsApi.engines });
  const [busy, setBusy] = useState<string | null>(null);
  const change = async (name: string, body: Parameters<typeof save>[0], success: string, failure: string) => {
    setBusy(name);
    await save(body, success, failure);
    setBusy(null);
  };
  const engineOptions = [
    { value: AUTOMATIC, label: t('settings.engineAutomatic') },
    ...(engines.data?.engines ?? []).map((e) => ({ value: e, label: t(`settings.engine.${e}`, { defaultValue: e }) })),
  ];
  return (
    <div className="yd-settings-prefs">
      <div className="yd-settings-field">
        <strong id="settings-share-label">{t('settings.defaultSharing')}</strong>
        <span className="yd-muted yd-settings-hint">{t('settings.defaultSharingHint')}</span>
        <Radio.Group
          aria-labelledby="settings-share-label"
          value={user.defaultSharePublic ? 'public' : 'private'}
          disabled={busy === 'share'}
          onChange={(e) =>
            void change(
              'share',
              { defaultSharePublic: e.target.value === 'public' },
              t('settings.sharingSaved'),
              t('settings.sharingFailed'),
            )
          }
          options={[
            { value: 'private', label: t('settings.notPublic') },
            { value: 'public', label: t('settings.public') },
          ]}
        />
      </div>
      <div className="yd-settings-field">
        <label htmlFor="settings-engine">
          <strong>{t('settings.translator')}</strong>
        </label>
        <span className="yd-muted yd-settings-hint">{t('settings.translatorHint')}</span>
        <Select<string>
          id="settings-engine"
          value={user.translationEngine ?? AUTOMATIC}
          loading={engines.isPending || busy === 'engine'}
          options={engineOptions}
          style={{ width: '100%', maxWidth: 360 }}
          onChange={(value) =>
            void change(
              'engine',
              { translationEngine: value === AUTOMATIC ? null : value },
              t('settings.translatorSaved'),
              t('settings.translatorFailed'),
            )
          }
        />
      </div>
      <div className="yd-settings-field">
        <strong id="settings-deduct-label">{t('points.modeTitle')}</strong>
        <Radio.Group
          aria-labelledby="settings-deduct-label"
          className="yd-settings-radios"
          value={user.deductMode}
          disabled={busy === 'deduct'}
          onChange={(e) =>
            void change('deduct', { deductMode: e.target.value }, t('points.modeSaved'), t('points.modeFailed'))
          }
          options={[
            { value: 'autoDeduct', label: t('settings.autoDeduct') },
            { value: 'deductAfterConfirmation', label: t('settings.deductAfterConfirmation') },
          ]}
        />
      </div>
      <label className="yd-switch-row">
        <Switch
          checked={user.showNameOnShares}
          loading={busy === 'privacy'}
          onChange={(checked) =>
            void change(
              'privacy',
              { showNameOnShares: checked },
              t('settings.privacySaved'),
              t('settings.privacyFailed'),
            )
          }
          aria-label={t('settings.showName')}
        />
        <span>
          <strong>{t('settings.showName')}</strong>
          <span className="yd-muted">{t('settings.showNameHint')}</span>
        </span>
      </label>
      <div className="yd-settings-field">
        <strong>{t('settings.readerDefaults')}</strong>
        <span className="yd-muted yd-settings-hint">{t('settings.readerDefaultsHint')}</span>
        <Link to="/tabs/new">{t('settings.openReader')}</Link>
      </div>
    </div>
  );
}

const SECTIONS = [
  'profile',
  'reading',
  'notes',
  'email',
  'password',
  'languages',
  'preferences',
  'devices',
  'sessions',
  'delete',
] as const;

/** /user-settings: the personal center. Each change shows its own success or failure message (SPEC §8.4). */
export default function SettingsPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.settings.title'));
  const user = useAuth((s) => s.user);
  const screens = Grid.useBreakpoint();
  const wide = screens.lg === true;

  return (
    <div className="yd-settings-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('pages.settings.title')}</h1>
          <span className="yd-library-count">{t('settings.subtitle')}</span>
        </div>
      </div>
      <div className="yd-settings-layout">
        {wide && (
          <nav className="yd-settings-nav" aria-label={t('pages.settings.title')}>
            <Anchor
              offsetTop={88}
              items={SECTIONS.map((s) => ({ key: s, href: `#settings-${s}`, title: t(`settings.section.${s}`) }))}
            />
          </nav>
        )}
        <div className="yd-settings-sections">
          {!user ? (
            <div className="yd-panel">
              <Skeleton active avatar paragraph={{ rows: 6 }} />
            </div>
          ) : (
            <>
              <Section id="settings-profile" title={t('settings.section.profile')}>
                <ProfileSection user={user} />
              </Section>
              <Section id="settings-reading" title={t('settings.section.reading')}>
                <ReadingStatsSection />
              </Section>
              <Section id="settings-notes" title={t('settings.section.notes')} hint={t('integrations.readwise.hint')}>
                <Suspense fallback={<Skeleton active paragraph={{ rows: 2 }} />}>
                  <ReadwiseSection />
                </Suspense>
              </Section>
              <Section id="settings-email" title={t('settings.section.email')} hint={t('settings.emailHint')}>
                <EmailSection user={user} />
              </Section>
              <Section id="settings-password" title={t('settings.section.password')} hint={t('settings.passwordHint')}>
                <PasswordSection />
              </Section>
              <Section id="settings-languages" title={t('settings.section.languages')}>
                <LanguageSection user={user} />
              </Section>
              <Section id="settings-preferences" title={t('settings.section.preferences')}>
                <PreferencesSection user={user} />
              </Section>
              <Section id="settings-devices" title={t('settings.section.devices')} hint={t('settings.devicesHint')}>
                <Link to="/devices">
                  <Button>{t('settings.openDevices')}</Button>
                </Link>
              </Section>
              <Section id="settings-sessions" title={t('settings.section.sessions')} hint={t('settings.sessionsHint')}>
                <SessionsSection />
              </Section>
              <Section id="settings-delete" title={t('settings.section.delete')}>
                <DeleteAccountSection user={user} />
              </Section>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
