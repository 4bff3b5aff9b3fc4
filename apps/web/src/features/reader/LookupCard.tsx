import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button, Spin, Tag } from 'antd';
import { CheckOutlined, CloseOutlined, PlusOutlined, SoundOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import './wordsToLearn.css';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { vocabularyApi, type LookupResult } from '../../api/vocabulary.ts';
import type { SelectionAnchor } from './selection.ts';
import { usePaidAction, usePaidErrorText } from './paid.tsx';
import { pickVoice } from './wordsToLearn.ts';

export interface LookupRequest {
  id: number;
  anchor: SelectionAnchor;
  sentence: string;
  /** Viewport position under the selection, or null for the docked (phone) card. */
  at: { x: number; y: number } | null;
}

interface LookupCardProps {
  request: LookupRequest;
  bookCode: string;
  language: string;
  /** BCP 47 tag of the book's language, to pronounce the word. */
  wordLang: string | undefined;
  onClose: () => void;
}

/** Says a word with the browser's voice for its language (nothing happens without speech synthesis). */
function pronounce(text: string, lang: string | undefined) {
  const synth = typeof window !== 'undefined' ? window.speechSynthesis : undefined;
  if (!synth || typeof SpeechSynthesisUtterance === 'undefined') return;
  const utterance = new SpeechSynthesisUtterance(text);
  if (lang) utterance.lang = lang;
  const voice = pickVoice(synth.getVoices(), lang);
  if (voice) utterance.voice = voice;
  synth.cancel();
  synth.speak(utterance);
}

/** The small card of a looked-up word: meaning here, pronunciation, a line of usage; save it to the vocabulary book. */
export function LookupCard({ request, bookCode, language, wordLang, onClose }: LookupCardProps) {
  const { t } = useTranslation();
  const paid = usePaidAction(bookCode);
  const errorText = usePaidErrorText();
  const [result, setResult] = useState<LookupResult | null>(null);
  const [error, setError] = useState<{ key: string; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const text = request.anchor.quote.replace(/\s+/g, ' ').trim();

  useEffect(() => {
    let live = true;
    setResult(null);
    setError(null);
    setSaved(false);
    if (text.length > 100) {
      setError({ key: 'tooLong', text: t('reader.lookup.tooLong') });
      return;
    }
    const requestId = `lk-${Date.now().toString(36)}-${request.id}-${Math.random().toString(36).slice(2, 8)}`;
    void (async () => {
      try {
        const answer = await paid(
          (confirm) =>
            vocabularyApi.lookup({ bookCode, language, text, sentence: request.sentence, confirm, requestId }),
          { silent: true },
        );
        if (!live) return;
        if (!answer) onClose();
        else setResult(answer);
      } catch (failure) {
        if (live) setError({ key: failure instanceof ApiError ? failure.key : 'unknown', text: errorText(failure) });
      }
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one lookup per request
  }, [request, bookCode, language]);

  const save = async () => {
    if (!result) return;
    setSaving(true);
    setSaveError(null);
    try {
      const { entry } = result;
      await vocabularyApi.save({
        bookCode,
        language,
        text,
        sentence: request.sentence,
        blockId: request.anchor.blockId,
        start: request.anchor.start,
        end: request.anchor.end,
        lemma: entry.lemma,
        meaning: entry.meaning,
        pronunciation: entry.pronunciation,
        partOfSpeech: entry.partOfSpeech,
        usage: entry.usageTranslation ? `${entry.usage}\n${entry.usageTranslation}` : entry.usage,
      });
      setSaved(true);
    } catch (failure) {
      setSaveError(t('reader.lookup.saveFailed', { reason: errorMessage(failure) }));
    } finally {
      setSaving(false);
    }
  };

  // Centred under the selection, kept inside the window (the card is at most 360 px wide).
  const half = Math.min(180, window.innerWidth / 2 - 12);
  const style = request.at
    ? { left: Math.min(Math.max(request.at.x, half + 12), window.innerWidth - half - 12), top: request.at.y }
    : undefined;
  const entry = result?.entry;
  return (
    <section
      className={`yd-lookup${request.at ? '' : ' is-docked'}`}
      style={style}
      role="dialog"
      aria-label={t('reader.lookup.title')}
      aria-live="polite"
    >
      <header>
        <strong className="yd-lookup-word" lang={wordLang}>
          {text}
        </strong>
        {entry?.pronunciation && <span className="yd-lookup-say">{entry.pronunciation}</span>}
        <Button
          type="text"
          size="small"
          icon={<SoundOutlined />}
          aria-label={t('reader.readAloud.title')}
          onClick={() => pronounce(text, wordLang)}
        />
        <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('reader.close')} onClick={onClose} />
      </header>
      {error ? (
        <div className={error.key === 'wordNotFound' ? 'yd-ai-calm' : 'yd-ai-error'} role="status">
          <p>{error.text}</p>
        </div>
      ) : !entry ? (
        <div className="yd-lookup-loading">
          <Spin size="small" /> <span className="yd-muted">{t('reader.lookup.loading')}</span>
        </div>
      ) : (
        <>
          <div className="yd-lookup-meaning">
            {entry.partOfSpeech && <Tag bordered={false}>{entry.partOfSpeech}</Tag>}
            <span>{entry.meaning}</span>
          </div>
          {entry.lemma && <p className="yd-muted yd-lookup-line">{t('reader.lookup.lemma', { lemma: entry.lemma })}</p>}
          {entry.usage && (
            <div className="yd-lookup-usage">
              <span className="yd-muted">{t('reader.lookup.usage')}</span>
              <p lang={wordLang}>{entry.usage}</p>
              {entry.usageTranslation && <p className="yd-muted">{entry.usageTranslation}</p>}
            </div>
          )}
          {entry.alternatives.length > 0 && (
            <p className="yd-lookup-line">
              <span className="yd-muted">{t('reader.lookup.alternatives')}</span> {entry.alternatives.join(' · ')}
            </p>
          )}
          <footer>
            <span className="yd-muted">
              {entry.source === 'llm' ? t('reader.lookup.sourceLlm') : t('reader.lookup.sourceMicrosoft')}
              {' · '}
              {result.charge.charged ? t('reader.ai.charged', { points: result.charge.points }) : t('reader.ai.free')}
            </span>
            {saved ? (
              <Link to="/vocabulary" className="yd-lookup-saved">
                <CheckOutlined /> {t('reader.lookup.saved')}
              </Link>
            ) : (
              <Button size="small" type="primary" icon={<PlusOutlined />} loading={saving} onClick={() => void save()}>
                {t('reader.lookup.save')}
              </Button>
            )}
          </footer>
          {saveError && <p className="yd-field-error">{saveError}</p>}
        </>
      )}
    </section>
  );
}
