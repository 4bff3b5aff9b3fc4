import {
  findLanguage,
  isStrongPassword,
  isUiLanguage,
  isValidEmail,
  isValidPhone,
  LOGIN_CODES,
  VERIFICATION_CODE_LENGTH,
  type CodeSentResult,
  type LoginResult,
  type RegisterBody,
  type RegisterResult,
} from '@yidu/shared';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { CodePurpose, SessionRow, UserRow } from '../../db/schema.ts';
import type { SmsSender } from '../../engines/sms/sms.ts';
import { smsCodeText } from '../../engines/sms/sms.ts';
import { AppError, fail } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AccessCache, type AccessEvents } from '../../lib/access-events.ts';
import { randomCode, randomDigits, randomToken, safeEqual, sha256 } from '../../lib/crypto.ts';
import type { Logger } from '../../lib/logger.ts';
import { maskEmail, maskPhone } from '../../lib/mask.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { PointsRepo } from '../points/points.repo.ts';
import type { UsersRepo } from '../users/users.repo.ts';
import { toUserInfo, type AvatarUrl } from '../users/users.presenter.ts';
import type { CodesRepo } from './codes.repo.ts';
import type { InvitesRepo } from './invites.repo.ts';
import type { SessionsRepo } from './sessions.repo.ts';

/** Who is calling: the network address and browser, for sessions, limits and the login history. */
export interface Caller {
  ip: string | null;
  userAgent: string | null;
}

export interface Authenticated {
  user: UserRow;
  session: SessionRow;
}

const MAX_CODE_ATTEMPTS = 5;
const CODES_PER_IP_PER_HOUR = 30;

interface Deps {
  config: Config;
  db: Db;
  queue: JobQueue;
  logger: Logger;
  sms: SmsSender;
  usersRepo: UsersRepo;
  sessions: SessionsRepo;
  codes: CodesRepo;
  invites: InvitesRepo;
  points: PointsRepo;
  limiter: RateLimiter;
  avatarUrl: AvatarUrl;
  access?: AccessEvents;
}

/** How long a session may be served from memory without looking again (changes drop it at once). */
const SESSION_CACHE_MS = 60_000;
const SESSION_CACHE_SIZE = 10_000;
/** A session's last_seen_at is written at most this often, to spare writes on hot paths. */
const TOUCH_AFTER_MS = 60_000;

/** Registration, activation, login, sessions, verification codes and password resets. */
export class AuthService {
  private readonly d: Deps;
  /** Live sessions by token hash, for the hottest read-only calls (see authenticateCached). */
  private readonly liveSessions: AccessCache<Authenticated & { userId: number }>;
  constructor(deps: Deps) {
    this.d = deps;
    this.liveSessions = new AccessCache(deps.access, { maxEntries: SESSION_CACHE_SIZE, maxAgeMs: SESSION_CACHE_MS });
  }

  // ---------- registration ----------

  async register(body: RegisterBody, caller: Caller): Promise<RegisterResult> {
    const { accounts } = this.d.config;
    const email = body.email?.trim() || undefined;
    const phone = body.phone?.replace(/[\s-]/g, '') || undefined;

    if (body.method === 'email') {
      if (!email || !isValidEmail(email)) throw fail('invalidEmail');
    } else {
      if (!accounts.phoneRegistration) throw fail('badRequest', { reason: 'phoneRegistrationDisabled' });
      if (!phone || !isValidPhone(phone)) throw fail('invalidPhone');
      if (email && !isValidEmail(email)) throw fail('invalidEmail');
    }
    if (!isStrongPassword(body.password)) throw fail('weakPassword');
    const language = findLanguage(body.language ?? 'Chinese');
    if (!language) throw fail('noSuchLanguage');

    const inviteCode = body.inviteCode?.trim().toUpperCase() || undefined;
    if (accounts.requireInvite && !inviteCode) throw fail('invalidInviteCode');
    const inviter = inviteCode ? await this.d.usersRepo.findByInviteCode(inviteCode) : undefined;

    const account = body.account?.trim() || (body.method === 'email' ? email! : phone!);
    if (await this.d.usersRepo.accountTaken(account)) throw fail('accountExists');
    if (email && (await this.d.usersRepo.emailTaken(email))) throw fail('emailInUse');
    if (phone && (await this.d.usersRepo.phoneTaken(phone))) throw fail('phoneInUse');

    if (body.method === 'phone') {
      if (!body.code || !(await this.checkCode('register', phone!, body.code))) throw fail('invalidVerificationCode');
    }

    const needsActivation = body.method === 'email' && accounts.emailActivation;
    const passwordHash = await hashPassword(body.password);
    const uiLanguage = body.uiLanguage && isUiLanguage(body.uiLanguage) ? body.uiLanguage : null;

    const user = await this.d.db.transaction().execute(async (trx) => {
      // A minted code is used up here, inside the transaction, so that a failed insert gives it back.
      if (inviteCode && !(inviter?.status === 'active') && !(await this.d.invites.use(trx, inviteCode))) {
        throw fail('invalidInviteCode');
      }
      const created = await this.insertUserWithFreshInviteCode(trx, {
        account,
        email: email ?? null,
        phone: phone ?? null,
        password_hash: passwordHash,
        username: body.nickname?.trim() || account.split('@')[0]!,
        nickname: body.nickname?.trim() || null,
        avatar: null,
        invited_by: inviter?.status === 'active' ? inviter.id : null,
        status: needsActivation ? 'pending' : 'active',
        language: language.name,
        ui_language: uiLanguage,
      });
      if (accounts.startingPoints > 0) {
        await this.d.points.credit(trx, { userId: created.id, points: accounts.startingPoints, reason: 'signupBonus' });
      }
      return created;
    });
    this.d.logger.info({ userId: user.id, method: body.method, needsActivation }, 'user registered');

    if (needsActivation) {
      await this.sendActivationMail(user, caller);
      return { activationRequired: true, account: user.account };
    }
    const token = await this.openSession(user.id, caller);
    const fresh = (await this.d.usersRepo.findById(user.id))!;
    return { activationRequired: false, account: user.account, token, user: toUserInfo(fresh, this.d.avatarUrl) };
  }

  private async insertUserWithFreshInviteCode(trx: Db, user: Omit<Parameters<UsersRepo['insert']>[1], 'invite_code'>) {
    for (let attempt = 0; ; attempt++) {
      const code = randomCode(8);
      if (await this.d.usersRepo.inviteCodeTaken(code)) continue;
      try {
        return await this.d.usersRepo.insert(trx, { ...user, invite_code: code });
      } catch (error) {
        // Another registration took the same fresh code a moment ago: draw again.
        if ((error as { constraint?: string }).constraint === 'users_invite_code_key' && attempt < 5) continue;
        throw uniqueViolationToAppError(error) ?? error;
      }
    }
  }

  private async sendActivationMail(user: UserRow, caller: Caller): Promise<void> {
    const token = randomToken();
    const hours = this.d.config.codes.activationTtlHours;
    await this.d.codes.insert({
      purpose: 'activation',
      target: String(user.id),
      codeHash: sha256(token),
      expiresAt: new Date(Date.now() + hours * 3600_000),
      ip: caller.ip,
    });
    const link = `${this.d.config.publicUrl}/user/confirm?code=${encodeURIComponent(token)}`;
    await this.d.queue.send('mail.send', {
      to: user.email!,
      template: 'activation',
      language: user.ui_language ?? 'zh',
      params: { name: user.username, link, hours: String(hours) },
    });
  }

  /** Sends a new activation link to a pending account (the old link may have expired). */
  async resendActivation(login: string, caller: Caller): Promise<CodeSentResult> {
    const user = await this.d.usersRepo.findByLogin(login);
    if (!user) throw fail('noSuchAccount');
    if (user.status !== 'pending' || !user.email) throw fail('badRequest', { reason: 'alreadyActive' });
    await this.assertCanSend('activation', String(user.id), caller);
    await this.sendActivationMail(user, caller);
    return { retryAfter: this.d.config.codes.resendSeconds, sentTo: maskEmail(user.email), channel: 'email' };
  }

  /**
   * Confirms an emailed link: an account activation, or a change of email address (the new address
   * is confirmed by its owner before it replaces the old one).
   */
  async confirmAccount(
    token: string,
  ): Promise<{ account: string; kind: 'activation' | 'emailChange'; email?: string }> {
    const change = await this.d.codes.findByHash('emailChange', sha256(token));
    if (change) return { ...(await this.confirmEmailChange(change)), kind: 'emailChange' };
    const stored = await this.d.codes.findByHash('activation', sha256(token));
    if (!stored) throw fail('invalidLink');
    const user = await this.d.usersRepo.findById(Number(stored.target));
    if (!user) throw fail('invalidLink');
    // Opening the same link twice is fine once the account is active.
    if (stored.consumed_at) {
      if (user.status === 'active') return { account: user.account, kind: 'activation' };
      throw fail('invalidLink');
    }
    if (stored.expires_at.getTime() <= Date.now()) throw fail('linkExpired');
    if (!(await this.d.codes.consume(stored.id))) return { account: user.account, kind: 'activation' };
    if (user.status === 'pending') await this.d.usersRepo.update(user.id, { status: 'active' });
    this.d.logger.info({ userId: user.id }, 'account activated');
    return { account: user.account, kind: 'activation' };
  }

  private async confirmEmailChange(stored: { id: number; target: string; expires_at: Date; consumed_at: Date | null }) {
    const [userId, encoded] = stored.target.split(':');
    const email = Buffer.from(encoded ?? '', 'base64url').toString('utf8');
    const user = await this.d.usersRepo.findById(Number(userId));
    if (!user || !email) throw fail('invalidLink');
    if (stored.consumed_at) {
      if (user.email === email) return { account: user.account, email };
      throw fail('invalidLink');
    }
    if (stored.expires_at.getTime() <= Date.now()) throw fail('linkExpired');
    if (await this.d.usersRepo.emailTaken(email, user.id)) throw fail('emailInUse');
    if (!(await this.d.codes.consume(stored.id))) return { account: user.account, email };
    // An account whose login name was the old address follows it to the new one.
    const accountWasEmail = user.email !== null && user.account.toLowerCase() === user.email.toLowerCase();
    await this.d.usersRepo.update(user.id, {
      email,
      pending_email: null,
      ...(accountWasEmail ? { account: email } : {}),
    });
    this.d.logger.info({ userId: user.id }, 'email address changed');
    return { account: accountWasEmail ? email : user.account, email };
  }

  /** Starts a change of email address: the current password, then a link sent to the new address. */
  async requestEmailChange(
    auth: Authenticated,
    email: string,
    password: string,
    caller: Caller,
    uiLanguage?: string,
  ): Promise<CodeSentResult> {
    if (!(await verifyPassword(auth.user.password_hash, password))) throw fail('wrongPassword');
    const address = email.trim();
    if (!isValidEmail(address)) throw fail('invalidEmail');
    if (await this.d.usersRepo.emailTaken(address, auth.user.id)) throw fail('emailInUse');
    const target = `${auth.user.id}:${Buffer.from(address, 'utf8').toString('base64url')}`;
    // Countdown and daily cap per user, whatever address they try.
    await this.assertCanSend('emailChange', `${auth.user.id}:`, caller);
    const token = randomToken();
    const hours = this.d.config.codes.activationTtlHours;
    await this.d.codes.insert({
      purpose: 'emailChange',
      target,
      codeHash: sha256(token),
      expiresAt: new Date(Date.now() + hours * 3600_000),
      ip: caller.ip,
    });
    await this.d.usersRepo.update(auth.user.id, { pending_email: address });
    await this.d.queue.send('mail.send', {
      to: address,
      template: 'emailChange',
      language: uiLanguage && isUiLanguage(uiLanguage) ? uiLanguage : (auth.user.ui_language ?? 'zh'),
      params: {
        name: auth.user.username,
        link: `${this.d.config.publicUrl}/user/confirm?code=${encodeURIComponent(token)}`,
        hours: String(hours),
      },
    });
    return { retryAfter: this.d.config.codes.resendSeconds, sentTo: maskEmail(address), channel: 'email' };
  }

  // ---------- verification codes ----------

  /** `/auth/getVerificationCode`: type 0 sends a registration code to a new phone, type 1 a reset code. */
  async sendPhoneCode(type: number, rawPhone: string, caller: Caller, uiLanguage = 'zh'): Promise<CodeSentResult> {
    const phone = rawPhone.replace(/[\s-]/g, '');
    if (!isValidPhone(phone)) throw fail('invalidPhone');
    if (type === 0) {
      if (!this.d.config.accounts.phoneRegistration) throw fail('badRequest', { reason: 'phoneRegistrationDisabled' });
      if (await this.d.usersRepo.phoneTaken(phone)) throw fail('phoneInUse');
      return this.sendCode('register', phone, { phone }, caller, uiLanguage);
    }
    const user = await this.d.usersRepo.findByLogin(phone);
    if (!user || user.phone !== phone) throw fail('noSuchAccount');
    return this.sendCode('reset', String(user.id), { phone }, caller, user.ui_language ?? uiLanguage, user.username);
  }

  /** `/auth/forgot-password-code`: a reset code by email when the account has one, else by SMS. */
  async sendResetCode(login: string, caller: Caller, uiLanguage?: string): Promise<CodeSentResult> {
    const user = await this.d.usersRepo.findByLogin(login);
    if (!user) throw fail('noSuchAccount');
    const language = uiLanguage && isUiLanguage(uiLanguage) ? uiLanguage : (user.ui_language ?? 'zh');
    const to = user.email ? { email: user.email } : user.phone ? { phone: user.phone } : undefined;
    if (!to) throw fail('failedToSendVerificationCode');
    return this.sendCode('reset', String(user.id), to, caller, language, user.username);
  }

  private async sendCode(
    purpose: CodePurpose,
    target: string,
    to: { email: string } | { phone: string },
    caller: Caller,
    language: string,
    name = '',
  ): Promise<CodeSentResult> {
    await this.assertCanSend(purpose, target, caller);
    const code = randomDigits(VERIFICATION_CODE_LENGTH);
    const minutes = this.d.config.codes.ttlMinutes;
    await this.d.codes.insert({
      purpose,
      target,
      codeHash: sha256(code),
      expiresAt: new Date(Date.now() + minutes * 60_000),
      ip: caller.ip,
    });
    const retryAfter = this.d.config.codes.resendSeconds;
    if ('email' in to) {
      await this.d.queue.send('mail.send', {
        to: to.email,
        template: 'resetCode',
        language,
        params: { code, minutes: String(minutes), name: name || to.email },
      });
      return { retryAfter, sentTo: maskEmail(to.email), channel: 'email' };
    }
    try {
      await this.d.sms.send(to.phone, smsCodeText(language, code, minutes));
    } catch (error) {
      this.d.logger.error({ err: error, provider: this.d.sms.name }, 'SMS sending failed');
      throw fail('failedToSendVerificationCode');
    }
    return { retryAfter, sentTo: maskPhone(to.phone), channel: 'phone' };
  }

  /** Resend countdown per target, a daily cap per target, and an hourly cap per IP address. */
  private async assertCanSend(purpose: CodePurpose, target: string, caller: Caller): Promise<void> {
    const { resendSeconds, dailyLimit } = this.d.config.codes;
    const history = await this.d.codes.sendHistory(purpose, target);
    if (history.lastSentAt) {
      const wait = Math.ceil((history.lastSentAt.getTime() + resendSeconds * 1000 - Date.now()) / 1000);
      if (wait > 0) throw fail('verificationCodeCooldown', { retryAfter: wait });
    }
    if (history.lastDay >= dailyLimit) throw fail('tooManyRequests', { retryAfter: 24 * 3600 });
    if (caller.ip) {
      const hit = await this.d.limiter.hit(`codes:ip:${caller.ip}`, 3600);
      if (hit.count > CODES_PER_IP_PER_HOUR) throw fail('tooManyRequests', { retryAfter: hit.retryAfter });
    }
  }

  /** Checks and consumes a code; a wrong guess counts toward the attempt limit of that code. */
  private async checkCode(purpose: CodePurpose, target: string, code: string): Promise<boolean> {
    const stored = await this.d.codes.latest(purpose, target);
    if (!stored || stored.expires_at.getTime() <= Date.now() || stored.attempts >= MAX_CODE_ATTEMPTS) return false;
    if (!safeEqual(stored.code_hash, sha256(code.trim()))) {
      await this.d.codes.countAttempt(stored.id);
      return false;
    }
    return this.d.codes.consume(stored.id);
  }

  async resetPassword(login: string, code: string, password: string): Promise<void> {
    const user = await this.d.usersRepo.findByLogin(login);
    if (!user) throw fail('noSuchAccount');
    if (!isStrongPassword(password)) throw fail('weakPassword');
    if (!(await this.checkCode('reset', String(user.id), code))) throw fail('invalidVerificationCode');
    // The code proves the person controls the account's email or phone: a pending account becomes active.
    await this.d.usersRepo.update(user.id, {
      password_hash: await hashPassword(password),
      ...(user.status === 'pending' ? { status: 'active' as const } : {}),
    });
    const revoked = await this.d.sessions.revokeAllForUser(user.id);
    this.d.logger.info({ userId: user.id, revoked }, 'password reset');
  }

  // ---------- login and sessions ----------

  async login(login: string, password: string, caller: Caller): Promise<LoginResult> {
    const { maxFailures, maxFailuresPerIp, lockMinutes, failureDelayMs } = this.d.config.login;
    const accountKey = `login:account:${login.trim().toLowerCase()}`;
    const ipKey = caller.ip ? `login:ip:${caller.ip}` : undefined;

    const [byAccount, byIp] = await Promise.all([
      this.d.limiter.peek(accountKey),
      ipKey ? this.d.limiter.peek(ipKey) : Promise.resolve({ count: 0, retryAfter: 0 }),
    ]);
    if (byAccount.count >= maxFailures) throw fail('tooManyRequests', { retryAfter: byAccount.retryAfter });
    if (byIp.count >= maxFailuresPerIp) throw fail('tooManyRequests', { retryAfter: byIp.retryAfter });

    const user = await this.d.usersRepo.findByLogin(login);
    const window = lockMinutes * 60;
    if (!user) {
      if (ipKey) await this.d.limiter.hit(ipKey, window);
      await this.d.usersRepo.recordLoginEvent({
        userId: null,
        account: login,
        ip: caller.ip,
        success: false,
        reason: 'noSuchAccount',
      });
      throw new AppError('noSuchAccount', {}, { code: LOGIN_CODES.noSuchUser });
    }
    if (!(await verifyPassword(user.password_hash, password))) {
      const [hit] = await Promise.all([
        this.d.limiter.hit(accountKey, window),
        ipKey ? this.d.limiter.hit(ipKey, window) : undefined,
        this.d.usersRepo.recordLoginEvent({
          userId: user.id,
          account: login,
          ip: caller.ip,
          success: false,
          reason: 'wrongPassword',
        }),
      ]);
      // Each further failure is answered more slowly, which makes guessing expensive.
      if (failureDelayMs > 0) await sleep(Math.min(failureDelayMs * hit.count, 3000));
      throw new AppError(
        'invalidAccountOrPassword',
        { remainingAttempts: Math.max(0, maxFailures - hit.count) },
        { code: LOGIN_CODES.wrongPassword },
      );
    }
    if (user.status === 'pending') throw fail('accountNotActivated');
    if (user.status === 'disabled') throw fail('accountDisabled');

    await this.d.limiter.reset(accountKey);
    const token = await this.openSession(user.id, caller);
    await Promise.all([
      this.d.usersRepo.recordLogin(user.id),
      this.d.usersRepo.recordLoginEvent({
        userId: user.id,
        account: login,
        ip: caller.ip,
        success: true,
        reason: null,
      }),
    ]);
    const fresh = (await this.d.usersRepo.findById(user.id))!;
    return { token, user: toUserInfo(fresh, this.d.avatarUrl) };
  }

  async openSession(
    userId: number,
    caller: Caller,
    kind: 'login' | 'impersonation' = 'login',
    ttlMs?: number,
  ): Promise<string> {
    const token = randomToken();
    await this.d.sessions.create({
      userId,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + (ttlMs ?? this.d.config.accounts.sessionTtlDays * 86_400_000)),
      ip: caller.ip,
      userAgent: caller.userAgent,
      kind,
    });
    return token;
  }

  /** The user and session behind a bearer token, or undefined (unknown, revoked, expired, not active). */
  async authenticate(token: string): Promise<Authenticated | undefined> {
    const found = await this.d.sessions.findLive(sha256(token));
    if (!found || found.user.status !== 'active') return undefined;
    if (Date.now() - found.session.last_seen_at.getTime() > TOUCH_AFTER_MS)
      await this.d.sessions.touch(found.session.id);
    return found;
  }

  /**
   * Like authenticate, from memory when this process has seen the session lately. Revocation, a
   * changed or disabled user, and expiry act at once (AccessEvents); the user's balance and settings
   * may lag by the moment a notification takes, so callers that spend points read them afresh.
   */
  async authenticateCached(token: string): Promise<Authenticated | undefined> {
    const hash = sha256(token);
    const hit = this.liveSessions.get(hash);
    const now = Date.now();
    if (hit && hit.session.expires_at.getTime() > now) {
      if (now - hit.session.last_seen_at.getTime() > TOUCH_AFTER_MS) {
        hit.session.last_seen_at = new Date(now);
        this.d.sessions
          .touch(hit.session.id)
          .catch((error) => this.d.logger.warn({ err: error }, 'session touch failed'));
      }
      return hit;
    }
    const generation = this.liveSessions.generation;
    const found = await this.authenticate(token);
    if (found) this.liveSessions.set(hash, { ...found, userId: found.user.id }, generation);
    return found;
  }

  /** The user's sessions (devices and support sessions), the current one marked. */
  async sessions(auth: Authenticated) {
    const rows = await this.d.sessions.listLive(auth.user.id);
    return rows.map((s) => ({
      id: s.id,
      kind: s.kind,
      current: s.id === auth.session.id,
      ip: s.ip,
      userAgent: s.user_agent,
      createdAt: s.created_at.toISOString(),
      lastSeenAt: s.last_seen_at.toISOString(),
      expiresAt: s.expires_at.toISOString(),
    }));
  }

  async revokeSession(auth: Authenticated, id: number): Promise<void> {
    if (!(await this.d.sessions.revokeOwn(auth.user.id, id))) throw fail('notFound');
  }

  /** Ends this session; the open book tabs are cleared too (SPEC §2.3: logout clears all tabs). */
  async logout(auth: Authenticated): Promise<void> {
    await this.d.sessions.revoke(auth.session.id);
    await this.d.usersRepo.update(auth.user.id, { tabs: '[]' });
  }

  async changePassword(auth: Authenticated, oldPassword: string, password: string): Promise<void> {
    if (!(await verifyPassword(auth.user.password_hash, oldPassword))) throw fail('wrongPassword');
    if (!isStrongPassword(password)) throw fail('weakPassword');
    await this.d.usersRepo.update(auth.user.id, { password_hash: await hashPassword(password) });
    const revoked = await this.d.sessions.revokeAllForUser(auth.user.id, auth.session.id);
    this.d.logger.info({ userId: auth.user.id, revoked }, 'password changed');
  }

  /** Creates the admin named by ADMIN_ACCOUNT/ADMIN_PASSWORD when it does not exist yet. */
  async ensureAdmin(admin: {
    account: string;
    password: string;
    email: string | undefined;
  }): Promise<'created' | 'exists'> {
    const existing = await this.d.usersRepo.findByLogin(admin.account);
    if (existing) {
      if (existing.role !== 'admin') await this.d.usersRepo.update(existing.id, { role: 'admin' });
      return 'exists';
    }
    await this.createUser({ ...admin, role: 'admin' });
    return 'created';
  }

  /** Creates an active user directly (admin bootstrap and the admin CLI): no invitation, no activation. */
  async createUser(input: {
    account: string;
    password: string;
    email?: string | undefined;
    role: 'user' | 'admin';
  }): Promise<UserRow> {
    if (!isStrongPassword(input.password)) throw fail('weakPassword');
    if (input.email && !isValidEmail(input.email)) throw fail('invalidEmail');
    if (await this.d.usersRepo.accountTaken(input.account)) throw fail('accountExists');
    const passwordHash = await hashPassword(input.password);
    return this.d.db.transaction().execute(async (trx) => {
      const user = await this.insertUserWithFreshInviteCode(trx, {
        account: input.account,
        email: input.email ?? null,
        phone: null,
        password_hash: passwordHash,
        username: input.account.split('@')[0]!,
        nickname: null,
        avatar: null,
        invited_by: null,
        status: 'active',
        language: 'Chinese',
        ui_language: null,
      });
      if (input.role === 'admin')
        await trx.updateTable('users').set({ role: 'admin' }).where('id', '=', user.id).execute();
      if (this.d.config.accounts.startingPoints > 0) {
        await this.d.points.credit(trx, {
          userId: user.id,
          points: this.d.config.accounts.startingPoints,
          reason: 'signupBonus',
        });
      }
      return { ...user, role: input.role };
    });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two people registering the same account at the same moment: the database decides, we name it. */
function uniqueViolationToAppError(error: unknown): AppError | undefined {
  const pgError = error as { code?: string; constraint?: string };
  if (pgError.code !== '23505') return undefined;
  if (pgError.constraint === 'users_email_lower') return fail('emailInUse');
  if (pgError.constraint === 'users_phone') return fail('phoneInUse');
  return fail('accountExists');
}
