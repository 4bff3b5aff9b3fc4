import { useEffect, useState } from 'react';
import { Alert, App, Button, Modal, Spin, Tag } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TranslationReport, TranslationVersion } from '@yidu/shared/glossary';
import { errorMessage } from '../../api/errors.ts';
import { glossaryApi } from '../../api/glossary.ts';
import { parseInline, renderInline } from '../reader/inlineMarkup.tsx';
import './glossary.css';

export interface WrongTranslationProps {
  bookCode: string;
  language: string;
  blockId: string;
  /** The paragraph in the book's language. */
  original: { text: string; html: string | null };
  /** The reader kept a translation: it is the paragraph's translation from now on. */
  onChosen: (blockId: string, translation: string) => void;
  onClose: () => void;
}

/** Which engine made a translation, in words: the AI model's name, or the translation service's. */
function useEngineName() {
  const { t } = useTranslation();
  return (version: TranslationVersion) =>
    version.engine === 'llm'
      ? t('glossary.wrong.model', { model: version.model ?? '' })
      : t(`glossary.wrong.engine.${version.engine ?? 'unknown'}`, { defaultValue: version.engine ?? '' });
}

/**
 * "This translation is wrong": the paragraph is translated again by another engine or model, and the
 * reader sees both side by side and keeps one; the kept one becomes the translation every reader gets.
 */
export function WrongTranslationModal(props: WrongTranslationProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const engineName = useEngineName();
  const [report, setReport] = useState<TranslationReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [choosing, setChoosing] = useState<'original' | 'alternative' | null>(null);
  const { bookCode, language, blockId } = props;

  useEffect(() => {
    let live = true;
    glossaryApi
      .report(bookCode, language, blockId)
      .then((r) => live && setReport(r))
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [bookCode, language, blockId]);

  const choose = async (choice: 'original' | 'alternative') => {
    if (!report) return;
    setChoosing(choice);
    try {
      const decided = await glossaryApi.choose(report.id, choice);
      props.onChosen(blockId, decided[choice].translation);
      void message.success(
        choice === 'alternative' ? t('glossary.wrong.keptAlternative') : t('glossary.wrong.keptOriginal'),
      );
      props.onClose();
    } catch (e) {
      void message.error(errorMessage(e));
    } finally {
      setChoosing(null);
    }
  };

  const version = (which: 'original' | 'alternative', label: string) => {
    const v = report![which];
    return (
      <section className={`yd-wrong-version is-${which}`} data-version={which}>
        <header>
          <strong>{label}</strong>
          <Tag bordered={false}>{engineName(v)}</Tag>
        </header>
        <p className="yd-wrong-text">{renderInline(parseInline(v.translation))}</p>
        <Button
          type={which === 'alternative' ? 'primary' : 'default'}
          icon={<CheckOutlined />}
          loading={choosing === which}
          disabled={choosing !== null}
          onClick={() => void choose(which)}
        >
          {t('glossary.wrong.keep')}
        </Button>
      </section>
    );
  };

  return (
    <Modal
      open
      title={t('glossary.wrong.title')}
      onCancel={props.onClose}
      footer={null}
      width={760}
      className="yd-wrong-modal"
    >
      <blockquote className="yd-wrong-original yd-wrong-text">
        {renderInline(parseInline(props.original.html, props.original.text))}
      </blockquote>
      {error ? (
        <Alert type="error" showIcon message={errorMessage(error)} />
      ) : !report ? (
        <div className="yd-wrong-loading">
          <Spin /> <span>{t('glossary.wrong.translating')}</span>
        </div>
      ) : (
        <>
          <p className="yd-muted">{t('glossary.wrong.hint')}</p>
          <div className="yd-wrong-compare">
            {version('original', t('glossary.wrong.current'))}
            {version('alternative', t('glossary.wrong.another'))}
          </div>
        </>
      )}
    </Modal>
  );
}
