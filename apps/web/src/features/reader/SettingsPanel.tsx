import { Segmented, Select, Slider } from 'antd';
import { useTranslation } from 'react-i18next';
import { CheckOutlined } from '@ant-design/icons';
import {
  COLOR_SCHEMES,
  READER_MODES,
  SCHEME_COLORS,
  useReaderSettings,
  type ColorScheme,
  type ReaderMode,
} from '../../stores/readerSettings.ts';
import { useLanguageNames } from '../books/bookUtils.ts';

interface SettingsPanelProps {
  language: string;
  onLanguage: (code: string) => void;
}

/** Mode, type, colours and the target language; every change applies at once. */
export function SettingsPanel({ language, onLanguage }: SettingsPanelProps) {
  const { t } = useTranslation();
  const settings = useReaderSettings((s) => s.settings);
  const update = useReaderSettings((s) => s.update);
  const { options } = useLanguageNames();
  return (
    <div className="yd-settings">
      <section>
        <h4>{t('reader.settings.mode')}</h4>
        <Segmented<ReaderMode>
          block
          value={settings.mode}
          onChange={(mode) => update({ mode })}
          options={READER_MODES.map((mode) => ({ value: mode, label: t(`reader.mode.${mode}`) }))}
        />
        <p className="yd-muted yd-settings-hint">{t(`reader.mode.${settings.mode}Hint`)}</p>
      </section>
      <section>
        <h4>{t('reader.settings.fontSize')}</h4>
        <Slider
          min={12}
          max={40}
          value={settings.fontSize}
          onChange={(fontSize: number) => update({ fontSize })}
          aria-label={t('reader.settings.fontSize')}
        />
      </section>
      <section>
        <h4>{t('reader.settings.lineHeight')}</h4>
        <Slider
          min={1}
          max={3}
          step={0.1}
          value={settings.lineHeight}
          onChange={(lineHeight: number) => update({ lineHeight: Math.round(lineHeight * 10) / 10 })}
          aria-label={t('reader.settings.lineHeight')}
        />
      </section>
      <section>
        <h4>{t('reader.settings.paragraphMargin')}</h4>
        <Slider
          min={0}
          max={64}
          value={settings.paragraphMargin}
          onChange={(paragraphMargin: number) => update({ paragraphMargin })}
          aria-label={t('reader.settings.paragraphMargin')}
        />
      </section>
      <section>
        <h4>{t('reader.settings.scheme')}</h4>
        <div className="yd-schemes" role="radiogroup" aria-label={t('reader.settings.scheme')}>
          {COLOR_SCHEMES.map((scheme: ColorScheme) => {
            const colors =
              scheme === 'custom'
                ? { background: settings.background, text: settings.textColor }
                : SCHEME_COLORS[scheme];
            const selected = settings.scheme === scheme;
            return (
              <button
                key={scheme}
                type="button"
                role="radio"
                aria-checked={selected}
                className={`yd-scheme${selected ? ' is-on' : ''}`}
                style={{ background: colors.background, color: colors.text }}
                onClick={() => update({ scheme })}
                title={t(`reader.scheme.${scheme}`)}
              >
                <span>{selected ? <CheckOutlined /> : 'Aa'}</span>
                <small>{t(`reader.scheme.${scheme}`)}</small>
              </button>
            );
          })}
        </div>
        {settings.scheme === 'custom' && (
          <div className="yd-custom-colors">
            <label>
              <input
                type="color"
                value={settings.background}
                onChange={(e) => update({ background: e.target.value })}
              />
              {t('reader.settings.background')}
            </label>
            <label>
              <input type="color" value={settings.textColor} onChange={(e) => update({ textColor: e.target.value })} />
              {t('reader.settings.textColor')}
            </label>
          </div>
        )}
      </section>
      <section>
        <h4>{t('reader.settings.language')}</h4>
        <Select
          showSearch
          optionFilterProp="label"
          className="yd-settings-language"
          value={options.find((o) => o.code.toLowerCase() === language.toLowerCase())?.code ?? language}
          onChange={onLanguage}
          aria-label={t('reader.settings.language')}
          options={options.map((o) => ({
            value: o.code,
            label: o.label === o.native ? o.label : `${o.label} · ${o.native}`,
          }))}
        />
        <p className="yd-muted yd-settings-hint">{t('reader.language.hint')}</p>
      </section>
    </div>
  );
}
