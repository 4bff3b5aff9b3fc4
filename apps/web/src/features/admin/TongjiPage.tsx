import { Table, Typography } from 'antd';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { adminApi } from '../../api/admin.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useFormatDate } from '../books/bookUtils.ts';
import '../books/books.css';
import '../account/account.css';
import './admin.css';

const DAYS = 14;

interface Row {
  day: string;
  uploads: number;
  completed: number;
  failed: number;
  registrations: number;
  logins: number;
  users: number;
}

/** /admin22/tongji: a compact daily summary of the last 14 days. */
export default function TongjiPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.tongji.title'));
  const formatDate = useFormatDate();
  const date = dayjs().format('YYYY-MM-DD');
  const [uploads, registrations, logins] = useQueries({
    queries: [
      { queryKey: ['admin', 'uploads', date, DAYS, 'all'], queryFn: () => adminApi.uploads({ date, days: DAYS }) },
      {
        queryKey: ['admin', 'registrations', date, DAYS],
        queryFn: () => adminApi.registrations({ date, days: DAYS }),
      },
      { queryKey: ['admin', 'logins', date, DAYS], queryFn: () => adminApi.logins({ date, days: DAYS }) },
    ],
  });
  const error = uploads.error ?? registrations.error ?? logins.error;
  const rows: Row[] =
    uploads.data && registrations.data && logins.data
      ? uploads.data
          .map((u) => {
            const login = logins.data.find((l) => l.day === u.day);
            return {
              day: u.day,
              uploads: u.total,
              completed: u.completed,
              failed: u.failed,
              registrations: registrations.data.find((r) => r.day === u.day)?.count ?? 0,
              logins: login?.logins ?? 0,
              users: login?.users ?? 0,
            };
          })
          .reverse()
      : [];
  const sum = (key: keyof Omit<Row, 'day'>) => rows.reduce((s, r) => s + r[key], 0);

  return (
    <div className="yd-admin-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('pages.tongji.title')}</h1>
          <span className="yd-library-count">{t('admin.tongji.subtitle', { n: DAYS })}</span>
        </div>
      </div>
      <div className="yd-panel">
        {error ? (
          <Typography.Text type="danger">{errorMessage(error)}</Typography.Text>
        ) : (
          <Table<Row>
            rowKey="day"
            size="small"
            loading={uploads.isPending || registrations.isPending || logins.isPending}
            dataSource={rows}
            pagination={false}
            scroll={{ x: 640 }}
            columns={[
              {
                key: 'day',
                title: t('admin.tongji.day'),
                render: (_, r) => formatDate(`${r.day}T12:00:00`),
                fixed: 'left',
              },
              { key: 'uploads', dataIndex: 'uploads', title: t('admin.stats.uploads'), align: 'right' },
              { key: 'completed', dataIndex: 'completed', title: t('admin.stats.completed'), align: 'right' },
              {
                key: 'failed',
                title: t('admin.stats.failed'),
                align: 'right',
                render: (_, r) => <span className={r.failed ? 'yd-admin-bad' : undefined}>{r.failed}</span>,
              },
              {
                key: 'registrations',
                dataIndex: 'registrations',
                title: t('admin.stats.registrations'),
                align: 'right',
              },
              { key: 'logins', dataIndex: 'logins', title: t('admin.stats.logins'), align: 'right' },
              { key: 'users', dataIndex: 'users', title: t('admin.stats.activeUsers'), align: 'right' },
            ]}
            summary={() =>
              rows.length ? (
                <Table.Summary.Row className="yd-admin-total-row">
                  <Table.Summary.Cell index={0}>{t('admin.stats.total')}</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    {sum('uploads')}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right">
                    {sum('completed')}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    {sum('failed')}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">
                    {sum('registrations')}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right">
                    {sum('logins')}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right">
                    –
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              ) : null
            }
          />
        )}
      </div>
    </div>
  );
}
