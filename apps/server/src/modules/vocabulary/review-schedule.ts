import { REVIEW_INTERVAL_DAYS, type ReviewResult } from '@yidu/shared';

/**
 * The review schedule: Leitner boxes, the simplest spaced repetition that works on paper. A new word
 * is in box 0 and due at once. "Known" moves it up one box and it comes back after that box's interval
 * (1, 3, 7, 14, 30, 60, then every 120 days); "again" puts it back in box 0, due again in a few
 * minutes, so it returns before the review session ends.
 */
export interface ReviewState {
  box: number;
  reviews: number;
  lapses: number;
}

export const TOP_BOX = REVIEW_INTERVAL_DAYS.length - 1;
/** A word marked "again" comes back after this long. */
export const AGAIN_MINUTES = 10;
const DAY_MS = 86_400_000;

export function nextReview(
  state: ReviewState,
  result: ReviewResult,
  now: Date,
): ReviewState & { dueAt: Date; lastReviewedAt: Date } {
  if (result === 'again') {
    return {
      box: 0,
      reviews: state.reviews + 1,
      lapses: state.lapses + 1,
      dueAt: new Date(now.getTime() + AGAIN_MINUTES * 60_000),
      lastReviewedAt: now,
    };
  }
  const box = Math.min(Math.max(0, state.box) + 1, TOP_BOX);
  return {
    box,
    reviews: state.reviews + 1,
    lapses: state.lapses,
    dueAt: new Date(now.getTime() + REVIEW_INTERVAL_DAYS[box]! * DAY_MS),
    lastReviewedAt: now,
  };
}
