import { Empty, Skeleton, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pointsApi } from '../../api/points.ts';
import { errorMessage } from '../../api/errors.ts';
import { useFormatNumber } from '../books/bookUtils.ts';

const PAGE_SIZE = 100;
/** At most this many records are read for the chart (a very busy month is summarised from its newest). */
const MAX_PAGES = 10;

/** Sums the 30-day expenditure per reason, largest first. */
export function spendingByFeature(records: { reason: string; points: number }[]): { reason: string; points: number }[] {
  const totals = new Map<string, number>();
  for (const r of records) totals.set(r.reason, (totals.get(r.reason) ?? 0) + r.points);
  return [...totals].map(([reason, points]) => ({ reason, points })).sort((a, b) => b.points - a.points);
}

async function loadSpending() {
  const first = await pointsApi.list({ type: 'expenditure', page: 1, pageSize: PAGE_SIZE });
  const items = [...first.items];
  const pages = Math.min(MAX_PAGES, Math.ceil(first.total / PAGE_SIZE));
  for (let page = 2; page <= pages; page++) {
    items.push(...(await pointsApi.list({ type: 'expenditure', page, pageSize: PAGE_SIZE })).items);
  }
  return spendingByFeature(items);
}

/** Horizontal bars of the points spent per feature in the last 30 days (plain CSS, no chart library). */
export function SpendingChart() {
  const { t } = useTranslation();
  const formatNumber = useFormatNumber();
  const spending = useQuery({ queryKey: ['points', 'spending'], queryFn: loadSpending });
  if (spending.isPending) return <Skeleton active paragraph={{ rows: 3 }} title={false} />;
  if (spending.isError) return <Typography.Text type="secondary">{errorMessage(spending.error)}</Typography.Text>;
  if (spending.data.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('points.chartEmpty')} />;
  const max = Math.max(...spending.data.map((s) => s.points), 1);
  return (
    <ul className="yd-hbars" aria-label={t('points.chartTitle')}>
      {spending.data.map((s) => (
        <li key={s.reason}>
          <span className="yd-hbars-label">{t(`points.reason.${s.reason}`, { defaultValue: s.reason })}</span>
          <span className="yd-hbars-track">
            <span className="yd-hbars-bar" style={{ width: `${Math.max(2, (s.points / max) * 100)}%` }} />
          </span>
          <span className="yd-hbars-value">{formatNumber(s.points)}</span>
        </li>
      ))}
    </ul>
  );
}
