import { z } from 'zod';
import { ACCOUNT_PATTERN, NICKNAME_MAX_LENGTH, INT4_MAX } from './validation.ts';

/**
 * Request and response shapes of the account calls (SPEC §7.2, §7.3). The server validates with
 * these schemas; the web app uses the inferred types. Password strength, email and phone format are
 * checked by the service so that each failure gets its own error key.
 */
export const RegisterBody = z.object({
  method: z.enum(['email', 'phone']),
  email: z.string().trim().max(254).optional(),
  phone: z.string().trim().max(20).optional(),
  /** Login name; defaults to the email or phone. */
  account: z.string().trim().regex(ACCOUNT_PATTERN).optional(),
  password: z.string().max(128),
  nickname: z.string().trim().max(NICKNAME_MAX_LENGTH).optional(),
  /** Required unless the server runs with REQUIRE_INVITE=false. */
  inviteCode: z.string().trim().max(64).optional(),
  /** The SMS code for phone registration. */
  code: z.string().trim().max(12).optional(),
  /** Reading language, by English name ('Chinese') or code ('zh'). */
  language: z.string().trim().max(40).optional(),
  /** Interface language of the registering browser, used for the activation mail. */
  uiLanguage: z.string().trim().max(8).optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  account: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(128),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** `type` 0 = registration code, 1 = password reset code (SPEC §7.2 sends params {type: 0, phone}). */
export const VerificationCodeQuery = z.object({
  type: z.coerce.number().int().min(0).max(1).default(0),
  phone: z.string().trim().max(20),
});
export type VerificationCodeQuery = z.infer<typeof VerificationCodeQuery>;

export const ConfirmAccountQuery = z.object({ code: z.string().trim().min(1).max(128) });

export const ForgotPasswordCodeBody = z.object({
  account: z.string().trim().min(1).max(254),
  uiLanguage: z.string().trim().max(8).optional(),
});

export const ResetPasswordBody = z.object({
  account: z.string().trim().min(1).max(254),
  code: z.string().trim().min(1).max(12),
  password: z.string().max(128),
});

export const DEDUCT_MODES = ['autoDeduct', 'deductAfterConfirmation'] as const;
export type DeductMode = (typeof DEDUCT_MODES)[number];

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The current user as `/user/getUserinfo` and login answer it. */
export const UserInfo = z.object({
  id: z.number(),
  account: z.string(),
  username: z.string(),
  nickname: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  avatar: z.string().nullable(),
  inviteCode: z.string(),
  role: z.enum(ROLES),
  /** Reading language name (SPEC §3.12), e.g. 'Chinese'. */
  language: z.string(),
  /** Its code, e.g. 'zh'. */
  languageCode: z.string(),
  commonLanguages: z.array(z.string()),
  /** Default visibility for uploads: true = public. */
  defaultSharePublic: z.boolean(),
  deductMode: z.enum(DEDUCT_MODES),
  /** The translation engine the user prefers among the enabled ones; null = the server's order. */
  translationEngine: z.string().nullable(),
  /** A new email address waiting for its owner to open the confirmation link. */
  pendingEmail: z.string().nullable(),
  /** Privacy: whether recipients of the user's share links see the user's name. */
  showNameOnShares: z.boolean(),
  points: z.number(),
  createdAt: z.string(),
});
export type UserInfo = z.infer<typeof UserInfo>;

export const LoginResult = z.object({ token: z.string(), user: UserInfo });
export type LoginResult = z.infer<typeof LoginResult>;

export const RegisterResult = z.object({
  activationRequired: z.boolean(),
  account: z.string(),
  /** Present when no activation is needed: the user is logged in at once. */
  token: z.string().optional(),
  user: UserInfo.optional(),
});
export type RegisterResult = z.infer<typeof RegisterResult>;

/** Answer of the code-sending calls. */
export const CodeSentResult = z.object({
  /** Seconds before another code may be requested (the resend countdown). */
  retryAfter: z.number(),
  /** Where the code went, masked (e.g. '138****5678' or 'a***@example.com'). */
  sentTo: z.string(),
  channel: z.enum(['email', 'phone']),
});
export type CodeSentResult = z.infer<typeof CodeSentResult>;

export const UpdateUserinfoBody = z.object({
  username: z.string().trim().min(1).max(40).optional(),
  nickname: z.string().trim().max(NICKNAME_MAX_LENGTH).nullable().optional(),
  commonLanguages: z.array(z.string().trim().max(40)).max(26).optional(),
  defaultSharePublic: z.boolean().optional(),
  deductMode: z.enum(DEDUCT_MODES).optional(),
  translationEngine: z.string().max(30).nullable().optional(),
  showNameOnShares: z.boolean().optional(),
});
export type UpdateUserinfoBody = z.infer<typeof UpdateUserinfoBody>;

export const ChangePasswordBody = z.object({
  /** The current password; required so that a stolen session cannot take over the account. */
  oldPassword: z.string().min(1).max(128),
  password: z.string().max(128),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** Changing the email address: the current password, then a link to the new address. */
export const ChangeEmailBody = z.object({
  email: z.string().trim().max(254),
  password: z.string().min(1).max(128),
  uiLanguage: z.string().max(8).optional(),
});

/** Deleting the account and everything that belongs to it only (public books stay for their readers). */
export const DeleteAccountBody = z.object({ password: z.string().min(1).max(128) });

/** Answer of /auth/confirmAccount: an activation, or a confirmed change of email address. */
export const ConfirmResult = z.object({
  account: z.string(),
  kind: z.enum(['activation', 'emailChange']),
  email: z.string().optional(),
});
export type ConfirmResult = z.infer<typeof ConfirmResult>;

export const ChangeLanguageBody = z.object({ language: z.string().trim().max(40).default('Chinese') });

export const VeteranResult = z.object({
  /** True once the user has logged in on an earlier day: the welcome guide is skipped. */
  veteran: z.boolean(),
  registeredDays: z.number(),
});
export type VeteranResult = z.infer<typeof VeteranResult>;

/** Public configuration the web app needs before login. */
export const PublicConfig = z.object({
  requireInvite: z.boolean(),
  emailActivation: z.boolean(),
  phoneRegistration: z.boolean(),
  codeResendSeconds: z.number(),
  contactEmail: z.string(),
  version: z.string(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

/** One row of the points history (SPEC §3.11). */
export const PointsRecord = z.object({
  id: z.number(),
  type: z.enum(['income', 'expenditure']),
  /** Points changed (always positive; the type gives the direction). */
  points: z.number(),
  pointsBefore: z.number(),
  pointsAfter: z.number(),
  /** A reason key (signupBonus, adminGrant, translation, explanation, ...); the web app translates it. */
  reason: z.string(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type PointsRecord = z.infer<typeof PointsRecord>;

export const PointsRecordQuery = z.object({
  type: z.enum(['income', 'expenditure']).optional(),
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const PointsRecordPage = z.object({
  items: z.array(PointsRecord),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  balance: z.number(),
  /** Totals of the 30-day window. */
  income: z.number(),
  expenditure: z.number(),
});
export type PointsRecordPage = z.infer<typeof PointsRecordPage>;
