import { Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, type AuditEntry } from '../../api/admin.ts';
import { errorMessage } from '../../api/errors.ts';
import { useFormatDateTime } from '../account/format.ts';

/** The audit log of sensitive admin operations. */
export function AuditLog() {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  const log = useQuery({ queryKey: ['admin', 'audit'], queryFn: adminApi.audit });
  return (
    <section className="yd-panel" aria-label={t('admin.audit.title')}>
      <Typography.Title level={5} className="yd-section-title">
        {t('admin.audit.title')}
      </Typography.Title>
      {log.isError ? (
        <Typography.Text type="danger">{errorMessage(log.error)}</Typography.Text>
      ) : (
        <Table<AuditEntry>
          size="small"
          rowKey="id"
          loading={log.isPending}
          dataSource={log.data ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          scroll={{ x: 760 }}
          columns={[
            { key: 'time', title: t('admin.errors.time'), render: (_, e) => formatDateTime(e.createdAt) },
            { key: 'admin', title: t('admin.audit.admin'), render: (_, e) => e.admin ?? '–' },
            {
              key: 'action',
              title: t('admin.audit.action'),
              render: (_, e) => t(`admin.audit.actions.${e.action}`, { defaultValue: e.action }),
            },
            {
              key: 'target',
              title: t('admin.audit.target'),
              // An AI model's target is its use (explanation, annotation…): named as the AI models tab names it.
              render: (_, e) =>
                e.target === null
                  ? '–'
                  : e.action.startsWith('aiModel')
                    ? t(`admin.ai.use.${e.target}`, { defaultValue: e.target })
                    : e.target,
            },
            {
              key: 'detail',
              title: t('admin.audit.detail'),
              render: (_, e) =>
                e.detail ? (
                  <Typography.Text className="yd-admin-detail" ellipsis={{ tooltip: JSON.stringify(e.detail) }}>
                    <code>{JSON.stringify(e.detail)}</code>
                  </Typography.Text>
                ) : (
                  '–'
                ),
            },
            { key: 'ip', title: 'IP', render: (_, e) => e.ip ?? '–' },
          ]}
        />
      )}
    </section>
  );
}
