import { useState } from 'react';
import { App, Button, Form, Input, Select, Upload, type UploadFile } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_TYPES, type Feedback } from '@yidu/shared/social';
import { feedbackApi, type FeedbackType } from '../../api/feedback.ts';
import { errorMessage } from '../../api/errors.ts';
import { FEEDBACK_IMAGE_ACCEPT, feedbackImageProblem } from './imageRules.ts';

interface Values {
  title: string;
  type: FeedbackType;
  description: string;
}

/** The add-feedback form (SPEC §2.4 Feedback, §5.6): title and description required, optional image. */
export function FeedbackForm({ onSent, onCancel }: { onSent: (feedback: Feedback) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (values: Values) => {
    setSending(true);
    try {
      const sent = await feedbackApi.add({
        title: values.title.trim(),
        type: values.type,
        description: values.description.trim(),
        image,
      });
      void message.success(t('feedback.sent'));
      form.resetFields();
      setImage(null);
      onSent(sent);
    } catch (error) {
      void message.error(`${t('feedback.sendFailed')}: ${errorMessage(error)}`);
    } finally {
      setSending(false);
    }
  };

  const fileList: UploadFile[] = image
    ? [{ uid: 'image', name: image.name, status: 'done', originFileObj: image as UploadFile['originFileObj'] }]
    : [];

  return (
    <Form<Values>
      form={form}
      name="feedback"
      layout="vertical"
      initialValues={{ type: 'systemBug' }}
      onFinish={(values) => void submit(values)}
      requiredMark="optional"
    >
      <Form.Item
        name="title"
        label={t('feedback.field.title')}
        rules={[{ required: true, whitespace: true, message: t('feedback.titleRequired') }]}
      >
        <Input maxLength={200} placeholder={t('feedback.titlePlaceholder')} />
      </Form.Item>
      <Form.Item name="type" label={t('feedback.field.type')} rules={[{ required: true }]}>
        <Select options={FEEDBACK_TYPES.map((type) => ({ value: type, label: t(`feedback.type.${type}`) }))} />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('feedback.field.description')}
        rules={[{ required: true, whitespace: true, message: t('feedback.descriptionRequired') }]}
      >
        <Input.TextArea
          maxLength={10_000}
          autoSize={{ minRows: 4, maxRows: 12 }}
          placeholder={t('feedback.descriptionPlaceholder')}
        />
      </Form.Item>
      <Form.Item
        label={t('feedback.field.image')}
        extra={t('feedback.imageHint')}
        validateStatus={imageError ? 'error' : undefined}
        help={imageError ?? undefined}
      >
        <Upload
          accept={FEEDBACK_IMAGE_ACCEPT}
          maxCount={1}
          listType="picture"
          fileList={fileList}
          onRemove={() => {
            setImage(null);
            return true;
          }}
          beforeUpload={(file) => {
            const problem = feedbackImageProblem(file);
            if (problem) {
              setImageError(t(`errors.${problem}`));
              return Upload.LIST_IGNORE;
            }
            setImageError(null);
            setImage(file);
            return false;
          }}
        >
          <Button icon={<PictureOutlined />}>{t('feedback.chooseImage')}</Button>
        </Upload>
      </Form.Item>
      <div className="yd-form-actions">
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={sending}>
          {t('feedback.submit')}
        </Button>
      </div>
    </Form>
  );
}
