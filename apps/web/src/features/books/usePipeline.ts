import { useCallback, useEffect, useState } from 'react';
import type { StageState } from '@yidu/shared/books';
import { uploadApi, type WorkStage } from '../../api/books.ts';
import { ApiError } from '../../api/client.ts';

/** The Path B stages the progress step runs in turn (SPEC §4.1). */
export const WORK_STAGES: WorkStage[] = ['parsingFile', 'detectingLanguage', 'translatingTitle', 'saving'];

/** How often a running stage is polled; tests shorten it. */
export const pipelineTiming = { pollMs: 700 };

export interface StageView {
  status: 'wait' | 'running' | 'done' | 'failed' | 'skipped';
  progress?: number;
  result?: Record<string, unknown>;
  /** Why it failed: the server's errorKey, or the key of a failed call. */
  errorKey?: string;
}

/** running: a stage is being polled; askTitle: waiting for the title choice; failed: waiting for Retry. */
export type PipelinePhase = 'running' | 'failed' | 'askTitle' | 'completed';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const initialStages = () =>
  Object.fromEntries(WORK_STAGES.map((s) => [s, { status: 'wait' }])) as Record<WorkStage, StageView>;

/**
 * Drives the stages of one upload request: call a stage, poll the same call until done or failed, go on.
 * After the title translation the user chooses the title; a failed title translation may be skipped.
 */
export function usePipeline({
  requestId,
  title,
  targetLanguage,
}: {
  requestId: string;
  title: string;
  targetLanguage: string;
}) {
  const [stages, setStages] = useState(initialStages);
  const [current, setCurrent] = useState<WorkStage>('parsingFile');
  const [phase, setPhase] = useState<PipelinePhase>('running');
  const [run, setRun] = useState(0);
  const [finalName, setFinalName] = useState(title);
  const [translatedName, setTranslatedName] = useState<string | null>(null);
  const [bookCode, setBookCode] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);
  const [retryError, setRetryError] = useState<unknown>(null);

  useEffect(() => {
    if (phase !== 'running') return;
    let cancelled = false;
    const stage = current;
    const patch = (view: StageView) => setStages((all) => ({ ...all, [stage]: view }));
    const extra =
      stage === 'translatingTitle'
        ? { userLanguage: targetLanguage }
        : stage === 'saving'
          ? { bookName: finalName }
          : {};
    patch({ status: 'running' });

    const poll = async () => {
      for (;;) {
        let state: StageState;
        try {
          state = await uploadApi.stage(stage, requestId, extra);
        } catch (error) {
          if (cancelled) return;
          patch({ status: 'failed', errorKey: error instanceof ApiError ? error.key : 'unknown' });
          setPhase('failed');
          return;
        }
        if (cancelled) return;
        if (state.status === 'running') {
          patch({ status: 'running', progress: state.progress });
          await sleep(pipelineTiming.pollMs);
          if (cancelled) return;
          continue;
        }
        if (state.status === 'failed') {
          patch({ status: 'failed', errorKey: state.errorKey });
          setPhase('failed');
          return;
        }
        patch({ status: 'done', result: state.result });
        if (stage === 'translatingTitle') {
          const translated = state.result?.translatedName;
          if (typeof translated === 'string' && translated.trim() && translated.trim() !== title.trim()) {
            setTranslatedName(translated.trim());
            setPhase('askTitle');
          } else setCurrent('saving');
        } else if (stage === 'saving') {
          const code = state.result?.bookCode;
          setBookCode(typeof code === 'string' ? code : null);
          setPhase('completed');
        } else {
          setCurrent(WORK_STAGES[WORK_STAGES.indexOf(stage) + 1]!);
        }
        return;
      }
    };
    void poll();
    return () => {
      cancelled = true;
    };
  }, [phase, current, run, requestId, targetLanguage, finalName, title]);

  /** Retry the failed stage on the server, then keep polling it. */
  const retry = useCallback(async () => {
    setRetrying(true);
    setRetryError(null);
    try {
      await uploadApi.retry(requestId);
      setPhase('running');
      setRun((n) => n + 1);
    } catch (error) {
      setRetryError(error);
    } finally {
      setRetrying(false);
    }
  }, [requestId]);

  /** The answer to 'The system-translated title is …': use it, or keep the original. */
  const chooseTitle = useCallback(
    (useTranslated: boolean) => {
      setFinalName(useTranslated && translatedName ? translatedName : title);
      setCurrent('saving');
      setPhase('running');
    },
    [title, translatedName],
  );

  /** After a failed title translation: save under the original title. */
  const continueWithOriginal = useCallback(() => {
    setFinalName(title);
    setStages((all) => ({ ...all, translatingTitle: { ...all.translatingTitle, status: 'skipped' } }));
    setCurrent('saving');
    setPhase('running');
  }, [title]);

  const doneCount = WORK_STAGES.filter((s) => stages[s].status === 'done').length;
  const running = stages[current];
  const percent = Math.round(
    ((doneCount + (running.status === 'running' && running.progress ? running.progress : 0)) / WORK_STAGES.length) *
      100,
  );

  return {
    stages,
    current,
    phase,
    finalName,
    translatedName,
    bookCode,
    percent: phase === 'completed' ? 100 : percent,
    retrying,
    retryError,
    retry,
    chooseTitle,
    continueWithOriginal,
  };
}
