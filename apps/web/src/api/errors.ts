import { LOGIN_CODES } from '@yidu/shared/errors';
import i18n from '../i18n/index.ts';
import { ApiError } from './client.ts';

export interface ErrorMessageOptions {
  /** Login has its own codes and fallback (SPEC §8.2). */
  context?: 'login';
}

/** A translated, human message for any failure: by error key, with the server's words as the last resort. */
export function errorMessage(error: unknown, options: ErrorMessageOptions = {}): string {
  const t = i18n.t.bind(i18n);
  if (!(error instanceof ApiError)) {
    return error instanceof Error && error.message ? error.message : t('errors.unknown');
  }
  if (options.context === 'login') {
    if (error.code === LOGIN_CODES.wrongPassword) return t('login.wrongPassword');
    if (error.code === LOGIN_CODES.noSuchUser) return t('login.noSuchUser');
  }
  const key = `errors.${error.key}`;
  if (error.key !== 'unknown' && i18n.exists(key)) return t(key, { ...(error.data ?? {}) });
  if (options.context === 'login') return t('login.failed');
  return error.message || t('errors.unknown');
}
