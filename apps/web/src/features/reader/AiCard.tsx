import { useEffect, useState } from 'react';
import { Button, Segmented, Spin } from 'antd';
import { CloseOutlined, RobotOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { readerApi, type Charge, type RestateLevel } from '../../api/reader.ts';
import type { SelectionAnchor } from './selection.ts';
import { usePaidAction, usePaidErrorText } from './paid.tsx';

export type AiKind = 'explain' | 'advanced' | 'restate';
export interface AiRequest {
  id: number;
  kind: AiKind;
  anchor: SelectionAnchor;
  level: RestateLevel;
}

export const RESTATE_LEVELS: RestateLevel[] = ['simple', 'intermediate', 'advanced'];

interface AiCardProps {
  request: AiRequest;
  bookCode: string;
  language: string;
  onLevel: (level: RestateLevel) => void;
  onClose: () => void;
}

/** The answer of an explanation or a restatement, streamed in as it is written, with the points charged. */
export function AiCard({ request, bookCode, language, onLevel, onClose }: AiCardProps) {
  const { t } = useTranslation();
  const paid = usePaidAction(bookCode);
  const errorText = usePaidErrorText();
  const [text, setText] = useState('');
  const [charge, setCharge] = useState<Charge | null>(null);
  const [error, setError] = useState<{ key: string; text: string } | null>(null);
  const [busy, setBusy] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    setText('');
    setCharge(null);
    setError(null);
    setBusy(true);
    const requestId = `${Date.now().toString(36)}-${request.id}-${Math.random().toString(36).slice(2, 8)}`;
    const body = {
      bookCode,
      language,
      blockId: request.anchor.blockId,
      selection: request.anchor.quote.slice(0, request.kind === 'restate' ? 4000 : 2000),
      requestId,
    };
    void (async () => {
      try {
        const events = await paid(
          (confirm) =>
            request.kind === 'restate'
              ? readerApi.restate({ ...body, confirm, level: request.level }, controller.signal)
              : readerApi.explain({ ...body, confirm, advanced: request.kind === 'advanced' }, controller.signal),
          { silent: true },
        );
        if (!events) {
          onClose();
          return;
        }
        for await (const event of events) {
          if (controller.signal.aborted) return;
          const data = event.data as { text?: string; charge?: Charge; key?: string; msg?: string };
          if (event.event === 'delta' && data.text) setText((old) => old + data.text);
          else if (event.event === 'done') {
            if (typeof data.text === 'string') setText(data.text);
            if (data.charge) setCharge(data.charge);
          } else if (event.event === 'error') {
            const key = data.key ?? 'unknown';
            setError({ key, text: t(`errors.${key}`, { defaultValue: data.msg ?? t('errors.unknown') }) });
          }
        }
      } catch (failure) {
        if (controller.signal.aborted) return;
        setError({ key: failure instanceof ApiError ? failure.key : 'unknown', text: errorText(failure) });
      } finally {
        if (!controller.signal.aborted) setBusy(false);
      }
    })();
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one run per request
  }, [request, bookCode, language]);

  const title =
    request.kind === 'restate'
      ? t('reader.ai.restate')
      : request.kind === 'advanced'
        ? t('reader.ai.advanced')
        : t('reader.ai.explain');

  return (
    <section className="yd-ai-card" aria-label={title} aria-live="polite">
      <header>
        <RobotOutlined />
        <strong>{title}</strong>
        <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('reader.close')} onClick={onClose} />
      </header>
      <blockquote className="yd-anno-quote">{request.anchor.quote}</blockquote>
      {request.kind === 'restate' && (
        <Segmented
          size="small"
          value={request.level}
          onChange={(value) => onLevel(value as RestateLevel)}
          options={RESTATE_LEVELS.map((level) => ({ value: level, label: t(`reader.ai.level.${level}`) }))}
        />
      )}
      <div className="yd-ai-body">
        {error ? (
          <div className={error.key === 'aiNotConfigured' ? 'yd-ai-calm' : 'yd-ai-error'} role="status">
            <p>{error.text}</p>
            {error.key === 'aiNotConfigured' && <p className="yd-muted">{t('reader.ai.notConfiguredHint')}</p>}
          </div>
        ) : (
          <>
            {text && <div className="yd-ai-text">{text}</div>}
            {busy && !text && <Spin size="small" />}
            {busy && text && <span className="yd-caret" aria-hidden />}
          </>
        )}
      </div>
      {charge && (
        <footer className="yd-muted">
          {charge.charged ? t('reader.ai.charged', { points: charge.points }) : t('reader.ai.free')}
        </footer>
      )}
    </section>
  );
}
