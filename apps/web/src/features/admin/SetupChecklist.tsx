import { useState } from 'react';
import { Link } from 'react-router';
import { App, Button, Skeleton, Table, Tag, Typography } from 'antd';
import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  QuestionCircleFilled,
  SyncOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors.ts';
import { SETUP_QUERY, setupApi, type CheckItem, type CheckStatus, type EngineHealth } from '../../api/setup.ts';
import { useFormatDateTime } from '../account/format.ts';

const STATUS_ICON: Record<CheckStatus, React.ReactNode> = {
  ok: <CheckCircleFilled className="yd-check-icon is-ok" />,
  warning: <ExclamationCircleFilled className="yd-check-icon is-warning" />,
  missing: <CloseCircleFilled className="yd-check-icon is-missing" />,
  failing: <CloseCircleFilled className="yd-check-icon is-failing" />,
  unknown: <QuestionCircleFilled className="yd-check-icon is-unknown" />,
};

/** Where an admin fixes an item. */
const ACTION: Partial<Record<CheckItem['id'], { tab: string; label: string }>> = {
  translation: { tab: 'engines', label: 'admin.setup.toEngines' },
  explanationModel: { tab: 'ai', label: 'admin.setup.toModels' },
  annotationModel: { tab: 'ai', label: 'admin.setup.toModels' },
  invites: { tab: 'invites', label: 'admin.setup.toInvites' },
};

/** The sentence of an item in its state (annotations that borrow the explanation model say so). */
export function itemText(t: (key: string, options?: Record<string, unknown>) => string, item: CheckItem): string {
  const d = item.detail;
  const variant =
    item.id === 'annotationModel' && d.source === 'inherited' && item.status !== 'missing'
      ? `inherited.${item.status}`
      : item.id === 'invites' && item.status === 'ok'
        ? d.required
          ? 'ok'
          : 'open'
        : item.status;
  return t(`admin.setup.item.${item.id}.${variant}`, d);
}

/** The set-up checklist (what is missing, what does not work) and the health of every engine. */
export function SetupChecklist() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const formatDateTime = useFormatDateTime();
  const report = useQuery({ queryKey: SETUP_QUERY, queryFn: setupApi.report });
  const [checking, setChecking] = useState(false);

  if (report.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (report.isError) return <Typography.Text type="danger">{errorMessage(report.error)}</Typography.Text>;
  const { items, health, probeMinutes } = report.data;

  const checkNow = async () => {
    setChecking(true);
    try {
      queryClient.setQueryData(SETUP_QUERY, await setupApi.check());
    } catch (error) {
      void message.error(`${t('admin.setup.checkFailed')}: ${errorMessage(error)}`);
    } finally {
      setChecking(false);
    }
  };
  const when = (iso: string | null) => (iso ? formatDateTime(iso) : t('admin.setup.never'));
  const nameOf = (h: EngineHealth) =>
    h.kind === 'translation'
      ? t(`settings.engine.${h.name}`, { defaultValue: h.name })
      : t(`admin.ai.use.${h.name}`, { defaultValue: h.name });

  return (
    <div className="yd-admin-stack">
      <section className="yd-panel" aria-label={t('admin.setup.title')}>
        <div className="yd-chart-card-head">
          <Typography.Title level={5} className="yd-section-title">
            {t('admin.setup.title')}
          </Typography.Title>
          <Button icon={<SyncOutlined />} loading={checking} onClick={() => void checkNow()}>
            {t('admin.setup.checkNow')}
          </Button>
        </div>
        <p className="yd-muted">
          {probeMinutes > 0 ? t('admin.setup.hint', { minutes: probeMinutes }) : t('admin.setup.hintNoProbe')}
        </p>
        <ul className="yd-checklist">
          {items.map((item) => {
            const action = ACTION[item.id];
            return (
              <li key={item.id} className={`yd-check is-${item.status}`} data-testid={`check-${item.id}`}>
                {STATUS_ICON[item.status]}
                <div className="yd-check-body">
                  <div className="yd-check-head">
                    <strong>{t(`admin.setup.item.${item.id}.title`)}</strong>
                    {item.essential && <Tag>{t('admin.setup.essential')}</Tag>}
                    <span className={`yd-check-status is-${item.status}`}>
                      {t(`admin.setup.status.${item.status}`)}
                    </span>
                  </div>
                  <div className="yd-check-text">{itemText(t, item)}</div>
                </div>
                {action && item.status !== 'ok' && (
                  <Link to={`/admin/test?tab=${action.tab}`} className="yd-check-action">
                    {t(action.label)}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      </section>
      <section className="yd-panel" aria-label={t('admin.setup.health.title')}>
        <Typography.Title level={5} className="yd-section-title">
          {t('admin.setup.health.title')}
        </Typography.Title>
        <Table<EngineHealth>
          size="small"
          rowKey="key"
          pagination={false}
          scroll={{ x: true }}
          dataSource={health}
          locale={{ emptyText: t('admin.setup.health.none') }}
          columns={[
            { key: 'name', title: t('admin.setup.health.engine'), render: (_, h) => nameOf(h) },
            { key: 'model', title: t('admin.setup.health.model'), render: (_, h) => h.model ?? '—' },
            {
              key: 'status',
              title: t('admin.setup.health.status'),
              render: (_, h) => (
                <span className={`yd-check-status is-${h.status}`}>{t(`admin.setup.status.${h.status}`)}</span>
              ),
            },
            { key: 'ok', title: t('admin.setup.health.lastSuccess'), render: (_, h) => when(h.lastSuccessAt) },
            { key: 'fail', title: t('admin.setup.health.lastFailure'), render: (_, h) => when(h.lastFailureAt) },
            {
              key: 'ms',
              title: t('admin.setup.health.latency'),
              render: (_, h) => (h.latencyMs === null ? '—' : t('admin.setup.health.ms', { ms: h.latencyMs })),
            },
            {
              key: 'by',
              title: t('admin.setup.health.checkedBy'),
              render: (_, h) => (h.checkedBy ? t(`admin.setup.health.by.${h.checkedBy}`) : '—'),
            },
            {
              key: 'error',
              title: t('admin.setup.health.error'),
              render: (_, h) =>
                h.lastError ? (
                  <span className="yd-check-error">{h.lastError}</span>
                ) : (
                  <span className="yd-muted">—</span>
                ),
            },
          ]}
        />
      </section>
    </div>
  );
}
