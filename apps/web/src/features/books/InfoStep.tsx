import { useState } from 'react';
import { Alert, App, Button, Checkbox, Form, Input, Radio, Select } from 'antd';
import { GlobalOutlined, LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FileMetadata } from '@yidu/shared/books';
import { errorMessage } from '../../api/errors.ts';
import { confirmPublic } from './confirmPublic.tsx';
import { useLanguageNames } from './bookUtils.ts';
import { WizardFooter } from './WizardFooter.tsx';

export const AUTO_DETECT = 'auto';

export interface InfoValues {
  bookName: string;
  bookAuthor: string;
  bookDescribe: string;
  originalLanguage: string;
  language: string;
  bookStatus: 0 | 1;
  forceOCR: boolean;
  autoSplitFootnote: boolean;
}

interface InfoStepProps {
  initial: InfoValues;
  isPdf: boolean;
  /** What the uploaded file declares about itself (the fields are pre-filled with it). */
  fromFile: FileMetadata | null;
  saving: boolean;
  saveError: unknown;
  onBack: (values: InfoValues) => void;
  onSubmit: (values: InfoValues) => void;
}

/** Step 2: title, author, description, languages, visibility and the parsing options (SPEC §2.4). */
export function InfoStep({ initial, isPdf, fromFile, saving, saveError, onBack, onSubmit }: InfoStepProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<InfoValues>();
  const { options } = useLanguageNames();
  const [status, setStatus] = useState<0 | 1>(initial.bookStatus);

  const languageOptions = options.map((o) => ({
    value: o.code,
    label: o.label,
    search: `${o.label} ${o.native} ${o.value} ${o.code}`.toLowerCase(),
    native: o.native,
  }));
  const renderOption = (option: { data: { label: string; native?: string } }) => (
    <span className="yd-language-option">
      <span>{option.data.label}</span>
      {option.data.native && option.data.native !== option.data.label && (
        <span className="yd-language-native">{option.data.native}</span>
      )}
    </span>
  );
  const filterOption = (input: string, option?: { search?: string }) =>
    !!option?.search?.includes(input.trim().toLowerCase());

  const chooseStatus = (value: 0 | 1) => {
    if (value === 1) confirmPublic(modal, t, () => setStatus(1));
    else setStatus(0);
  };

  return (
    <Form<InfoValues>
      form={form}
      name="book-upload-info"
      layout="vertical"
      initialValues={initial}
      onFinish={(values) => onSubmit({ ...values, bookStatus: status })}
      requiredMark={false}
      className="yd-info-form"
    >
      {fromFile && (fromFile.title || fromFile.author || fromFile.description || fromFile.coverUrl) && (
        <div className="yd-info-from-file" data-testid="info-from-file">
          {fromFile.coverUrl && (
            <img className="yd-info-cover" src={fromFile.coverUrl} alt={t('books.info.coverFromFile')} />
          )}
          <span className="yd-muted">{t('books.info.fromFile')}</span>
        </div>
      )}
      <div className="yd-info-grid">
        <Form.Item
          name="bookName"
          label={t('books.info.name')}
          rules={[{ required: true, whitespace: true, message: t('books.info.nameRequired') }]}
          className="yd-info-wide"
        >
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item name="bookAuthor" label={t('books.info.author')} className="yd-info-wide">
          <Input maxLength={200} placeholder={t('books.anonymous')} />
        </Form.Item>
        <Form.Item name="bookDescribe" label={t('books.info.description')} className="yd-info-wide">
          <Input.TextArea maxLength={5000} autoSize={{ minRows: 3, maxRows: 8 }} placeholder={t('common.optional')} />
        </Form.Item>
        <Form.Item name="originalLanguage" label={t('books.upload.originalLanguage')}>
          <Select
            showSearch={{ filterOption }}
            options={[
              {
                value: AUTO_DETECT,
                label: t('books.upload.autoDetect'),
                search: t('books.upload.autoDetect').toLowerCase(),
              },
              ...languageOptions,
            ]}
            optionRender={renderOption}
          />
        </Form.Item>
        <Form.Item name="language" label={t('books.upload.targetLanguage')} extra={t('books.upload.targetHint')}>
          <Select showSearch={{ filterOption }} options={languageOptions} optionRender={renderOption} />
        </Form.Item>
        <Form.Item label={t('books.upload.visibility')} className="yd-info-wide">
          <Radio.Group
            value={status}
            onChange={(event) => chooseStatus(event.target.value as 0 | 1)}
            optionType="button"
            buttonStyle="solid"
            options={[
              {
                value: 0,
                label: (
                  <>
                    <LockOutlined /> {t('books.private')}
                  </>
                ),
              },
              {
                value: 1,
                label: (
                  <>
                    <GlobalOutlined /> {t('books.public')}
                  </>
                ),
              },
            ]}
          />
        </Form.Item>
        {status === 1 && (
          <Alert className="yd-info-wide" type="warning" showIcon title={t('books.publicConfirm.text')} />
        )}
        <div className="yd-info-wide yd-info-options">
          <Form.Item name="forceOCR" valuePropName="checked" extra={t('books.upload.forceOcrHint')}>
            <Checkbox>{t('books.upload.forceOcr')}</Checkbox>
          </Form.Item>
          <Form.Item name="autoSplitFootnote" valuePropName="checked" extra={t('books.upload.footnoteHint')}>
            <Checkbox>{t('books.upload.footnote')}</Checkbox>
          </Form.Item>
          {!isPdf && <div className="yd-muted yd-info-pdf-note">{t('books.upload.pdfOnlyNote')}</div>}
        </div>
      </div>
      {saveError !== null && (
        <Alert
          type="error"
          showIcon
          role="alert"
          className="yd-form-alert"
          title={t('books.stageFailed.infoSaving')}
          description={errorMessage(saveError)}
          action={
            <Button size="small" danger htmlType="submit" loading={saving}>
              {t('books.retry')}
            </Button>
          }
        />
      )}
      <WizardFooter
        back={
          <Button onClick={() => onBack({ ...form.getFieldsValue(true), bookStatus: status })}>
            {t('books.wizard.previous')}
          </Button>
        }
      >
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('books.wizard.next')}
        </Button>
      </WizardFooter>
    </Form>
  );
}
