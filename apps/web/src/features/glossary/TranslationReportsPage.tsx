import { useState } from 'react';
import { Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminTranslationReport } from '@yidu/shared/glossary';
import { glossaryApi } from '../../api/glossary.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useFormatDateTime } from '../account/format.ts';
import { parseInline, renderInline } from '../reader/inlineMarkup.tsx';
import '../admin/admin.css';
import './glossary.css';

const STATUS_COLOR = { open: 'default', keptOriginal: 'blue', choseAlternative: 'green' } as const;

/** /admin/translation-reports: paragraphs readers marked as wrongly translated, both translations and what was kept. */
export default function TranslationReportsPage() {
  const { t } = useTranslation();
  usePageTitle(t('glossary.reports.title'));
  const formatDateTime = useFormatDateTime();
  const [page, setPage] = useState(1);
  const pageSize = 20;
  const reports = useQuery({
    queryKey: ['admin', 'translationReports', page],
    queryFn: () => glossaryApi.adminReports(page, pageSize),
  });
  const engine = (r: AdminTranslationReport['original']) =>
    r.engine === 'llm' ? (r.model ?? 'llm') : (r.engine ?? '—');
  const version = (v: AdminTranslationReport['original'], kept: boolean) => (
    <div className={kept ? 'yd-report-kept' : undefined}>
      <Tag bordered={false}>{engine(v)}</Tag>
      <span>{renderInline(parseInline(v.translation))}</span>
    </div>
  );
  return (
    <div className="yd-admin-page">
      <Typography.Title level={3}>{t('glossary.reports.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('glossary.reports.subtitle')}</Typography.Paragraph>
      <Table<AdminTranslationReport>
        rowKey="id"
        loading={reports.isPending}
        dataSource={reports.data?.items ?? []}
        pagination={{ current: page, pageSize, total: reports.data?.total ?? 0, onChange: setPage }}
        scroll={{ x: 900 }}
        columns={[
          {
            title: t('glossary.reports.book'),
            key: 'book',
            width: 170,
            render: (_, r) => (
              <>
                <div>{r.bookTitle}</div>
                <Typography.Text type="secondary">
                  {t('glossary.reports.where', { page: r.page, language: r.language })}
                </Typography.Text>
              </>
            ),
          },
          {
            title: t('glossary.reports.text'),
            dataIndex: 'text',
            width: 220,
            render: (text: string) => <Typography.Paragraph ellipsis={{ rows: 4 }}>{text}</Typography.Paragraph>,
          },
          {
            title: t('glossary.reports.original'),
            key: 'original',
            render: (_, r) => version(r.original, r.status === 'keptOriginal'),
          },
          {
            title: t('glossary.reports.alternative'),
            key: 'alternative',
            render: (_, r) => version(r.alternative, r.status === 'choseAlternative'),
          },
          {
            title: t('glossary.reports.outcome'),
            dataIndex: 'status',
            width: 130,
            render: (status: AdminTranslationReport['status']) => (
              <Tag color={STATUS_COLOR[status]}>{t(`glossary.reports.status.${status}`)}</Tag>
            ),
          },
          {
            title: t('glossary.reports.reporter'),
            key: 'reporter',
            width: 150,
            render: (_, r) => (
              <>
                <div>{r.reporter ?? '—'}</div>
                <Typography.Text type="secondary">{formatDateTime(r.createdAt)}</Typography.Text>
              </>
            ),
          },
        ]}
      />
    </div>
  );
}
