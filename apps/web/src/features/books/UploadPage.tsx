import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, App, Button, Grid, Progress, Result, Steps, Upload } from 'antd';
import { CheckCircleOutlined, CloseOutlined, FileTextOutlined, InboxOutlined, ReadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FileMetadata, UploadCount } from '@yidu/shared/books';
import { uploadApi } from '../../api/books.ts';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useAuth } from '../../stores/auth.ts';
import { BOOK_ACCEPT, checkBookFile, extensionOf, formatBytes, titleFromFileName } from './fileRules.ts';
import { AUTO_DETECT, InfoStep, type InfoValues } from './InfoStep.tsx';
import { LimitModal, limitReached } from './LimitModal.tsx';
import { ProgressStep } from './ProgressStep.tsx';
import { WizardFooter } from './WizardFooter.tsx';
import { UNFINISHED_KEY, UnfinishedUploads } from './UnfinishedUploads.tsx';
import { useOpenBook, useReadingLanguage } from './bookUtils.ts';
import './books.css';

type FileState =
  | { status: 'uploading'; file: File; progress: number }
  | { status: 'uploaded'; file: File; fileId: string; format: string; metadata: FileMetadata | null }
  | { status: 'failed'; file: File; error: unknown };

const FALLBACK_MAX_MB = 20;

/** /book/upload: the upload wizard of SPEC §2.4 on the staged pipeline (Path B, SPEC §7.6). */
export default function UploadPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.upload.title'));
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const openBook = useOpenBook();
  const user = useAuth((s) => s.user);
  const readingLanguage = useReadingLanguage();
  const narrow = Grid.useBreakpoint().sm === false;

  const [step, setStep] = useState(0);
  const [fileState, setFileState] = useState<FileState | null>(null);
  const [fileHint, setFileHint] = useState<string | null>(null);
  const [info, setInfo] = useState<InfoValues | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [request, setRequest] = useState<{ requestId: string; title: string; language: string } | null>(null);
  const [finished, setFinished] = useState<{ bookCode: string | null; bookName: string } | null>(null);
  const [limit, setLimit] = useState<UploadCount | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  // The limits, checked as the page opens: a reached limit shows the modal at once.
  const counts = useQuery({ queryKey: ['upload', 'count'], queryFn: uploadApi.count, staleTime: 0 });
  const maxFileMb = counts.data?.maxFileMb ?? FALLBACK_MAX_MB;
  // Only the counts as the page opens: an upload that takes the last slot must not open the modal.
  const checkedLimit = useRef(false);
  useEffect(() => {
    if (checkedLimit.current || !counts.data) return;
    checkedLimit.current = true;
    if (limitReached(counts.data)) setLimit(counts.data);
  }, [counts.data]);
  useEffect(() => () => abortRef.current?.abort(), []);

  // What the file declares about itself comes first; the file name is the fallback (SPEC §5.4).
  const defaults = (file: File, metadata: FileMetadata | null): InfoValues => ({
    bookName: metadata?.title ?? titleFromFileName(file.name),
    bookAuthor: metadata?.author ?? '',
    bookDescribe: metadata?.description ?? '',
    originalLanguage: AUTO_DETECT,
    language: readingLanguage,
    bookStatus: user?.defaultSharePublic ? 1 : 0,
    forceOCR: false,
    autoSplitFootnote: false,
  });

  const startUpload = async (file: File) => {
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setFileHint(null);
    setFileState({ status: 'uploading', file, progress: 0 });
    try {
      const stored = await uploadApi.upload(file, {
        signal: controller.signal,
        onProgress: (progress) =>
          setFileState((s) => (s && s.file === file && s.status === 'uploading' ? { ...s, progress } : s)),
      });
      if (controller.signal.aborted) return;
      // An older server answers without metadata.
      const metadata = stored.metadata ?? null;
      setFileState({ status: 'uploaded', file, fileId: stored.fileId, format: stored.format, metadata });
      setInfo(defaults(file, metadata));
      void queryClient.invalidateQueries({ queryKey: ['upload', 'count'] });
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof ApiError && error.key === 'uploadLimitReached') {
        const data = error.data as Partial<UploadCount> | null;
        const fresh =
          data && typeof data.today === 'number'
            ? ({ ...counts.data, ...data } as UploadCount)
            : await uploadApi.count().catch(() => counts.data ?? null);
        if (fresh) setLimit(fresh);
      }
      setFileState({ status: 'failed', file, error });
    }
  };

  const chooseFile = (file: File) => {
    const problem = checkBookFile(file, maxFileMb);
    if (problem) {
      const text =
        problem === 'fileTooLarge'
          ? t('books.upload.tooLarge', { max: maxFileMb })
          : problem === 'emptyFile'
            ? t('errors.emptyFile')
            : t('books.upload.wrongType');
      setFileHint(text);
      void message.error(text);
      return;
    }
    if (limitReached(counts.data)) {
      setLimit(counts.data!);
      return;
    }
    void startUpload(file);
  };

  const removeFile = () => {
    abortRef.current?.abort();
    setFileState(null);
    setInfo(null);
  };

  const next = () => {
    if (!fileState) {
      setFileHint(t('books.upload.fileRequired'));
      return;
    }
    if (fileState.status === 'uploading') {
      void message.info(t('books.upload.stillUploading'));
      return;
    }
    if (fileState.status === 'failed') {
      void message.warning(t('books.upload.fileRequired'));
      return;
    }
    setStep(1);
  };

  const saveInfo = async (values: InfoValues) => {
    if (fileState?.status !== 'uploaded') return;
    setInfo(values);
    setSaving(true);
    setSaveError(null);
    try {
      const bookName = values.bookName.trim();
      const { requestId } = await uploadApi.saveNew({
        fileId: fileState.fileId,
        bookName,
        bookAuthor: values.bookAuthor?.trim() || undefined,
        bookDescribe: values.bookDescribe?.trim() || undefined,
        bookStatus: values.bookStatus,
        forceOCR: values.forceOCR,
        autoSplitFootnote: values.autoSplitFootnote,
        language: values.language,
        ...(values.originalLanguage && values.originalLanguage !== AUTO_DETECT
          ? { originalLanguage: values.originalLanguage }
          : {}),
      });
      setRequest({ requestId, title: bookName, language: values.language });
      setStep(2);
    } catch (error) {
      setSaveError(error);
    } finally {
      setSaving(false);
    }
  };

  const restart = () => {
    abortRef.current?.abort();
    setStep(0);
    setFileState(null);
    setFileHint(null);
    setInfo(null);
    setRequest(null);
    setFinished(null);
    setSaveError(null);
    void counts.refetch();
    void queryClient.invalidateQueries({ queryKey: UNFINISHED_KEY });
  };

  const stepItems = [
    { title: t('books.wizard.selectFile') },
    { title: t('books.wizard.editInfo') },
    { title: t('books.wizard.progress') },
    { title: t('books.wizard.done') },
  ];

  return (
    <div className="yd-upload">
      <header className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('pages.upload.title')}</h1>
          <span className="yd-library-count">{t('books.upload.subtitle')}</span>
        </div>
      </header>
      <div className="yd-panel yd-wizard">
        <Steps
          className="yd-wizard-steps"
          current={step}
          status={step === 3 ? 'finish' : 'process'}
          items={stepItems}
          size="small"
          responsive={false}
          titlePlacement={narrow ? 'vertical' : 'horizontal'}
        />

        {step === 0 && (
          <div className="yd-step">
            <UnfinishedUploads
              onContinue={(upload) => {
                setRequest({
                  requestId: upload.requestId,
                  title: upload.bookName,
                  language: upload.language ?? readingLanguage,
                });
                setStep(2);
              }}
            />
            <Upload.Dragger
              accept={BOOK_ACCEPT}
              multiple={false}
              showUploadList={false}
              beforeUpload={(file) => {
                chooseFile(file);
                return Upload.LIST_IGNORE;
              }}
              className="yd-dropzone"
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{t('books.upload.drop')}</p>
              <p className="ant-upload-hint">{t('books.upload.formats', { max: maxFileMb })}</p>
            </Upload.Dragger>

            {fileState && (
              <div className={`yd-file-row is-${fileState.status}`} data-testid="upload-file">
                <FileTextOutlined className="yd-file-icon" />
                <div className="yd-file-body">
                  <div className="yd-file-name">{fileState.file.name}</div>
                  <div className="yd-muted yd-file-meta">
                    {formatBytes(fileState.file.size)} · {extensionOf(fileState.file.name).slice(1).toUpperCase()}
                    {fileState.status === 'uploaded' && (
                      <>
                        {' · '}
                        <span className="yd-file-ok">
                          <CheckCircleOutlined /> <span>{t('books.upload.uploaded')}</span>
                        </span>
                      </>
                    )}
                  </div>
                  {fileState.status === 'uploading' && (
                    <Progress
                      percent={Math.round(fileState.progress * 100)}
                      size="small"
                      status="active"
                      strokeColor="var(--yd-accent)"
                    />
                  )}
                </div>
                <Button
                  type="text"
                  icon={<CloseOutlined />}
                  aria-label={t('books.upload.remove')}
                  onClick={removeFile}
                />
              </div>
            )}
            {fileState?.status === 'failed' && (
              <Alert
                type="error"
                showIcon
                role="alert"
                className="yd-form-alert"
                title={t('books.stageFailed.uploading')}
                description={errorMessage(fileState.error)}
                action={
                  <Button size="small" danger onClick={() => void startUpload(fileState.file)}>
                    {t('books.retry')}
                  </Button>
                }
              />
            )}
            {fileHint && !fileState && <Alert type="warning" showIcon title={fileHint} className="yd-form-alert" />}
            <WizardFooter>
              <Button type="primary" onClick={next}>
                {t('books.wizard.next')}
              </Button>
            </WizardFooter>
          </div>
        )}

        {step === 1 && info && (
          <div className="yd-step">
            <InfoStep
              initial={info}
              isPdf={fileState?.status === 'uploaded' && fileState.format === 'pdf'}
              fromFile={fileState?.status === 'uploaded' ? fileState.metadata : null}
              saving={saving}
              saveError={saveError}
              onBack={(values) => {
                setInfo(values);
                setSaveError(null);
                setStep(0);
              }}
              onSubmit={(values) => void saveInfo(values)}
            />
          </div>
        )}

        {step === 2 && request && (
          <div className="yd-step">
            <ProgressStep
              key={request.requestId}
              requestId={request.requestId}
              title={request.title}
              targetLanguage={request.language}
              onChooseAnother={restart}
              onComplete={(result) => {
                setFinished(result);
                setStep(3);
                void queryClient.invalidateQueries({ queryKey: ['books'] });
              }}
            />
          </div>
        )}

        {step === 3 && finished && (
          <Result
            status="success"
            title={t('books.wizard.successTitle')}
            subTitle={t('books.wizard.successText', { name: finished.bookName })}
            extra={
              <div className="yd-success-actions">
                <Button type="primary" onClick={() => void navigate('/books/user')}>
                  {t('books.wizard.toLibrary')}
                </Button>
                <Button onClick={restart}>{t('books.wizard.uploadNext')}</Button>
                {finished.bookCode && (
                  <Button
                    type="link"
                    icon={<ReadOutlined />}
                    onClick={() =>
                      openBook({ bookCode: finished.bookCode!, bookName: finished.bookName, coverUrl: null })
                    }
                  >
                    {t('books.wizard.readNow')}
                  </Button>
                )}
              </div>
            }
          />
        )}
      </div>
      <LimitModal counts={limit} open={limit !== null} onClose={() => setLimit(null)} />
    </div>
  );
}
