import { Button, Popover, Segmented, Select, Tooltip } from 'antd';
import { PauseOutlined, CaretRightOutlined, SoundOutlined, BorderOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import './wordsToLearn.css';
import { useLanguageNames } from '../books/bookUtils.ts';
import type { ReadAloud } from './useReadAloud.ts';
import type { ReadAloudMode } from './wordsToLearn.ts';

interface Props {
  aloud: ReadAloud;
  /** The book is read in another language (there is a translation to read). */
  translated: boolean;
  /** Reading-language codes and BCP 47 tags of the book and of the reader. */
  original: { code: string | null; tag: string | undefined };
  target: { code: string; tag: string | undefined };
}

const RATES = [0.75, 1, 1.25, 1.5];

/** The voices of one language, to choose from (the browser decides when none is chosen). */
function VoiceSelect({ aloud, tag, label }: { aloud: ReadAloud; tag: string | undefined; label: string }) {
  const { t } = useTranslation();
  if (!tag) return null;
  const primary = tag.split('-')[0]!.toLowerCase();
  const voices = aloud.voices.filter((v) => v.lang.toLowerCase().replace('_', '-').split('-')[0] === primary);
  return (
    <label className="yd-readaloud-field">
      <span>{t('reader.readAloud.voiceFor', { language: label })}</span>
      {voices.length === 0 ? (
        <span className="yd-muted">{t('reader.readAloud.noVoice', { language: label })}</span>
      ) : (
        <Select<string>
          size="small"
          value={aloud.chosen[tag] ?? ''}
          onChange={(value) => aloud.chooseVoice(tag, value || null)}
          options={[
            { value: '', label: t('reader.readAloud.voiceAuto') },
            ...voices.map((v) => ({ value: v.voiceURI, label: `${v.name} (${v.lang})` })),
          ]}
          style={{ width: '100%' }}
          popupMatchSelectWidth={false}
        />
      )}
    </label>
  );
}

/** The reader bar's read-aloud button: what to read, voices and speed, play, pause, resume and stop. */
export function ReadAloudControl({ aloud, translated, original, target }: Props) {
  const { t } = useTranslation();
  const { nameOf } = useLanguageNames();
  const modes: ReadAloudMode[] = translated ? ['original', 'translation', 'both'] : ['original'];
  const mode = translated ? aloud.mode : 'original';
  const panel = !aloud.supported ? (
    <p className="yd-muted yd-readaloud-panel">{t('reader.readAloud.unsupported')}</p>
  ) : (
    <div className="yd-readaloud-panel">
      <p className="yd-muted">{t('reader.readAloud.hint')}</p>
      {translated && (
        <Segmented<ReadAloudMode>
          block
          size="small"
          value={mode}
          onChange={aloud.setMode}
          options={modes.map((m) => ({ value: m, label: t(`reader.readAloud.${m}`) }))}
          aria-label={t('reader.readAloud.what')}
        />
      )}
      {mode !== 'translation' && <VoiceSelect aloud={aloud} tag={original.tag} label={nameOf(original.code) ?? ''} />}
      {translated && mode !== 'original' && (
        <VoiceSelect aloud={aloud} tag={target.tag} label={nameOf(target.code) ?? target.code} />
      )}
      <label className="yd-readaloud-field">
        <span>{t('reader.readAloud.rate')}</span>
        <Segmented<number>
          size="small"
          value={aloud.rate}
          onChange={aloud.setRate}
          options={RATES.map((r) => ({ value: r, label: `${r}×` }))}
        />
      </label>
      <ReadAloudButtons aloud={aloud} />
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" content={panel} destroyOnHidden>
      <Tooltip title={t('reader.readAloud.title')}>
        <Button
          type="text"
          icon={<SoundOutlined />}
          aria-label={t('reader.readAloud.title')}
          className={aloud.state !== 'idle' ? 'is-on' : undefined}
        />
      </Tooltip>
    </Popover>
  );
}

function ReadAloudButtons({ aloud }: { aloud: ReadAloud }) {
  const { t } = useTranslation();
  return (
    <div className="yd-readaloud-buttons">
      {aloud.state === 'idle' ? (
        <Button type="primary" size="small" icon={<CaretRightOutlined />} onClick={aloud.start}>
          {t('reader.readAloud.start')}
        </Button>
      ) : aloud.state === 'playing' ? (
        <Button size="small" icon={<PauseOutlined />} onClick={aloud.pause}>
          {t('reader.readAloud.pause')}
        </Button>
      ) : (
        <Button type="primary" size="small" icon={<CaretRightOutlined />} onClick={aloud.resume}>
          {t('reader.readAloud.resume')}
        </Button>
      )}
      {aloud.state !== 'idle' && (
        <Button size="small" icon={<BorderOutlined />} onClick={aloud.stop}>
          {t('reader.readAloud.stop')}
        </Button>
      )}
    </div>
  );
}

/** While reading aloud: where it is, with pause/resume and stop, at the bottom of the page. */
export function ReadAloudBar({ aloud }: { aloud: ReadAloud }) {
  const { t } = useTranslation();
  if (aloud.state === 'idle') return null;
  return (
    <div className="yd-readaloud-bar" role="region" aria-label={t('reader.readAloud.title')}>
      <SoundOutlined />
      <span className="yd-readaloud-status" aria-live="polite">
        {aloud.state === 'paused'
          ? t('reader.readAloud.paused')
          : aloud.current
            ? t('reader.readAloud.reading', { page: aloud.current.page, n: aloud.current.paragraph })
            : t('reader.lookup.loading')}
      </span>
      <ReadAloudButtons aloud={aloud} />
    </div>
  );
}
