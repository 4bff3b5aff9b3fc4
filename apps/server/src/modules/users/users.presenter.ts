import { findLanguage, type UserInfo } from '@yidu/shared';
import type { UserRow } from '../../db/schema.ts';

/** The one place a user row becomes the API's UserInfo (never the hash, never internal fields). */
export function toUserInfo(row: UserRow): UserInfo {
  const language = findLanguage(row.language);
  return {
    id: row.id,
    account: row.account,
    username: row.username,
    nickname: row.nickname,
    email: row.email,
    phone: row.phone,
    avatar: row.avatar,
    inviteCode: row.invite_code,
    role: row.role,
    language: language?.name ?? 'Chinese',
    languageCode: language?.code ?? 'zh',
    commonLanguages: row.common_languages,
    defaultSharePublic: row.default_share_public,
    deductMode: row.deduct_mode,
    translationEngine: row.translation_engine,
    points: Number(row.points_balance),
    createdAt: row.created_at.toISOString(),
  };
}
