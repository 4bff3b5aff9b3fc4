import { INT4_MAX } from './validation.ts';
import { z } from 'zod';
import { AI_FEATURES } from './ai.ts';

/** A share link grants these AI features on one book (SPEC §2.4 Share; Search included). */
export const ShareCreateBody = z.object({
  bookCode: z.string().min(1).max(40),
  features: z.array(z.enum(AI_FEATURES)).max(AI_FEATURES.length),
  /** Days until the link stops working; null = never. */
  expiresInDays: z.number().int().min(1).max(365).nullable().default(null),
});
export type ShareCreateBody = z.infer<typeof ShareCreateBody>;

export const SHARE_STATES = ['active', 'expired', 'revoked'] as const;

export const Share = z.object({
  id: z.string(),
  bookCode: z.string(),
  bookName: z.string(),
  features: z.array(z.enum(AI_FEATURES)),
  /** The page a recipient opens: {origin}/book/share/{id}. */
  url: z.string(),
  state: z.enum(SHARE_STATES),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  /** How many people accepted it. */
  accepted: z.number(),
});
export type Share = z.infer<typeof Share>;

/** What a recipient sees before accepting (GET /book/share/{id}). */
export const ShareInfo = z.object({
  id: z.string(),
  state: z.enum(SHARE_STATES),
  features: z.array(z.enum(AI_FEATURES)),
  sharedBy: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** The caller already accepted it (or owns the book). */
  accepted: z.boolean(),
  isOwner: z.boolean(),
  /**
   * Null when the link no longer holds and the caller has no other way to the book (not its owner,
   * never accepted it, not public): a revoked link tells a stranger nothing about the book.
   */
  book: z
    .object({
      bookCode: z.string(),
      bookName: z.string(),
      bookAuthor: z.string(),
      bookDescribe: z.string(),
      coverUrl: z.string().nullable(),
      format: z.string(),
      pageCount: z.number(),
      originalLanguage: z.string().nullable(),
    })
    .nullable(),
});
export type ShareInfo = z.infer<typeof ShareInfo>;

export const FEEDBACK_TYPES = ['systemBug', 'uiIssue', 'optimizationSuggestion'] as const;
export const FEEDBACK_STATUSES = ['unresolved', 'inProgress', 'resolved', 'closed'] as const;
/** Feedback images: image files only, at most 10 MB (SPEC §5.6). */
export const FEEDBACK_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export const Feedback = z.object({
  id: z.number(),
  title: z.string(),
  type: z.enum(FEEDBACK_TYPES),
  description: z.string(),
  imageUrl: z.string().nullable(),
  status: z.enum(FEEDBACK_STATUSES),
  /** The admins' answer, shown to the user. */
  reply: z.string().nullable(),
  user: z.object({ id: z.number(), username: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Feedback = z.infer<typeof Feedback>;

export const FeedbackQuery = z.object({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(FEEDBACK_STATUSES).optional(),
  type: z.enum(FEEDBACK_TYPES).optional(),
  keyword: z.string().trim().max(100).optional(),
});
export const FeedbackPage = z.object({
  items: z.array(Feedback),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type FeedbackPage = z.infer<typeof FeedbackPage>;

export const FeedbackStatusBody = z.object({
  status: z.enum(FEEDBACK_STATUSES),
  reply: z.string().trim().max(5000).optional(),
});
