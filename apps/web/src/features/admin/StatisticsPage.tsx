import { useState, type ReactNode } from 'react';
import {
  Button,
  DatePicker,
  Empty,
  Form,
  InputNumber,
  Segmented,
  Select,
  Skeleton,
  Statistic,
  Table,
  Typography,
} from 'antd';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { adminApi, type FrequentOperator, type OldLoginUser } from '../../api/admin.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useFormatNumber } from '../books/bookUtils.ts';
import { useFormatDateTime } from '../account/format.ts';
import { Chart, PALETTE, daysEnding, pivot } from './charts.tsx';
import '../books/books.css';
import '../account/account.css';
import './admin.css';

const DAY = 'YYYY-MM-DD';
const RANGE_CHOICES = [7, 14, 30, 60, 90];

function ChartCard({
  title,
  extra,
  query,
  children,
}: {
  title: string;
  extra?: ReactNode;
  query: UseQueryResult<unknown>;
  children: () => ReactNode;
}) {
  return (
    <section className="yd-panel yd-chart-card" aria-label={title}>
      <header className="yd-chart-card-head">
        <Typography.Title level={5} className="yd-section-title">
          {title}
        </Typography.Title>
        {extra}
      </header>
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 5 }} title={false} />
      ) : query.isError ? (
        <Typography.Text type="danger">{errorMessage(query.error)}</Typography.Text>
      ) : (
        children()
      )}
    </section>
  );
}

/** /admin/statistics: uploads, registrations, logins, retention, usage by feature and engine (SPEC §7.7). */
export default function StatisticsPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.statistics.title'));
  const formatNumber = useFormatNumber();
  const [end, setEnd] = useState<Dayjs>(() => dayjs());
  const [days, setDays] = useState(14);
  const [visibility, setVisibility] = useState<'all' | 0 | 1>('all');
  const [base, setBase] = useState<Dayjs>(() => dayjs().subtract(7, 'day'));
  const [nDays, setNDays] = useState(7);
  const date = end.format(DAY);
  const windowDays = daysEnding(date, days);

  const uploads = useQuery({
    queryKey: ['admin', 'uploads', date, days, visibility],
    queryFn: () => adminApi.uploads({ date, days, bookStatus: visibility === 'all' ? undefined : visibility }),
  });
  const registrations = useQuery({
    queryKey: ['admin', 'registrations', date, days],
    queryFn: () => adminApi.registrations({ date, days }),
  });
  const logins = useQuery({
    queryKey: ['admin', 'logins', date, days],
    queryFn: () => adminApi.logins({ date, days }),
  });
  const loginCount = useQuery({
    queryKey: ['admin', 'loginCount', date, days],
    queryFn: () => adminApi.loginCount({ date, days }),
  });
  const retention = useQuery({
    queryKey: ['admin', 'retention', base.format(DAY), nDays],
    queryFn: () => adminApi.retention({ baseDate: base.format(DAY), nDays }),
  });
  const usage = useQuery({ queryKey: ['admin', 'usage', date, days], queryFn: () => adminApi.usage({ date, days }) });

  const uploadTotal = uploads.data?.reduce((s, d) => s + d.total, 0);
  const registrationTotal = registrations.data?.reduce((s, d) => s + d.count, 0);
  const count = (v: number) => formatNumber(v);
  const percent = (v: number) => `${Math.round(v * 100)}%`;

  return (
    <div className="yd-admin-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('pages.statistics.title')}</h1>
          <span className="yd-library-count">{t('admin.stats.subtitle')}</span>
        </div>
        <div className="yd-admin-range">
          <label>
            <span className="yd-muted">{t('admin.stats.endDate')}</span>
            <DatePicker
              value={end}
              onChange={(d) => d && setEnd(d)}
              allowClear={false}
              disabledDate={(d) => d.isAfter(dayjs(), 'day')}
              aria-label={t('admin.stats.endDate')}
            />
          </label>
          <label>
            <span className="yd-muted">{t('admin.stats.range')}</span>
            <Select<number>
              value={days}
              onChange={setDays}
              aria-label={t('admin.stats.range')}
              options={RANGE_CHOICES.map((d) => ({ value: d, label: t('admin.stats.lastDays', { n: d }) }))}
              style={{ minWidth: 130 }}
            />
          </label>
        </div>
      </div>

      <div className="yd-admin-kpis">
        <div className="yd-panel">
          <Statistic title={t('admin.stats.uploads')} value={uploadTotal ?? '–'} loading={uploads.isPending} />
        </div>
        <div className="yd-panel">
          <Statistic
            title={t('admin.stats.registrations')}
            value={registrationTotal ?? '–'}
            loading={registrations.isPending}
          />
        </div>
        <div className="yd-panel">
          <Statistic
            title={t('admin.stats.logins')}
            value={loginCount.data?.logins ?? '–'}
            loading={loginCount.isPending}
          />
        </div>
        <div className="yd-panel">
          <Statistic
            title={t('admin.stats.activeUsers')}
            value={loginCount.data?.users ?? '–'}
            loading={loginCount.isPending}
          />
        </div>
      </div>

      <div className="yd-chart-grid">
        <ChartCard
          title={t('admin.stats.uploadsPerDay')}
          query={uploads}
          extra={
            <Segmented<'all' | 0 | 1>
              size="small"
              value={visibility}
              onChange={setVisibility}
              options={[
                { value: 'all', label: t('admin.stats.all') },
                { value: 1, label: t('books.public') },
                { value: 0, label: t('books.private') },
              ]}
            />
          }
        >
          {() => (
            <Chart
              title={t('admin.stats.uploadsPerDay')}
              format={count}
              integer
              data={uploads.data!.map((d) => ({
                x: d.day,
                values: { completed: d.completed, running: d.running, failed: d.failed },
              }))}
              series={[
                { key: 'completed', label: t('admin.stats.completed'), color: PALETTE[1]! },
                { key: 'running', label: t('admin.stats.running'), color: PALETTE[3]! },
                { key: 'failed', label: t('admin.stats.failed'), color: PALETTE[0]! },
              ]}
            />
          )}
        </ChartCard>
        <ChartCard title={t('admin.stats.visibilityPerDay')} query={uploads}>
          {() => (
            <Chart
              title={t('admin.stats.visibilityPerDay')}
              format={count}
              integer
              data={uploads.data!.map((d) => ({ x: d.day, values: { public: d.public, private: d.private } }))}
              series={[
                { key: 'public', label: t('books.public'), color: PALETTE[5]! },
                { key: 'private', label: t('books.private'), color: PALETTE[7]! },
              ]}
            />
          )}
        </ChartCard>
        <ChartCard title={t('admin.stats.registrationsPerDay')} query={registrations}>
          {() => (
            <Chart
              title={t('admin.stats.registrationsPerDay')}
              format={count}
              integer
              data={registrations.data!.map((d) => ({ x: d.day, values: { count: d.count } }))}
              series={[{ key: 'count', label: t('admin.stats.registrations'), color: PALETTE[2]! }]}
            />
          )}
        </ChartCard>
        <ChartCard title={t('admin.stats.loginsPerDay')} query={logins}>
          {() => (
            <Chart
              kind="line"
              title={t('admin.stats.loginsPerDay')}
              format={count}
              integer
              data={logins.data!.map((d) => ({
                x: d.day,
                values: { logins: d.logins, users: d.users, failures: d.failures },
              }))}
              series={[
                { key: 'logins', label: t('admin.stats.logins'), color: PALETTE[2]! },
                { key: 'users', label: t('admin.stats.activeUsers'), color: PALETTE[1]! },
                { key: 'failures', label: t('admin.stats.failedLogins'), color: PALETTE[0]! },
              ]}
            />
          )}
        </ChartCard>
        <ChartCard
          title={t('admin.stats.retention')}
          query={retention}
          extra={
            <div className="yd-admin-inline">
              <DatePicker
                size="small"
                value={base}
                onChange={(d) => d && setBase(d)}
                allowClear={false}
                disabledDate={(d) => d.isAfter(dayjs(), 'day')}
                aria-label={t('admin.stats.baseDate')}
              />
              <Select<number>
                size="small"
                value={nDays}
                onChange={setNDays}
                aria-label={t('admin.stats.followDays')}
                options={[7, 14, 30].map((d) => ({ value: d, label: t('admin.stats.nextDays', { n: d }) }))}
              />
            </div>
          }
        >
          {() => (
            <>
              <p className="yd-muted yd-chart-note">
                {t('admin.stats.cohort', { n: retention.data!.cohort, date: retention.data!.baseDate })}
              </p>
              <Chart
                title={t('admin.stats.retention')}
                format={percent}
                xLabel={(x) => t('admin.stats.dayN', { n: x })}
                data={retention.data!.days.map((d) => ({ x: String(d.day), values: { rate: d.rate } }))}
                series={[{ key: 'rate', label: t('admin.stats.retentionRate'), color: PALETTE[4]! }]}
              />
            </>
          )}
        </ChartCard>
        <ChartCard title={t('admin.stats.pointsByFeature')} query={usage}>
          {() => {
            const { data, keys } = pivot(windowDays, usage.data!.pointsByFeature, (r) => ({
              day: r.day,
              key: r.feature,
              value: r.points,
            }));
            return (
              <Chart
                title={t('admin.stats.pointsByFeature')}
                format={count}
                integer
                data={data}
                series={keys.map((k, i) => ({
                  key: k,
                  label: t(`points.reason.${k}`, { defaultValue: k }),
                  color: PALETTE[i % PALETTE.length]!,
                }))}
              />
            );
          }}
        </ChartCard>
        <ChartCard title={t('admin.stats.charactersByEngine')} query={usage}>
          {() => {
            const { data, keys } = pivot(windowDays, usage.data!.charactersByEngine, (r) => ({
              day: r.day,
              key: r.engine,
              value: r.characters,
            }));
            return (
              <Chart
                title={t('admin.stats.charactersByEngine')}
                format={count}
                integer
                data={data}
                series={keys.map((k, i) => ({
                  key: k,
                  label: t(`settings.engine.${k}`, { defaultValue: k }),
                  color: PALETTE[(i + 2) % PALETTE.length]!,
                }))}
              />
            );
          }}
        </ChartCard>
      </div>

      <UserActivity date={date} />
    </div>
  );
}

/** findOldLoginUser and findFrequentOperators: who has gone quiet, who is very busy. */
function UserActivity({ date }: { date: string }) {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  const [old, setOld] = useState<{ regDay: number; lastLoginDay: number } | null>(null);
  const [frequent, setFrequent] = useState<number | null>(null);
  const oldUsers = useQuery({
    queryKey: ['admin', 'oldUsers', old],
    queryFn: () => adminApi.oldLoginUsers(old!),
    enabled: old !== null,
  });
  const operators = useQuery({
    queryKey: ['admin', 'frequent', date, frequent],
    queryFn: () => adminApi.frequentOperators({ date, count: frequent! }),
    enabled: frequent !== null,
  });
  return (
    <div className="yd-chart-grid">
      <section className="yd-panel" aria-label={t('admin.stats.oldUsers')}>
        <Typography.Title level={5} className="yd-section-title">
          {t('admin.stats.oldUsers')}
        </Typography.Title>
        <Form
          layout="inline"
          className="yd-admin-form"
          initialValues={{ regDay: 30, lastLoginDay: 30 }}
          onFinish={(v: { regDay: number; lastLoginDay: number }) => setOld(v)}
        >
          <Form.Item name="regDay" label={t('admin.stats.regDays')}>
            <InputNumber min={0} max={3650} />
          </Form.Item>
          <Form.Item name="lastLoginDay" label={t('admin.stats.lastLoginDays')}>
            <InputNumber min={0} max={3650} />
          </Form.Item>
          <Button htmlType="submit">{t('admin.find')}</Button>
        </Form>
        {old &&
          (oldUsers.isError ? (
            <Typography.Text type="danger">{errorMessage(oldUsers.error)}</Typography.Text>
          ) : (
            <Table<OldLoginUser>
              size="small"
              rowKey="id"
              loading={oldUsers.isFetching}
              dataSource={oldUsers.data ?? []}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              scroll={{ x: true }}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
              columns={[
                { key: 'u', title: t('admin.user'), render: (_, u) => `${u.username} (${u.account})` },
                { key: 'c', title: t('admin.registered'), render: (_, u) => formatDateTime(u.created_at) },
                { key: 'l', title: t('admin.lastLogin'), render: (_, u) => formatDateTime(u.last_login_at) },
                { key: 'n', title: t('admin.loginCount'), dataIndex: 'login_count', align: 'right' },
              ]}
            />
          ))}
      </section>
      <section className="yd-panel" aria-label={t('admin.stats.frequent')}>
        <Typography.Title level={5} className="yd-section-title">
          {t('admin.stats.frequent')}
        </Typography.Title>
        <Form
          layout="inline"
          className="yd-admin-form"
          initialValues={{ count: 20 }}
          onFinish={(v: { count: number }) => setFrequent(v.count)}
        >
          <Form.Item name="count" label={t('admin.stats.minOperations', { date })}>
            <InputNumber min={1} max={100000} />
          </Form.Item>
          <Button htmlType="submit">{t('admin.find')}</Button>
        </Form>
        {frequent !== null &&
          (operators.isError ? (
            <Typography.Text type="danger">{errorMessage(operators.error)}</Typography.Text>
          ) : (
            <Table<FrequentOperator>
              size="small"
              rowKey="id"
              loading={operators.isFetching}
              dataSource={operators.data ?? []}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              scroll={{ x: true }}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
              columns={[
                { key: 'u', title: t('admin.user'), render: (_, u) => `${u.username} (${u.account})` },
                { key: 'l', title: t('admin.stats.logins'), dataIndex: 'logins', align: 'right' },
                { key: 'up', title: t('admin.stats.uploads'), dataIndex: 'uploads', align: 'right' },
                { key: 'p', title: t('admin.stats.paidActions'), dataIndex: 'paidActions', align: 'right' },
                { key: 't', title: t('admin.stats.total'), dataIndex: 'total', align: 'right' },
              ]}
            />
          ))}
      </section>
    </div>
  );
}
