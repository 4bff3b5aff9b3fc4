import { describe, expect, it } from 'vitest';
import { calendarWeeks, levelOf } from './calendar.ts';

describe('the calendar of days read', () => {
  it('lays the days out in weeks from Monday, with the days outside the range left empty', () => {
    // 2026-03-04 is a Wednesday, 2026-03-16 a Monday.
    const weeks = calendarWeeks('2026-03-04', '2026-03-16', [{ date: '2026-03-10', seconds: 900, pages: 3 }]);
    expect(weeks).toHaveLength(3);
    expect(weeks[0]!.map((d) => d?.date ?? null)).toEqual([
      null,
      null,
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
    ]);
    expect(weeks[1]![1]).toEqual({ date: '2026-03-10', seconds: 900, pages: 3 });
    expect(weeks[2]!.map((d) => d?.date ?? null)).toEqual(['2026-03-16', null, null, null, null, null, null]);
  });

  it('shades a day by the time read', () => {
    expect([0, 1, 599, 600, 1799, 1800, 3599, 3600, 36000].map(levelOf)).toEqual([0, 1, 1, 2, 2, 3, 3, 4, 4]);
  });
});
