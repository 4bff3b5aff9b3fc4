import { useState } from 'react';
import { App, Button, Form, Image, Input, Select, Skeleton, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_STATUSES, type Feedback } from '@yidu/shared/social';
import { feedbackApi, type FeedbackStatus } from '../../api/feedback.ts';
import { errorMessage } from '../../api/errors.ts';
import { useFormatDateTime } from '../account/format.ts';

export const STATUS_COLORS: Record<FeedbackStatus, string> = {
  unresolved: 'orange',
  inProgress: 'blue',
  resolved: 'green',
  closed: 'default',
};

/** One feedback entry: description, image, status and reply; admins answer and set the status. */
export function FeedbackDetail({ id, admin }: { id: number; admin: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const formatDateTime = useFormatDateTime();
  const [saving, setSaving] = useState(false);
  const detail = useQuery({ queryKey: ['feedback', 'detail', id], queryFn: () => feedbackApi.detail(id) });

  const save = async (values: { status: FeedbackStatus; reply?: string }) => {
    setSaving(true);
    try {
      const next = await feedbackApi.setStatus(id, values.status, values.reply?.trim() || undefined);
      queryClient.setQueryData<Feedback>(['feedback', 'detail', id], next);
      void queryClient.invalidateQueries({ queryKey: ['feedback', 'list'] });
      void message.success(t('feedback.statusSaved'));
    } catch (error) {
      void message.error(`${t('feedback.statusFailed')}: ${errorMessage(error)}`);
    } finally {
      setSaving(false);
    }
  };

  if (detail.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (detail.isError) return <Typography.Text type="danger">{errorMessage(detail.error)}</Typography.Text>;
  const f = detail.data;
  return (
    <div className="yd-feedback-detail" data-testid="feedback-detail">
      <Typography.Title level={4} className="yd-feedback-detail-title">
        {f.title}
      </Typography.Title>
      <div className="yd-feedback-detail-meta">
        <Tag>{t(`feedback.type.${f.type}`)}</Tag>
        <Tag color={STATUS_COLORS[f.status]}>{t(`feedback.status.${f.status}`)}</Tag>
        <span className="yd-muted">
          {f.user?.username ?? t('feedback.deletedUser')} · {formatDateTime(f.createdAt)}
        </span>
      </div>
      <h4>{t('feedback.field.description')}</h4>
      <Typography.Paragraph className="yd-feedback-text">{f.description}</Typography.Paragraph>
      {f.imageUrl && (
        <>
          <h4>{t('feedback.field.image')}</h4>
          <Image src={f.imageUrl} alt={t('feedback.field.image')} className="yd-feedback-image" />
        </>
      )}
      <h4>{t('feedback.reply')}</h4>
      {f.reply ? (
        <div className="yd-feedback-reply">{f.reply}</div>
      ) : (
        <Typography.Paragraph type="secondary">{t('feedback.noReply')}</Typography.Paragraph>
      )}
      {admin && (
        <Form
          key={f.updatedAt}
          name="feedback-status"
          layout="vertical"
          className="yd-feedback-admin"
          initialValues={{ status: f.status, reply: f.reply ?? '' }}
          onFinish={(values: { status: FeedbackStatus; reply?: string }) => void save(values)}
        >
          <h4>{t('feedback.adminTitle')}</h4>
          <Form.Item name="status" label={t('feedback.field.status')}>
            <Select options={FEEDBACK_STATUSES.map((s) => ({ value: s, label: t(`feedback.status.${s}`) }))} />
          </Form.Item>
          <Form.Item name="reply" label={t('feedback.reply')}>
            <Input.TextArea
              maxLength={5000}
              autoSize={{ minRows: 3, maxRows: 8 }}
              placeholder={t('feedback.replyPlaceholder')}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('feedback.saveStatus')}
          </Button>
        </Form>
      )}
    </div>
  );
}
