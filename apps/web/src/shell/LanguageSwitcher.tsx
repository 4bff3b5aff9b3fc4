import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { changeUiLanguage, useUiLanguage } from '../i18n/index.ts';
import { UI_LANGUAGE_LIST, uiLanguageInfo } from '../i18n/languages.ts';

/** Interface-language picker: every label in its own language. */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const language = useUiLanguage((s) => s.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: UI_LANGUAGE_LIST.map((l) => ({ key: l.code, label: <span lang={l.bcp47}>{l.label}</span> })),
        onClick: ({ key }) => void changeUiLanguage(key as typeof language),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('app.uiLanguage')} title={t('app.uiLanguage')}>
        {compact ? null : uiLanguageInfo(language).label}
      </Button>
    </Dropdown>
  );
}
