import type { PointsRecordPage } from '@yidu/shared/auth';
import { api } from './client.ts';

export type PointsType = 'income' | 'expenditure';

/** Points history of the last 30 days (SPEC §3.11, §7.3). */
export const pointsApi = {
  list: (query: { type?: PointsType; page?: number; pageSize?: number }) =>
    api.get<PointsRecordPage>('/integral/record/list', { query }),
};
