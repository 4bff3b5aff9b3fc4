import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import {
  ACCOUNT_PATTERN,
  NICKNAME_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  isStrongPassword,
  isValidEmail,
  isValidPhone,
} from '@yidu/shared/validation';

/** Form rules of SPEC §5 with translated messages; the checks are the shared ones the server uses. */
export function authRules(t: TFunction) {
  const password: FormRule[] = [
    { required: true, message: t('validation.passwordRequired') },
    {
      validator: async (_rule, value: string | undefined) => {
        if (!value) return;
        if (value.length < PASSWORD_MIN_LENGTH) throw new Error(t('validation.passwordLength'));
        if (!isStrongPassword(value)) throw new Error(t('validation.passwordRule'));
      },
    },
  ];
  /** The confirmation must match the field `passwordField` (SPEC §5.2). */
  const confirm = (passwordField = 'password'): FormRule[] => [
    { required: true, message: t('validation.confirmRequired') },
    ({ getFieldValue }) => ({
      validator: async (_rule, value: string | undefined) => {
        if (value && value !== getFieldValue(passwordField)) throw new Error(t('validation.confirmMismatch'));
      },
    }),
  ];
  const email: FormRule[] = [
    { required: true, whitespace: true, message: t('validation.emailRequired') },
    {
      validator: async (_rule, value: string | undefined) => {
        if (value && !isValidEmail(value.trim())) throw new Error(t('validation.email'));
      },
    },
  ];
  const phone: FormRule[] = [
    { required: true, whitespace: true, message: t('validation.phoneRequired') },
    {
      validator: async (_rule, value: string | undefined) => {
        if (value && !isValidPhone(normalizePhone(value))) throw new Error(t('validation.phone'));
      },
    },
  ];
  const account: FormRule[] = [
    {
      validator: async (_rule, value: string | undefined) => {
        if (value && !ACCOUNT_PATTERN.test(value.trim())) throw new Error(t('validation.account'));
      },
    },
  ];
  const nickname: FormRule[] = [
    { max: NICKNAME_MAX_LENGTH, message: t('validation.nicknameTooLong', { max: NICKNAME_MAX_LENGTH }) },
  ];
  const invite = (required: boolean): FormRule[] => [
    { required, whitespace: true, message: t('validation.inviteRequired') },
  ];
  const code: FormRule[] = [{ required: true, whitespace: true, message: t('validation.codeRequired') }];
  const agreement: FormRule[] = [
    {
      validator: async (_rule, value: boolean | undefined) => {
        if (!value) throw new Error(t('validation.agreement'));
      },
    },
  ];
  return { password, confirm, email, phone, account, nickname, invite, code, agreement };
}

/** Spaces and dashes people type in phone numbers are not part of the number. */
export function normalizePhone(value: string): string {
  return value.replace(/[\s()-]/g, '');
}

/** Blank optional fields are left out of the request. */
export function optional(value: string | undefined | null): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
