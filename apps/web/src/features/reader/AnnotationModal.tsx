import { useState } from 'react';
import { Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

export interface AnnotationModalProps {
  open: boolean;
  quote: string;
  initial?: string;
  saving?: boolean;
  onSave: (content: string) => void;
  onCancel: () => void;
}

/** Adds (or edits) an annotation; empty content is refused (SPEC §5.7). */
export function AnnotationModal({ open, quote, initial = '', saving, onSave, onCancel }: AnnotationModalProps) {
  const { t } = useTranslation();
  const [content, setContent] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!content.trim()) {
      setError(t('errors.annotationEmpty'));
      return;
    }
    onSave(content.trim());
  };
  return (
    <Modal
      open={open}
      title={initial ? t('reader.annotation.editTitle') : t('reader.annotation.title')}
      okText={t('reader.annotation.save')}
      cancelText={t('common.cancel')}
      onOk={submit}
      onCancel={onCancel}
      confirmLoading={saving}
      destroyOnHidden
    >
      {quote && <blockquote className="yd-anno-quote">{quote}</blockquote>}
      <Input.TextArea
        autoFocus
        aria-label={t('reader.annotation.label')}
        placeholder={t('reader.annotation.placeholder')}
        value={content}
        status={error ? 'error' : undefined}
        autoSize={{ minRows: 3, maxRows: 10 }}
        maxLength={10_000}
        onChange={(e) => {
          setContent(e.target.value);
          if (error && e.target.value.trim()) setError(null);
        }}
      />
      {error && (
        <div className="yd-field-error" role="alert">
          {error}
        </div>
      )}
    </Modal>
  );
}
