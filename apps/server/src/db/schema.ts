import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A timestamptz; optional on insert where the column has a default. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** int8 columns come back from pg as strings; we parse them where read. */
type BigIntColumn = ColumnType<string, number | bigint | string, number | bigint | string>;
type DefaultedBigInt = ColumnType<string, number | bigint | string | undefined, number | bigint | string>;

export type UserStatus = 'pending' | 'active' | 'disabled';

export interface UsersTable {
  id: Generated<number>;
  account: string;
  email: string | null;
  phone: string | null;
  password_hash: string;
  username: string;
  nickname: string | null;
  avatar: string | null;
  invite_code: string;
  invited_by: number | null;
  role: Generated<'user' | 'admin'>;
  status: UserStatus;
  language: string;
  ui_language: string | null;
  common_languages: Generated<string[]>;
  default_share_public: Generated<boolean>;
  deduct_mode: Generated<'autoDeduct' | 'deductAfterConfirmation'>;
  points_balance: DefaultedBigInt;
  login_count: Generated<number>;
  last_login_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  kind: Generated<'login' | 'impersonation'>;
  ip: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export type CodePurpose = 'register' | 'reset' | 'activation';

export interface VerificationCodesTable {
  id: Generated<number>;
  purpose: CodePurpose;
  /** A phone number for 'register', a user id for 'reset' and 'activation'. */
  target: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: CreatedAt;
  ip: string | null;
}

export interface InviteCodesTable {
  code: string;
  created_by: number | null;
  max_uses: number | null;
  used_count: Generated<number>;
  expires_at: NullableTimestamp;
  note: string | null;
  created_at: CreatedAt;
}

export interface PointsLedgerTable {
  id: Generated<BigIntColumn>;
  user_id: number;
  type: 'income' | 'expenditure';
  points: BigIntColumn;
  balance_before: BigIntColumn;
  reason: string;
  detail: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  idempotency_key: string | null;
  created_at: CreatedAt;
}

export interface LoginEventsTable {
  id: Generated<BigIntColumn>;
  user_id: number | null;
  account: string;
  ip: string | null;
  success: boolean;
  reason: string | null;
  created_at: CreatedAt;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  invite_codes: InviteCodesTable;
  points_ledger: PointsLedgerTable;
  login_events: LoginEventsTable;
  rate_limits: RateLimitsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
