import type { Feedback, FeedbackPage, FEEDBACK_STATUSES, FEEDBACK_TYPES } from '@yidu/shared/social';
import { api, request } from './client.ts';

export type FeedbackType = (typeof FEEDBACK_TYPES)[number];
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

export interface FeedbackSearch {
  page?: number;
  pageSize?: number;
  status?: FeedbackStatus;
  type?: FeedbackType;
  keyword?: string;
}

export interface NewFeedback {
  title: string;
  type: FeedbackType;
  description: string;
  image?: File | null;
}

/** Feedback (SPEC §2.4, §3.13): multipart add, search (admins see all), details, status with a reply. */
export const feedbackApi = {
  add: ({ title, type, description, image }: NewFeedback) => {
    const form = new FormData();
    form.append('title', title);
    form.append('type', type);
    form.append('description', description);
    if (image) form.append('image', image, image.name);
    return request<Feedback>('/feedback/add', { method: 'POST', body: form });
  },
  search: (query: FeedbackSearch) => api.get<FeedbackPage>('/feedback/search', { query: { ...query } }),
  detail: (id: number) => api.get<Feedback>(`/feedback/${id}`),
  setStatus: (id: number, status: FeedbackStatus, reply?: string) =>
    api.post<Feedback>(`/feedback/${id}/status`, { status, reply }),
};
