import { useState } from 'react';
import { Alert, Button, Descriptions, Empty, Skeleton, Table, Tag, Typography } from 'antd';
import { ApiOutlined, ReloadOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, type EngineName, type EngineTest, type QueueEntry } from '../../api/admin.ts';
import { errorMessage } from '../../api/errors.ts';
import { useFormatNumber } from '../books/bookUtils.ts';

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** The result of one engine test, in words. */
export function EngineTestResult({ result }: { result: EngineTest | Error }) {
  const { t } = useTranslation();
  if (result instanceof Error) return <Tag color="red">{errorMessage(result)}</Tag>;
  return result.ok ? (
    <Tag color="green">{t('admin.engines.testOk', { ms: result.ms, sample: result.sample ?? '' })}</Tag>
  ) : (
    <Tag color="red">{t('admin.engines.testFailed', { error: result.error ?? '' })}</Tag>
  );
}

/** Engine tests, queue round trip, queue state and system info. */
export function Diagnostics() {
  const { t } = useTranslation();
  const formatNumber = useFormatNumber();
  const system = useQuery({ queryKey: ['admin', 'system'], queryFn: adminApi.systemInfo });
  const queue = useQuery({ queryKey: ['admin', 'queue'], queryFn: adminApi.queue });
  const [tests, setTests] = useState<Record<string, EngineTest | Error | 'running'>>({});
  const [roundTrip, setRoundTrip] = useState<{ ok: boolean; roundTripMs: number; state: string | null } | Error | null>(
    null,
  );
  const [checking, setChecking] = useState(false);

  const test = async (name: EngineName) => {
    setTests((s) => ({ ...s, [name]: 'running' }));
    try {
      const result = await adminApi.testEngine(name);
      setTests((s) => ({ ...s, [name]: result }));
    } catch (error) {
      setTests((s) => ({ ...s, [name]: error instanceof Error ? error : new Error(String(error)) }));
    }
  };
  const checkQueue = async () => {
    setChecking(true);
    try {
      setRoundTrip(await adminApi.queueCheck());
    } catch (error) {
      setRoundTrip(error instanceof Error ? error : new Error(String(error)));
    } finally {
      setChecking(false);
      void queue.refetch();
    }
  };

  const info = system.data;
  return (
    <div className="yd-admin-stack">
      <section className="yd-panel" aria-label={t('admin.diag.engines')}>
        <Typography.Title level={5} className="yd-section-title">
          {t('admin.diag.engines')}
        </Typography.Title>
        <p className="yd-muted">{t('admin.diag.enginesHint')}</p>
        {system.isPending ? (
          <Skeleton active paragraph={{ rows: 2 }} title={false} />
        ) : !info?.translationEngines.length ? (
          <Alert type="warning" showIcon title={t('admin.diag.noEngines')} />
        ) : (
          <ul className="yd-admin-list">
            {info.translationEngines.map((name) => {
              const state = tests[name];
              return (
                <li key={name}>
                  <strong>{t(`settings.engine.${name}`, { defaultValue: name })}</strong>
                  <Button
                    size="small"
                    icon={<ApiOutlined />}
                    loading={state === 'running'}
                    onClick={() => void test(name as EngineName)}
                  >
                    {t('admin.engines.test')}
                  </Button>
                  {state && state !== 'running' && <EngineTestResult result={state} />}
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <section className="yd-panel" aria-label={t('admin.diag.queue')}>
        <div className="yd-chart-card-head">
          <Typography.Title level={5} className="yd-section-title">
            {t('admin.diag.queue')}
          </Typography.Title>
          <div className="yd-admin-inline">
            <Button icon={<ThunderboltOutlined />} loading={checking} onClick={() => void checkQueue()}>
              {t('admin.diag.roundTrip')}
            </Button>
            <Button icon={<ReloadOutlined />} onClick={() => void queue.refetch()} aria-label={t('admin.refresh')} />
          </div>
        </div>
        {roundTrip &&
          (roundTrip instanceof Error ? (
            <Alert type="error" showIcon title={errorMessage(roundTrip)} className="yd-settings-alert" />
          ) : (
            <Alert
              type={roundTrip.ok ? 'success' : 'error'}
              showIcon
              className="yd-settings-alert"
              title={
                roundTrip.ok
                  ? t('admin.diag.roundTripOk', { ms: roundTrip.roundTripMs })
                  : t('admin.diag.roundTripFailed', { state: roundTrip.state ?? '–', ms: roundTrip.roundTripMs })
              }
            />
          ))}
        {queue.isError ? (
          <Typography.Text type="danger">{errorMessage(queue.error)}</Typography.Text>
        ) : (
          <Table<QueueEntry>
            size="small"
            rowKey="name"
            loading={queue.isPending}
            dataSource={queue.data ?? []}
            pagination={false}
            scroll={{ x: 560 }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
            columns={[
              { key: 'name', title: t('admin.diag.job'), render: (_, q) => <code>{q.name}</code> },
              {
                key: 'states',
                title: t('admin.diag.states'),
                render: (_, q) =>
                  Object.entries(q.states).map(([state, n]) => (
                    <Tag key={state} color={state === 'failed' ? 'red' : state === 'active' ? 'blue' : undefined}>
                      {state}: {formatNumber(n)}
                    </Tag>
                  )),
              },
              {
                key: 'oldest',
                title: t('admin.diag.oldestWaiting'),
                render: (_, q) =>
                  q.oldestWaitingSeconds === null ? '–' : t('admin.seconds', { n: q.oldestWaitingSeconds }),
              },
            ]}
          />
        )}
      </section>

      <section className="yd-panel" aria-label={t('admin.diag.system')}>
        <Typography.Title level={5} className="yd-section-title">
          {t('admin.diag.system')}
        </Typography.Title>
        {system.isPending ? (
          <Skeleton active paragraph={{ rows: 6 }} title={false} />
        ) : system.isError ? (
          <Typography.Text type="danger">{errorMessage(system.error)}</Typography.Text>
        ) : (
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, sm: 1, md: 2 }}
            items={[
              { key: 'v', label: t('admin.diag.version'), children: info!.version },
              { key: 'n', label: 'Node.js', children: info!.node },
              { key: 'p', label: 'PostgreSQL', children: info!.postgres },
              { key: 'r', label: t('admin.diag.role'), children: info!.role },
              {
                key: 'u',
                label: t('admin.diag.uptime'),
                children: t('admin.hours', { n: (info!.uptimeSeconds / 3600).toFixed(1) }),
              },
              {
                key: 'm',
                label: t('admin.diag.memory'),
                children: `${formatBytes(info!.memory.rssBytes)} / ${formatBytes(info!.memory.systemTotalBytes)}`,
              },
              {
                key: 'c',
                label: t('admin.diag.cpu'),
                children: `${info!.cpu.cores} · ${info!.cpu.loadAverage.map((l) => l.toFixed(2)).join(' / ')}`,
              },
              {
                key: 'd',
                label: t('admin.diag.disk'),
                children: info!.disk
                  ? t('admin.diag.diskFree', {
                      free: formatBytes(info!.disk.freeBytes),
                      total: formatBytes(info!.disk.totalBytes),
                    })
                  : '–',
              },
              { key: 'db', label: t('admin.diag.database'), children: formatBytes(info!.databaseBytes) },
              { key: 'dir', label: t('admin.diag.dataDir'), children: <code>{info!.dataDir}</code> },
              {
                key: 'e',
                label: t('admin.diag.enginesEnabled'),
                children: info!.translationEngines.join(', ') || '–',
              },
              {
                key: 'l',
                label: t('admin.diag.llm'),
                children: info!.llmConfigured ? t('admin.yes') : t('admin.no'),
              },
            ]}
          />
        )}
      </section>
    </div>
  );
}
