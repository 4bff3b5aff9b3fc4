import type { CodeSentResult, LoginBody, LoginResult, RegisterBody, RegisterResult } from '@yidu/shared/auth';
import { api } from './client.ts';

/** SPEC §7.2 */
export const authApi = {
  login: (body: LoginBody) => api.post<LoginResult>('/auth/login', body, { authRedirect: false }),
  register: (body: RegisterBody) => api.post<RegisterResult>('/auth/register', body, { authRedirect: false }),
  /** type 0 = registration, 1 = password reset. */
  getVerificationCode: (phone: string, type: 0 | 1 = 0) =>
    api.post<CodeSentResult>('/auth/getVerificationCode', undefined, { query: { type, phone }, authRedirect: false }),
  confirmAccount: (code: string) =>
    api.post<{ account: string }>('/auth/confirmAccount', undefined, { query: { code }, authRedirect: false }),
  forgotPasswordCode: (account: string, uiLanguage?: string) =>
    api.post<CodeSentResult>('/auth/forgot-password-code', { account, uiLanguage }, { authRedirect: false }),
  resetPassword: (body: { account: string; code: string; password: string }) =>
    api.post<null>('/auth/resetPassword', body, { authRedirect: false }),
};
