/** A calendar of days read, as columns of weeks (Monday on top), like a contribution graph. */

export interface CalendarDay {
  date: string;
  seconds: number;
  pages: number;
}

const DAY_MS = 86_400_000;
const parse = (date: string) => Date.parse(`${date}T00:00:00Z`);
const format = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Weeks from the one holding `from` to the one holding `to`; days outside [from, to] are null. */
export function calendarWeeks(
  from: string,
  to: string,
  days: { date: string; seconds: number; pages: number }[],
): (CalendarDay | null)[][] {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const start = parse(from);
  const end = parse(to);
  // Monday = 0 … Sunday = 6.
  const weekday = (ms: number) => (new Date(ms).getUTCDay() + 6) % 7;
  const weeks: (CalendarDay | null)[][] = [];
  for (let monday = start - weekday(start) * DAY_MS; monday <= end; monday += 7 * DAY_MS) {
    const week: (CalendarDay | null)[] = [];
    for (let i = 0; i < 7; i++) {
      const ms = monday + i * DAY_MS;
      const date = format(ms);
      week.push(
        ms < start || ms > end
          ? null
          : { date, seconds: byDate.get(date)?.seconds ?? 0, pages: byDate.get(date)?.pages ?? 0 },
      );
    }
    weeks.push(week);
  }
  return weeks;
}

/** Shade of a day: 0 nothing, then under 10 minutes, 30, an hour, and more. */
export function levelOf(seconds: number): number {
  if (seconds <= 0) return 0;
  if (seconds < 600) return 1;
  if (seconds < 1800) return 2;
  if (seconds < 3600) return 3;
  return 4;
}
