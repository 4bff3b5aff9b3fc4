import { useState } from 'react';
import { App, Button, Empty, Grid, Pagination, Segmented, Skeleton, Switch, Table, Tag, Typography } from 'antd';
import { FallOutlined, RiseOutlined, WalletOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PointsRecord } from '@yidu/shared/auth';
import { pointsApi, type PointsType } from '../../api/points.ts';
import { userApi } from '../../api/user.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useAuth } from '../../stores/auth.ts';
import { useFormatNumber } from '../books/bookUtils.ts';
import { useFormatDateTime } from '../account/format.ts';
import { SpendingChart } from './SpendingChart.tsx';
import '../books/books.css';
import '../account/account.css';
import './points.css';

const PAGE_SIZE = 20;
type Filter = 'all' | PointsType;

/** The translated reason of a points record (unknown keys are shown as they are). */
export function useReasonLabel(): (reason: string) => string {
  const { t } = useTranslation();
  return (reason) => t(`points.reason.${reason}`, { defaultValue: reason });
}

/**
 * What a record bought, or why it was given, in words: the book's title (kept in the record, so it
 * survives a renamed or deleted book), the page and the action — 《白鲸》第 61 页 · 翻译 — with a note
 * (an admin's note, a search's query) when there is one.
 */
export function useRecordText(): (record: PointsRecord) => { label: string; note: string | null } {
  const { t } = useTranslation();
  const reasonLabel = useReasonLabel();
  return (record) => {
    const d = record.detail ?? {};
    const action = reasonLabel(record.reason);
    const title = typeof d.bookTitle === 'string' && d.bookTitle ? d.bookTitle : null;
    const page = typeof d.page === 'number' ? d.page : null;
    // A whole-book translation is one line with its number of pages.
    const pages = typeof d.pages === 'number' ? d.pages : null;
    const label =
      title !== null && pages !== null
        ? t('points.item.wholeBook', { title, count: pages, action })
        : title !== null
          ? page !== null
            ? t('points.item.bookPage', { title, page, action })
            : t('points.item.book', { title, action })
          : page !== null
            ? t('points.item.page', { page, action })
            : action;
    const note =
      typeof d.note === 'string' && d.note && d.note !== record.reason
        ? d.note
        : typeof d.query === 'string' && d.query
          ? t('points.item.query', { query: d.query })
          : null;
    return { label, note };
  };
}

/** /integral: balance, 30 days of income and expenditure, spending per feature, deduction preference. */
export default function PointsPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.points.title'));
  const { message } = App.useApp();
  const screens = Grid.useBreakpoint();
  const narrow = screens.md === false;
  const formatNumber = useFormatNumber();
  const formatDateTime = useFormatDateTime();
  const recordText = useRecordText();
  const user = useAuth((s) => s.user);
  const setUser = useAuth((s) => s.setUser);
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const [savingMode, setSavingMode] = useState(false);

  const list = useQuery({
    queryKey: ['points', filter, page],
    queryFn: () => pointsApi.list({ type: filter === 'all' ? undefined : filter, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

  const setMode = async (confirmFirst: boolean) => {
    setSavingMode(true);
    try {
      const next = await userApi.updateUserinfo({
        deductMode: confirmFirst ? 'deductAfterConfirmation' : 'autoDeduct',
      });
      setUser(next);
      void message.success(t('points.modeSaved'));
    } catch (error) {
      void message.error(`${t('points.modeFailed')}: ${errorMessage(error)}`);
    } finally {
      setSavingMode(false);
    }
  };

  const data = list.data;
  const balance = data?.balance ?? user?.points;
  const signed = (r: PointsRecord) => `${r.type === 'income' ? '+' : '−'}${formatNumber(r.points)}`;

  return (
    <div className="yd-points-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('pages.points.title')}</h1>
          <span className="yd-library-count">{t('points.window')}</span>
        </div>
      </div>

      <div className="yd-points-summary">
        <div className="yd-panel yd-points-balance">
          <span className="yd-muted">{t('user.pointsBalance')}</span>
          <span className="yd-points-balance-value" data-testid="points-page-balance">
            {balance === undefined ? '–' : formatNumber(balance)}
          </span>
          <div className="yd-points-recharge">
            <Button icon={<WalletOutlined />} disabled>
              {t('points.recharge')}
            </Button>
            <Typography.Text type="secondary">{t('user.notAvailable')}</Typography.Text>
          </div>
        </div>
        <div className="yd-panel yd-points-total">
          <span className="yd-muted">
            <RiseOutlined /> {t('points.income30')}
          </span>
          <span className="yd-points-total-value is-income">
            {data ? `${data.income > 0 ? '+' : ''}${formatNumber(data.income)}` : '–'}
          </span>
        </div>
        <div className="yd-panel yd-points-total">
          <span className="yd-muted">
            <FallOutlined /> {t('points.expenditure30')}
          </span>
          <span className="yd-points-total-value is-expenditure">
            {data ? `${data.expenditure > 0 ? '−' : ''}${formatNumber(data.expenditure)}` : '–'}
          </span>
        </div>
      </div>

      <div className="yd-points-columns">
        <section className="yd-panel" aria-labelledby="points-chart-title">
          <Typography.Title level={5} id="points-chart-title" className="yd-section-title">
            {t('points.chartTitle')}
          </Typography.Title>
          <SpendingChart />
        </section>
        <section className="yd-panel yd-points-mode" aria-labelledby="points-mode-title">
          <Typography.Title level={5} id="points-mode-title" className="yd-section-title">
            {t('points.modeTitle')}
          </Typography.Title>
          <label className="yd-switch-row">
            <Switch
              checked={user?.deductMode === 'deductAfterConfirmation'}
              loading={savingMode}
              disabled={!user}
              onChange={(checked) => void setMode(checked)}
              aria-label={t('points.modeConfirm')}
            />
            <span>
              <strong>{t('points.modeConfirm')}</strong>
              <span className="yd-muted">
                {user?.deductMode === 'deductAfterConfirmation'
                  ? t('points.modeConfirmHint')
                  : t('points.modeAutoHint')}
              </span>
            </span>
          </label>
        </section>
      </div>

      <section className="yd-panel" aria-labelledby="points-records-title">
        <div className="yd-points-records-head">
          <Typography.Title level={5} id="points-records-title" className="yd-section-title">
            {t('points.recordsTitle')}
          </Typography.Title>
          <Segmented<Filter>
            value={filter}
            onChange={(value) => {
              setFilter(value);
              setPage(1);
            }}
            options={[
              { value: 'all', label: t('points.filter.all') },
              { value: 'income', label: t('points.filter.income') },
              { value: 'expenditure', label: t('points.filter.expenditure') },
            ]}
          />
        </div>
        {list.isError ? (
          <Empty description={errorMessage(list.error)}>
            <Button onClick={() => void list.refetch()}>{t('books.retry')}</Button>
          </Empty>
        ) : list.isPending ? (
          <Skeleton active paragraph={{ rows: 5 }} title={false} />
        ) : narrow ? (
          data!.items.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('points.empty')} />
          ) : (
            <ul className="yd-points-list">
              {data!.items.map((r) => (
                <li key={r.id}>
                  <div>
                    <strong>{recordText(r).label}</strong>
                    <span className="yd-muted">{formatDateTime(r.createdAt)}</span>
                    {recordText(r).note && <span className="yd-muted">{recordText(r).note}</span>}
                  </div>
                  <div className="yd-points-list-amount">
                    <span className={`yd-points-change is-${r.type}`}>{signed(r)}</span>
                    <span className="yd-muted">
                      {t('points.beforeAfter', {
                        before: formatNumber(r.pointsBefore),
                        after: formatNumber(r.pointsAfter),
                      })}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          )
        ) : (
          <Table<PointsRecord>
            rowKey="id"
            size="middle"
            pagination={false}
            loading={list.isFetching && list.isPlaceholderData}
            dataSource={data!.items}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('points.empty')} /> }}
            columns={[
              {
                key: 'type',
                title: t('points.col.type'),
                render: (_, r) => (
                  <Tag color={r.type === 'income' ? 'green' : 'volcano'}>{t(`points.filter.${r.type}`)}</Tag>
                ),
              },
              {
                key: 'points',
                title: t('points.col.points'),
                align: 'right',
                render: (_, r) => <span className={`yd-points-change is-${r.type}`}>{signed(r)}</span>,
              },
              {
                key: 'before',
                title: t('points.col.before'),
                align: 'right',
                render: (_, r) => formatNumber(r.pointsBefore),
              },
              {
                key: 'after',
                title: t('points.col.after'),
                align: 'right',
                render: (_, r) => formatNumber(r.pointsAfter),
              },
              {
                key: 'reason',
                title: t('points.col.reason'),
                render: (_, r) => {
                  const { label, note } = recordText(r);
                  return (
                    <span className="yd-points-reason">
                      {label}
                      {note && <span className="yd-muted">{note}</span>}
                    </span>
                  );
                },
              },
              { key: 'time', title: t('points.col.time'), render: (_, r) => formatDateTime(r.createdAt) },
            ]}
          />
        )}
        {data && data.total > PAGE_SIZE && (
          <Pagination
            className="yd-points-pagination"
            current={page}
            pageSize={PAGE_SIZE}
            total={data.total}
            onChange={setPage}
            showSizeChanger={false}
            size={narrow ? 'small' : 'medium'}
          />
        )}
      </section>
    </div>
  );
}
