import {
  isStrongPassword,
  isUiLanguage,
  isValidEmail,
  isValidPhone,
  VERIFICATION_CODE_LENGTH,
  type CodeSentResult,
  type ErrorKey,
} from '@yidu/shared';
import type { Config } from '../../config/env.ts';
import type { CodePurpose, UserRow } from '../../db/schema.ts';
import type { SmsSender } from '../../engines/sms/sms.ts';
import { smsCodeText } from '../../engines/sms/sms.ts';
import { fail } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { randomDigits, randomToken, sha256 } from '../../lib/crypto.ts';
import type { Logger } from '../../lib/logger.ts';
import { maskEmail, maskPhone } from '../../lib/mask.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { UsersRepo } from '../users/users.repo.ts';
import type { Authenticated, Caller } from './auth.service.ts';
import type { CodesRepo } from './codes.repo.ts';
import type { SessionsRepo } from './sessions.repo.ts';

/** Wrong guesses a code survives; the guess after them finds it dead, even the right one. */
export const MAX_CODE_ATTEMPTS = 5;
const CODES_PER_IP_PER_HOUR = 30;

interface Deps {
  config: Config;
  queue: JobQueue;
  logger: Logger;
  sms: SmsSender;
  usersRepo: UsersRepo;
  sessions: SessionsRepo;
  codes: CodesRepo;
  limiter: RateLimiter;
}

/**
 * One-time codes and links: SMS and mail codes (registration, password reset), activation and
 * email-change links. Sending is limited per target (a resend countdown and a daily cap) and per IP
 * address; a code survives MAX_CODE_ATTEMPTS guesses. Targets of an account are its user id, so
 * every spelling of the account (name, email, phone) shares the limits.
 */
export class VerificationService {
  private readonly d: Deps;
  constructor(deps: Deps) {
    this.d = deps;
  }

  // ---------- activation and email-change links ----------

  /** The first activation link, sent at registration; it starts the resend countdown of the account. */
  async sendFirstActivationMail(user: UserRow, caller: Caller): Promise<void> {
    // A new account's limits are fresh, and its IP address was limited by the registration itself.
    await this.takeSendingSlots('activation', String(user.id), null);
    await this.sendActivationMail(user, caller);
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
    await this.takeSendingSlots('activation', String(user.id), caller.ip);
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
    await this.takeSendingSlots('emailChange', `${auth.user.id}:`, caller.ip);
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
    await this.takeSendingSlots(purpose, target, caller.ip);
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

  /**
   * Takes a slot of each sending limit before anything is sent: the resend countdown of the target
   * (one send per countdown), its daily cap and the hourly cap of the caller's IP address. When one
   * refuses, the slots taken before it are given back: nothing was sent.
   */
  private async takeSendingSlots(purpose: CodePurpose, target: string, ip: string | null): Promise<void> {
    const { resendSeconds, dailyLimit } = this.d.config.codes;
    const limits: { key: string; max: number; seconds: number; refusal: ErrorKey }[] = [
      { key: `codes:resend:${purpose}:${target}`, max: 1, seconds: resendSeconds, refusal: 'verificationCodeCooldown' },
      { key: `codes:daily:${purpose}:${target}`, max: dailyLimit, seconds: 86_400, refusal: 'tooManyRequests' },
    ];
    if (ip)
      limits.push({ key: `codes:ip:${ip}`, max: CODES_PER_IP_PER_HOUR, seconds: 3600, refusal: 'tooManyRequests' });
    const taken: string[] = [];
    for (const limit of limits) {
      const slot = await this.d.limiter.take(limit.key, limit.max, { seconds: limit.seconds });
      if (!slot.allowed) {
        await Promise.all(taken.map((key) => this.d.limiter.giveBack(key)));
        throw fail(limit.refusal, { retryAfter: slot.retryAfter });
      }
      taken.push(limit.key);
    }
  }

  /** One guess at a code: counted, and the code consumed when it is right (see CodesRepo.attempt). */
  checkCode(purpose: CodePurpose, target: string, code: string): Promise<boolean> {
    return this.d.codes.attempt(purpose, target, sha256(code.trim()), MAX_CODE_ATTEMPTS);
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
}
