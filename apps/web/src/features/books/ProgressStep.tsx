import { Alert, Button, Progress } from 'antd';
import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  LoadingOutlined,
  TranslationOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { WorkStage } from '../../api/books.ts';
import { errorMessage } from '../../api/errors.ts';
import { WORK_STAGES, usePipeline, type StageView } from './usePipeline.ts';
import { useLanguageNames } from './bookUtils.ts';
import { WizardFooter } from './WizardFooter.tsx';

interface ProgressStepProps {
  requestId: string;
  title: string;
  targetLanguage: string;
  onComplete: (result: { bookCode: string | null; bookName: string }) => void;
  /** Leaves this request as it is (failed) and goes back to the file step for another file. */
  onChooseAnother: () => void;
}

/** Step 3: the pipeline stages in turn, each with its result, failure, Retry and the title choice. */
export function ProgressStep({ requestId, title, targetLanguage, onComplete, onChooseAnother }: ProgressStepProps) {
  const { t } = useTranslation();
  const pipeline = usePipeline({ requestId, title, targetLanguage });
  const { stages, phase } = pipeline;

  return (
    <div className="yd-progress-step">
      <div className="yd-progress-overall">
        <Progress
          percent={pipeline.percent}
          status={phase === 'failed' ? 'exception' : phase === 'completed' ? 'success' : 'active'}
          strokeColor={phase === 'running' || phase === 'askTitle' ? 'var(--yd-accent)' : undefined}
          aria-label={t('books.wizard.overall')}
        />
      </div>
      <ol className="yd-stage-list">
        {WORK_STAGES.map((stage) => (
          <StageRow key={stage} stage={stage} view={stages[stage]} title={title} finalName={pipeline.finalName}>
            {stage === pipeline.current && phase === 'failed' && (
              <Alert
                type="error"
                showIcon
                className="yd-stage-alert"
                role="alert"
                title={t(`books.stageFailed.${stage}`)}
                description={
                  <>
                    <div>{reasonText(t, stages[stage].errorKey)}</div>
                    {pipeline.retryError !== null && <div>{errorMessage(pipeline.retryError)}</div>}
                    {stage === 'translatingTitle' && (
                      <div className="yd-muted">{t('books.title.failedHint', { title })}</div>
                    )}
                  </>
                }
                action={
                  <div className="yd-stage-alert-actions">
                    <Button size="small" danger onClick={() => void pipeline.retry()} loading={pipeline.retrying}>
                      {t('books.retry')}
                    </Button>
                    {stage === 'translatingTitle' && (
                      <Button size="small" type="primary" onClick={pipeline.continueWithOriginal}>
                        {t('books.title.continueOriginal')}
                      </Button>
                    )}
                    {/* Retrying a file that cannot be read fails again: another file is the way on. */}
                    <Button size="small" onClick={onChooseAnother}>
                      {t('books.wizard.chooseAnother')}
                    </Button>
                  </div>
                }
              />
            )}
            {stage === 'translatingTitle' && phase === 'askTitle' && pipeline.translatedName && (
              <div className="yd-title-choice" role="group" aria-label={t('books.title.question')}>
                <TranslationOutlined className="yd-title-choice-icon" />
                <div className="yd-title-choice-body">
                  <div>{t('books.title.proposed', { name: pipeline.translatedName })}</div>
                  <div className="yd-muted">{t('books.title.original', { title })}</div>
                  <div className="yd-title-choice-actions">
                    <Button type="primary" size="small" onClick={() => pipeline.chooseTitle(true)}>
                      {t('books.title.useTranslated')}
                    </Button>
                    <Button size="small" onClick={() => pipeline.chooseTitle(false)}>
                      {t('books.title.keepOriginal')}
                    </Button>
                  </div>
                </div>
              </div>
            )}
          </StageRow>
        ))}
      </ol>
      {phase === 'completed' && (
        <Alert type="success" showIcon title={t('books.wizard.allDone', { name: pipeline.finalName })} />
      )}
      <WizardFooter>
        <Button
          type="primary"
          disabled={phase !== 'completed'}
          onClick={() => onComplete({ bookCode: pipeline.bookCode, bookName: pipeline.finalName })}
        >
          {t('books.wizard.complete')}
        </Button>
      </WizardFooter>
    </div>
  );
}

function reasonText(t: (key: string, values?: Record<string, unknown>) => string, key: string | undefined): string {
  if (!key) return t('errors.unknown');
  return t(`errors.${key}`, { defaultValue: t('errors.unknown') });
}

function StageRow({
  stage,
  view,
  title,
  finalName,
  children,
}: {
  stage: WorkStage;
  view: StageView;
  title: string;
  finalName: string;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const { nameOf } = useLanguageNames();
  const icon =
    view.status === 'running' ? (
      <LoadingOutlined />
    ) : view.status === 'done' ? (
      <CheckCircleFilled />
    ) : view.status === 'failed' ? (
      <CloseCircleFilled />
    ) : view.status === 'skipped' ? (
      <ExclamationCircleFilled />
    ) : (
      <span className="yd-stage-dot" />
    );

  let detail: string | null = null;
  const result = view.result ?? {};
  if (view.status === 'done') {
    if (stage === 'parsingFile') {
      detail = t('books.stageResult.parsed', {
        chapters: Number(result.chapters ?? 0),
        pages: Number(result.pages ?? 0),
      });
    } else if (stage === 'detectingLanguage') {
      const language =
        nameOf(typeof result.language === 'string' ? result.language : null) ?? t('books.detail.unknown');
      detail =
        result.source === 'user'
          ? t('books.stageResult.chosen', { language })
          : t('books.stageResult.detected', { language });
    } else if (stage === 'translatingTitle') {
      const name = typeof result.translatedName === 'string' ? result.translatedName.trim() : '';
      detail =
        name && name !== title.trim() ? t('books.stageResult.translated', { name }) : t('books.stageResult.sameTitle');
    } else if (stage === 'saving') {
      detail = t('books.stageResult.saved', { name: finalName });
    }
  } else if (view.status === 'skipped') {
    detail = t('books.stageResult.keptOriginal', { title });
  }

  return (
    <li className={`yd-stage is-${view.status}`} data-testid={`stage-${stage}`} data-status={view.status}>
      <span className="yd-stage-icon" aria-hidden="true">
        {icon}
      </span>
      <div className="yd-stage-body">
        <div className="yd-stage-label">
          {t(`books.stage.${stage}`)}
          {view.status === 'running' && view.progress !== undefined && (
            <span className="yd-stage-percent">{Math.round(view.progress * 100)}%</span>
          )}
        </div>
        {view.status === 'running' && view.progress !== undefined && (
          <Progress
            percent={Math.round(view.progress * 100)}
            showInfo={false}
            size="small"
            strokeColor="var(--yd-accent)"
          />
        )}
        {detail && <div className="yd-stage-detail">{detail}</div>}
        {children}
      </div>
    </li>
  );
}
