import { useEffect, useState } from 'react';
import { App, Button, Modal, Progress, Result, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors.ts';
import { vocabularyApi, type VocabularyWord } from '../../api/vocabulary.ts';
import { SentenceWithWord } from './SentenceWithWord.tsx';

/**
 * A review session over the words due now: a card shows the word in its sentence; flipped, its
 * pronunciation, meaning and usage. "Known" sends it up a box, "Again" brings it back at the end of
 * this session (the server schedules it again in minutes).
 */
export function ReviewSession({ bookCode, onClose }: { bookCode?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [queue, setQueue] = useState<VocabularyWord[] | null>(null);
  const [total, setTotal] = useState(0);
  const [flipped, setFlipped] = useState(false);
  const [busy, setBusy] = useState(false);
  const [tally, setTally] = useState({ known: 0, again: 0 });

  useEffect(() => {
    vocabularyApi
      .list({ bookCode, due: true, pageSize: 200 })
      .then((page) => {
        setQueue(page.items);
        setTotal(page.items.length);
      })
      .catch((error: unknown) => {
        void message.error(errorMessage(error));
        onClose();
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loaded once per session
  }, []);

  const word = queue?.[0];
  const answer = async (result: 'known' | 'again') => {
    if (!word) return;
    setBusy(true);
    try {
      await vocabularyApi.review(word.id, result);
      setTally((old) => ({ ...old, [result]: old[result] + 1 }));
      setQueue((old) => {
        const rest = (old ?? []).slice(1);
        return result === 'again' ? [...rest, word] : rest;
      });
      setFlipped(false);
    } catch (error) {
      void message.error(t('vocabulary.reviewFailed', { reason: errorMessage(error) }));
    } finally {
      setBusy(false);
    }
  };

  // Space flips the card; 1 = again, 2 = known once flipped.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!word || busy) return;
      if (event.key === ' ' && !flipped) {
        event.preventDefault();
        setFlipped(true);
      } else if (flipped && event.key === '1') void answer('again');
      else if (flipped && event.key === '2') void answer('known');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const lang = word ? (word.sourceLanguage === 'jp' ? 'ja' : word.sourceLanguage) : undefined;
  const done = total - (queue?.length ?? total);
  return (
    <Modal open title={t('vocabulary.reviewTitle')} onCancel={onClose} footer={null} width={520} destroyOnHidden>
      {!queue ? (
        <div className="yd-review-loading">
          <Spin />
        </div>
      ) : !word ? (
        <Result
          status="success"
          title={total === 0 ? t('vocabulary.nothingDue') : t('vocabulary.reviewDone')}
          subTitle={total === 0 ? undefined : t('vocabulary.reviewDoneText', tally)}
          extra={<Button onClick={onClose}>{t('vocabulary.exitReview')}</Button>}
        />
      ) : (
        <div className="yd-review">
          <Progress percent={total ? Math.round((done / total) * 100) : 0} showInfo={false} size="small" />
          <span className="yd-muted yd-review-count">{t('vocabulary.progress', { done, total })}</span>
          <div className={`yd-review-card${flipped ? ' is-flipped' : ''}`} aria-live="polite">
            <strong className="yd-review-word" lang={lang}>
              {word.text}
            </strong>
            {word.sentence && (
              <p className="yd-review-sentence">
                <SentenceWithWord sentence={word.sentence} word={word.text} lang={lang} />
              </p>
            )}
            {flipped && (
              <div className="yd-review-back">
                {word.pronunciation && <p className="yd-word-say">{word.pronunciation}</p>}
                <p className="yd-review-meaning">
                  {word.partOfSpeech && <Tag bordered={false}>{word.partOfSpeech}</Tag>}
                  {word.meaning}
                </p>
                {word.usage && <p className="yd-muted yd-review-usage">{word.usage}</p>}
                {word.note && <p className="yd-review-note">{word.note}</p>}
                <p className="yd-muted">{t('vocabulary.bookTitle', { title: word.bookTitle })}</p>
              </div>
            )}
          </div>
          <div className="yd-review-buttons">
            {!flipped ? (
              <Button type="primary" block onClick={() => setFlipped(true)}>
                {t('vocabulary.flip')}
              </Button>
            ) : (
              <>
                <Button block danger loading={busy} onClick={() => void answer('again')}>
                  {t('vocabulary.again')}
                </Button>
                <Button block type="primary" loading={busy} onClick={() => void answer('known')}>
                  {t('vocabulary.known')}
                </Button>
              </>
            )}
          </div>
        </div>
      )}
    </Modal>
  );
}
