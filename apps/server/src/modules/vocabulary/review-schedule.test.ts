import { describe, expect, it } from 'vitest';
import { AGAIN_MINUTES, nextReview, TOP_BOX } from './review-schedule.ts';

const now = new Date('2026-03-01T08:00:00Z');
const days = (d: Date) => (d.getTime() - now.getTime()) / 86_400_000;

describe('the review schedule (Leitner boxes)', () => {
  it('moves a known word up one box and brings it back after that box’s interval', () => {
    const intervals: number[] = [];
    let state = { box: 0, reviews: 0, lapses: 0 };
    for (let i = 0; i < 9; i++) {
      const next = nextReview(state, 'known', now);
      intervals.push(days(next.dueAt));
      state = next;
    }
    expect(intervals).toEqual([1, 3, 7, 14, 30, 60, 120, 120, 120]);
    expect(state).toMatchObject({ box: TOP_BOX, reviews: 9, lapses: 0 });
  });

  it('sends a forgotten word back to the first box, due again within the session', () => {
    const next = nextReview({ box: 5, reviews: 7, lapses: 1 }, 'again', now);
    expect(next).toMatchObject({ box: 0, reviews: 8, lapses: 2 });
    expect(next.dueAt.getTime() - now.getTime()).toBe(AGAIN_MINUTES * 60_000);
    expect(days(nextReview(next, 'known', now).dueAt)).toBe(1);
  });
});
