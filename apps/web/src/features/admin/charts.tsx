import { Grid } from 'antd';
import { useTranslation } from 'react-i18next';

export interface Series {
  key: string;
  label: string;
  color: string;
}

export const PALETTE = [
  '#b4562f',
  '#5b8a3a',
  '#3f6f9a',
  '#d9a441',
  '#8a5a9e',
  '#2d8a84',
  '#c7745a',
  '#6b6158',
  '#9a3c4b',
];

interface ChartProps {
  /** One entry per x position (usually a day), with a number per series key. */
  data: { x: string; values: Record<string, number> }[];
  series: Series[];
  kind?: 'stacked' | 'line';
  height?: number;
  /** Formats y values (axis, tooltips): counts by default. */
  format?: (value: number) => string;
  /** Whole numbers only on the y axis (counts). */
  integer?: boolean;
  /** The x label under the axis: by default 'MM-DD' of a 'YYYY-MM-DD' day. */
  xLabel?: (x: string) => string;
  title: string;
}

const PAD = { top: 12, right: 12, bottom: 28, left: 44 };

/** A nice round maximum for the y axis. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * magnitude >= value)!;
  return step * magnitude;
}

const shortDay = (x: string) => (/^\d{4}-\d{2}-\d{2}$/.test(x) ? x.slice(5) : x);

/** A small hand-made SVG chart: stacked bars or lines over days, with a legend (no chart library). */
export function Chart({
  data,
  series,
  kind = 'stacked',
  height = 220,
  format = String,
  integer = false,
  xLabel = shortDay,
  title,
}: ChartProps) {
  const { t } = useTranslation();
  // A narrower drawing on phones keeps the axis text readable.
  const narrow = Grid.useBreakpoint().sm === false;
  const W = narrow ? 360 : 640;
  const innerW = W - PAD.left - PAD.right;
  const innerH = height - PAD.top - PAD.bottom;
  const totals = data.map((d) =>
    kind === 'stacked'
      ? series.reduce((sum, s) => sum + (d.values[s.key] ?? 0), 0)
      : Math.max(0, ...series.map((s) => d.values[s.key] ?? 0)),
  );
  const top = niceMax(Math.max(0, ...totals));
  // Counts: four whole-number steps.
  const max = integer ? Math.max(4, Math.ceil(top / 4) * 4) : top;
  const empty = totals.every((v) => v === 0);
  const band = innerW / Math.max(1, data.length);
  const barW = Math.max(2, Math.min(28, band * 0.64));
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
  const labelEvery = Math.ceil(data.length / (narrow ? 5 : 10));

  return (
    <figure className="yd-chart" data-empty={empty || undefined}>
      <svg viewBox={`0 0 ${W} ${height}`} role="img" aria-label={title} preserveAspectRatio="xMidYMid meet">
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="yd-chart-grid" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="yd-chart-axis">
              {format(Math.round(v * 100) / 100)}
            </text>
          </g>
        ))}
        {data.map((d, i) => {
          const cx = PAD.left + band * i + band / 2;
          return (
            <g key={d.x}>
              {i % labelEvery === 0 && (
                <text x={cx} y={height - 8} textAnchor="middle" className="yd-chart-axis">
                  {xLabel(d.x)}
                </text>
              )}
              {kind === 'stacked' &&
                (() => {
                  let base = 0;
                  return series.map((s) => {
                    const v = d.values[s.key] ?? 0;
                    if (v <= 0) return null;
                    const top = y(base + v);
                    const rect = (
                      <rect
                        key={s.key}
                        x={cx - barW / 2}
                        y={top}
                        width={barW}
                        height={y(base) - top}
                        fill={s.color}
                        rx={2}
                        className="yd-chart-bar"
                      >
                        <title>{`${xLabel(d.x)} · ${s.label}: ${format(v)}`}</title>
                      </rect>
                    );
                    base += v;
                    return rect;
                  });
                })()}
            </g>
          );
        })}
        {kind === 'line' &&
          series.map((s) => {
            const points = data.map((d, i) => [PAD.left + band * i + band / 2, y(d.values[s.key] ?? 0)] as const);
            return (
              <g key={s.key}>
                <polyline
                  points={points.map((p) => p.join(',')).join(' ')}
                  fill="none"
                  stroke={s.color}
                  strokeWidth={2}
                  strokeLinejoin="round"
                />
                {points.map(([px, py], i) => (
                  <circle key={data[i]!.x} cx={px} cy={py} r={3} fill={s.color}>
                    <title>{`${xLabel(data[i]!.x)} · ${s.label}: ${format(data[i]!.values[s.key] ?? 0)}`}</title>
                  </circle>
                ))}
              </g>
            );
          })}
        {empty && (
          <text x={PAD.left + innerW / 2} y={PAD.top + innerH / 2} textAnchor="middle" className="yd-chart-empty">
            {t('admin.noData')}
          </text>
        )}
      </svg>
      <figcaption className="yd-chart-legend">
        {series.map((s) => (
          <span key={s.key}>
            <i style={{ background: s.color }} />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** Pivots rows of {day, key, value} into chart data over the given days, and the series keys found. */
export function pivot<T>(
  days: string[],
  rows: T[],
  pick: (row: T) => { day: string; key: string; value: number },
): { data: { x: string; values: Record<string, number> }[]; keys: string[] } {
  const byDay = new Map(days.map((d) => [d, {} as Record<string, number>]));
  const keys = new Set<string>();
  for (const row of rows) {
    const { day, key, value } = pick(row);
    keys.add(key);
    const values = byDay.get(day);
    if (values) values[key] = (values[key] ?? 0) + value;
  }
  return { data: days.map((d) => ({ x: d, values: byDay.get(d)! })), keys: [...keys].sort() };
}

/** The 'YYYY-MM-DD' days of a window ending on `end` (inclusive), oldest first. */
export function daysEnding(end: string, count: number): string[] {
  const [y, m, d] = end.split('-').map(Number);
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const date = new Date(Date.UTC(y!, m! - 1, d! - i));
    out.push(date.toISOString().slice(0, 10));
  }
  return out;
}
