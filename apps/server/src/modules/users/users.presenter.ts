import { findLanguage, type UserInfo } from '@yidu/shared';
import type { UserRow } from '../../db/schema.ts';

/** Turns a stored avatar key into a URL the browser can load (a signed media URL). */
export type AvatarUrl = (key: string) => string;

/** The one place a user row becomes the API's UserInfo (never the hash, never internal fields). */
export function toUserInfo(row: UserRow, avatarUrl: AvatarUrl): UserInfo {
  const language = findLanguage(row.language);
  return {
    id: row.id,
    account: row.account,
    username: row.username,
    nickname: row.nickname,
    email: row.email,
    phone: row.phone,
    avatar: row.avatar ? avatarUrl(row.avatar) : null,
    inviteCode: row.invite_code,
    role: row.role,
    language: language?.name ?? 'Chinese',
    languageCode: language?.code ?? 'zh',
    commonLanguages: row.common_languages,
    defaultSharePublic: row.default_share_public,
    deductMode: row.deduct_mode,
    translationEngine: row.translation_engine,
    pendingEmail: row.pending_email,
    showNameOnShares: row.show_name_on_shares,
    points: Number(row.points_balance),
    createdAt: row.created_at.toISOString(),
  };
}
