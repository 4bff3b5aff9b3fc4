import {
  findLanguage,
  isStrongPassword,
  isUiLanguage,
  isValidEmail,
  isValidPhone,
  LOGIN_CODES,
  normalizeName,
  type LoginResult,
  type RegisterBody,
  type RegisterResult,
} from '@yidu/shared';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { SessionRow, UserRow } from '../../db/schema.ts';
import { AppError, fail } from '../../http/errors.ts';
import { AccessCache, type AccessEvents } from '../../lib/access-events.ts';
import { randomCode, randomToken, sha256 } from '../../lib/crypto.ts';
import type { Logger } from '../../lib/logger.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { PointsRepo } from '../points/points.repo.ts';
import { assertFitName } from '../users/fit-name.ts';
import type { UsersRepo } from '../users/users.repo.ts';
import { toUserInfo, type AvatarUrl } from '../users/users.presenter.ts';
import type { InvitesRepo } from './invites.repo.ts';
import type { SessionsRepo } from './sessions.repo.ts';
import type { VerificationService } from './verification.service.ts';

/** Who is calling: the network address and browser, for sessions, limits and the login history. */
export interface Caller {
  ip: string | null;
  userAgent: string | null;
}

export interface Authenticated {
  user: UserRow;
  session: SessionRow;
}

/** Wrong invitation codes one IP address may try per hour (the codes are 8 characters of 31). */
const INVITE_ATTEMPTS_PER_IP_PER_HOUR = 10;

interface Deps {
  config: Config;
  db: Db;
  logger: Logger;
  usersRepo: UsersRepo;
  sessions: SessionsRepo;
  invites: InvitesRepo;
  points: PointsRepo;
  limiter: RateLimiter;
  verification: VerificationService;
  avatarUrl: AvatarUrl;
  access?: AccessEvents;
}

/** How long a session may be served from memory without looking again (changes drop it at once). */
const SESSION_CACHE_MS = 60_000;
const SESSION_CACHE_SIZE = 10_000;
/** A session's last_seen_at is written at most this often, to spare writes on hot paths. */
const TOUCH_AFTER_MS = 60_000;

/** Registration, login and sessions (codes and emailed links: VerificationService). */
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
    const inviter = inviteCode ? await this.checkInviteCode(inviteCode, caller) : undefined;

    const account = normalizeName(body.account ?? '') || (body.method === 'email' ? email! : phone!);
    assertFitName(account);
    const nickname = body.nickname === undefined ? undefined : normalizeName(body.nickname) || undefined;
    if (nickname) assertFitName(nickname);
    if (await this.d.usersRepo.accountTaken(account)) throw fail('accountExists');
    if (email && (await this.d.usersRepo.emailTaken(email))) throw fail('emailInUse');
    if (phone && (await this.d.usersRepo.phoneTaken(phone))) throw fail('phoneInUse');

    if (body.method === 'phone') {
      if (!body.code || !(await this.d.verification.checkCode('register', phone!, body.code)))
        throw fail('invalidVerificationCode');
    }

    const needsActivation = body.method === 'email' && accounts.emailActivation;
    const passwordHash = await hashPassword(body.password);
    const uiLanguage = body.uiLanguage && isUiLanguage(body.uiLanguage) ? body.uiLanguage : null;

    const user = await this.insertUser(async (trx, fresh) => {
      // A minted code is used up here, inside the transaction, so that a failed insert gives it back.
      if (inviteCode && !(inviter?.status === 'active') && !(await this.d.invites.use(trx, inviteCode))) {
        throw fail('invalidInviteCode');
      }
      const created = await this.d.usersRepo.insert(trx, {
        ...(await fresh(nickname ?? account.split('@')[0]!)),
        account,
        email: email ?? null,
        phone: phone ?? null,
        password_hash: passwordHash,
        nickname: nickname ?? null,
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
      await this.d.verification.sendFirstActivationMail(user, caller);
      return { activationRequired: true, account: user.account };
    }
    const token = await this.openSession(user.id, caller);
    const fresh = (await this.d.usersRepo.findById(user.id))!;
    return { activationRequired: false, account: user.account, token, user: toUserInfo(fresh, this.d.avatarUrl) };
  }

  /**
   * The user whose own code it is, or undefined for a minted code with a use left; invalidInviteCode
   * otherwise. Each attempt takes a slot of the caller's IP address before the code is looked up, and
   * a valid code gives it back: only wrong codes count, and guessing stops at the limit.
   */
  private async checkInviteCode(code: string, caller: Caller): Promise<Pick<UserRow, 'id' | 'status'> | undefined> {
    const key = caller.ip ? `invites:ip:${caller.ip}` : undefined;
    if (key) {
      const slot = await this.d.limiter.take(key, INVITE_ATTEMPTS_PER_IP_PER_HOUR, { seconds: 3600 });
      if (!slot.allowed) throw fail('tooManyRequests', { retryAfter: slot.retryAfter });
    }
    const inviter = await this.d.usersRepo.findByInviteCode(code);
    const valid = inviter?.status === 'active' || (await this.d.invites.isUsable(code));
    if (!valid) throw fail('invalidInviteCode');
    if (key) await this.d.limiter.giveBack(key);
    return inviter?.status === 'active' ? inviter : undefined;
  }

  /**
   * Writes a new user in one transaction. `fresh(name)` gives the user's own invitation code and a
   * username no one has, made of `name` (a number added when it is taken: two readers called Bob
   * register as bob and bob2); registrations wanting the same name wait for each other under a lock
   * of that name. A code drawn by another registration at the same moment fails the transaction on
   * its unique index, and it is run again with a fresh one.
   */
  private async insertUser(
    write: (trx: Db, fresh: (name: string) => Promise<{ invite_code: string; username: string }>) => Promise<UserRow>,
  ): Promise<UserRow> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.d.db.transaction().execute((trx) =>
          write(trx, async (name) => {
            let code = randomCode(8);
            while (await this.d.usersRepo.inviteCodeTaken(code)) code = randomCode(8);
            return { invite_code: code, username: await this.d.usersRepo.freeUsername(trx, name) };
          }),
        );
      } catch (error) {
        const raced = (error as { constraint?: string }).constraint === 'users_invite_code_key';
        if (raced && attempt < 5) continue;
        throw uniqueViolationToAppError(error) ?? error;
      }
    }
  }

  // ---------- login and sessions ----------

  /**
   * Failed logins are limited per account and per IP address. Each attempt takes a slot of both
   * limits before the password is checked (RateLimiter.take), and a right password gives them back:
   * however many guesses arrive at once, no more than the limit are ever checked. The account's
   * counter is keyed by its user id, so its name, email and phone share it.
   */
  async login(login: string, password: string, caller: Caller): Promise<LoginResult> {
    const { maxFailures, maxFailuresPerIp, lockMinutes, failureDelayMs } = this.d.config.login;
    const window = { seconds: lockMinutes * 60 };
    const ipKey = caller.ip ? `login:ip:${caller.ip}` : undefined;
    if (ipKey) {
      const byIp = await this.d.limiter.take(ipKey, maxFailuresPerIp, window);
      if (!byIp.allowed) throw fail('tooManyRequests', { retryAfter: byIp.retryAfter });
    }

    const user = await this.d.usersRepo.findByLogin(login);
    if (!user) {
      await this.d.usersRepo.recordLoginEvent({
        userId: null,
        account: login,
        ip: caller.ip,
        success: false,
        reason: 'noSuchAccount',
      });
      throw new AppError('noSuchAccount', {}, { code: LOGIN_CODES.noSuchUser });
    }
    const accountKey = `login:user:${user.id}`;
    const byAccount = await this.d.limiter.take(accountKey, maxFailures, window);
    if (!byAccount.allowed) {
      // Refused without checking a password: not a failure of this address.
      if (ipKey) await this.d.limiter.giveBack(ipKey);
      throw fail('tooManyRequests', { retryAfter: byAccount.retryAfter });
    }

    if (!(await verifyPassword(user.password_hash, password))) {
      await this.d.usersRepo.recordLoginEvent({
        userId: user.id,
        account: login,
        ip: caller.ip,
        success: false,
        reason: 'wrongPassword',
      });
      // Each further failure is answered more slowly, which makes guessing expensive.
      if (failureDelayMs > 0) await sleep(Math.min(failureDelayMs * byAccount.count, 3000));
      throw new AppError(
        'invalidAccountOrPassword',
        { remainingAttempts: Math.max(0, maxFailures - byAccount.count) },
        { code: LOGIN_CODES.wrongPassword },
      );
    }
    // The right password: the account's earlier failures are forgiven, and this was no failure.
    await Promise.all([this.d.limiter.reset(accountKey), ipKey ? this.d.limiter.giveBack(ipKey) : undefined]);
    if (user.status === 'pending') throw fail('accountNotActivated');
    if (user.status === 'disabled') throw fail('accountDisabled');

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

  /** Ends every session of a user (an admin disabled the account); returns how many were live. */
  revokeAllSessions(userId: number): Promise<number> {
    return this.d.sessions.revokeAllForUser(userId);
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
    try {
      await this.createUser({ ...admin, role: 'admin' });
    } catch (error) {
      // Another process of the deployment, starting at the same moment, created it first.
      if ((error as { key?: string }).key === 'accountExists') return this.ensureAdmin(admin);
      throw error;
    }
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
    // The operators may name their admin `admin`; the other rules hold for them too.
    const account = normalizeName(input.account);
    assertFitName(account, { allowReserved: true });
    if (await this.d.usersRepo.accountTaken(account)) throw fail('accountExists');
    const passwordHash = await hashPassword(input.password);
    return this.insertUser(async (trx, fresh) => {
      const user = await this.d.usersRepo.insert(trx, {
        ...(await fresh(account.split('@')[0]!)),
        account,
        email: input.email ?? null,
        phone: null,
        password_hash: passwordHash,
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
  if (pgError.constraint === 'users_username_key') return fail('usernameTaken');
  return fail('accountExists');
}
