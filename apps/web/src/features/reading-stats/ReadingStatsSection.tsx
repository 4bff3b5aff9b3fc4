import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Skeleton, Table, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { vocabularyApi, type ReadingStats } from '../../api/vocabulary.ts';
import { useFormatDate, useOpenBook } from '../books/bookUtils.ts';
import { calendarWeeks, levelOf } from './calendar.ts';
import './reading-stats.css';

const CALENDAR_DAYS = 182;

/** "1 小时 5 分钟", "12 分钟". */
export function useFormatDuration(): (seconds: number) => string {
  const { t } = useTranslation();
  return (seconds) => {
    if (seconds > 0 && seconds < 60) return t('stats.underAMinute');
    const minutes = Math.floor(seconds / 60);
    return minutes >= 60
      ? t('stats.hoursMinutes', { hours: Math.floor(minutes / 60), minutes: minutes % 60 })
      : t('stats.minutes', { minutes });
  };
}

function Calendar({ stats }: { stats: ReadingStats }) {
  const { t } = useTranslation();
  const duration = useFormatDuration();
  const formatDate = useFormatDate();
  const weeks = calendarWeeks(stats.from, stats.to, stats.days);
  return (
    <figure className="yd-calendar" aria-label={t('stats.calendar')}>
      <figcaption>{t('stats.calendar')}</figcaption>
      <div className="yd-calendar-grid">
        {weeks.map((week, w) => (
          <div key={w} className="yd-calendar-week">
            {week.map((day, d) =>
              day ? (
                <Tooltip
                  key={day.date}
                  title={
                    day.seconds > 0 || day.pages > 0
                      ? t('stats.dayTip', {
                          date: formatDate(`${day.date}T12:00:00`),
                          time: duration(day.seconds),
                          pages: day.pages,
                        })
                      : t('stats.dayNone', { date: formatDate(`${day.date}T12:00:00`) })
                  }
                >
                  <span className={`yd-calendar-day yd-level-${levelOf(day.seconds)}`} data-date={day.date} />
                </Tooltip>
              ) : (
                <span key={`x${d}`} className="yd-calendar-day is-outside" />
              ),
            )}
          </div>
        ))}
      </div>
      <div className="yd-calendar-legend yd-muted">
        {t('stats.less')}
        {[0, 1, 2, 3, 4].map((level) => (
          <span key={level} className={`yd-calendar-day yd-level-${level}`} />
        ))}
        {t('stats.more')}
      </div>
    </figure>
  );
}

/** The personal center's reading statistics: totals, a calendar of days read, and each book. */
export function ReadingStatsSection() {
  const { t } = useTranslation();
  const duration = useFormatDuration();
  const formatDate = useFormatDate();
  const openBook = useOpenBook();
  const query = useQuery({ queryKey: ['readingStats'], queryFn: () => vocabularyApi.stats(CALENDAR_DAYS) });
  const stats = query.data;
  if (!stats) return <Skeleton active paragraph={{ rows: 4 }} />;
  const totals = [
    { key: 'time', label: t('stats.time'), value: duration(stats.totalSeconds) },
    { key: 'pages', label: t('stats.pages'), value: String(stats.totalPages) },
    { key: 'lookups', label: t('stats.lookups'), value: String(stats.totalLookups) },
    { key: 'days', label: t('stats.daysRead'), value: t('stats.days', { count: stats.daysRead }) },
    { key: 'streak', label: t('stats.streak'), value: t('stats.days', { count: stats.streak }) },
  ];
  return (
    <div className="yd-reading-stats">
      <dl className="yd-stats-totals">
        {totals.map((item) => (
          <div key={item.key} className="yd-stats-total" data-total={item.key}>
            <dt>{item.label}</dt>
            <dd>{item.value}</dd>
          </div>
        ))}
      </dl>
      <Calendar stats={stats} />
      {stats.books.length === 0 ? (
        <Empty description={t('stats.empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Table
          size="small"
          rowKey="bookCode"
          pagination={stats.books.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
          dataSource={stats.books}
          scroll={{ x: 560 }}
          columns={[
            {
              key: 'book',
              title: t('stats.col.book'),
              render: (_, b) => (
                <Button
                  type="link"
                  size="small"
                  className="yd-stats-book"
                  onClick={() => openBook({ bookCode: b.bookCode, bookName: b.bookTitle, coverUrl: null })}
                >
                  {b.bookTitle}
                </Button>
              ),
            },
            { key: 'time', title: t('stats.time'), render: (_, b) => duration(b.seconds) },
            { key: 'pages', title: t('stats.pages'), dataIndex: 'pages', align: 'end' },
            { key: 'lookups', title: t('stats.lookups'), dataIndex: 'lookups', align: 'end' },
            { key: 'words', title: t('stats.col.words'), dataIndex: 'words', align: 'end' },
            { key: 'last', title: t('stats.col.last'), render: (_, b) => formatDate(b.lastReadAt) },
          ]}
        />
      )}
      <p className="yd-muted yd-stats-foot">
        {t('stats.hint')} <Link to="/vocabulary">{t('stats.openVocabulary')}</Link>
      </p>
    </div>
  );
}
