import type { ChangePasswordBody, UpdateUserinfoBody, UserInfo, VeteranResult } from '@yidu/shared/auth';
import { api } from './client.ts';

/** SPEC §7.3 */
export const userApi = {
  getUserinfo: () => api.get<UserInfo>('/user/getUserinfo'),
  updateUserinfo: (body: UpdateUserinfoBody) => api.post<UserInfo>('/user/updateUserinfo', body),
  changePassword: (body: ChangePasswordBody) => api.post<null>('/user/changePassword', body),
  changeLanguage: (language: string) => api.post<UserInfo>('/user/changeLanguage', { language }),
  logout: () => api.post<null>('/user/logout', undefined, { authRedirect: false }),
  checkVeteranUser: () => api.get<VeteranResult>('/user/checkVeteranUser'),
};
