import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSmsOutbox, startTestApp, STRONG_PASSWORD, waitForMail, type TestApp } from '../../../test/helpers.ts';

const ADMIN = { ADMIN_ACCOUNT: 'root', ADMIN_PASSWORD: 'Admin2026pass' };

async function adminToken(t: TestApp): Promise<string> {
  const res = await t.call('POST', '/api/auth/login', { body: { account: 'root', password: 'Admin2026pass' } });
  expect(res.code).toBe(0);
  return res.data.token;
}

async function mintCode(t: TestApp, maxUses: number | null = 1): Promise<string> {
  const res = await t.call('POST', '/api/admin/invite-codes', {
    token: await adminToken(t),
    body: { count: 1, maxUses },
  });
  expect(res.code).toBe(0);
  return res.data.codes[0];
}

describe('email registration with activation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(ADMIN);
  });
  afterAll(async () => t?.close());

  it('refuses a registration without an invitation code', async () => {
    const res = await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'a@example.com', password: STRONG_PASSWORD },
    });
    expect(res.status).toBe(400);
    expect(res.data.key).toBe('invalidInviteCode');
  });

  it('refuses an unknown invitation code', async () => {
    const res = await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'a@example.com', password: STRONG_PASSWORD, inviteCode: 'NOPE2345' },
    });
    expect(res.data.key).toBe('invalidInviteCode');
  });

  it('registers, mails an activation link, refuses login until activated, then logs in', async () => {
    const inviteCode = await mintCode(t);
    const reg = await t.call('POST', '/api/auth/register', {
      body: {
        method: 'email',
        email: 'Lin@Example.com',
        password: STRONG_PASSWORD,
        nickname: '小林',
        inviteCode,
        language: 'English',
        uiLanguage: 'zh',
      },
    });
    expect(reg.status).toBe(200);
    expect(reg.data).toEqual({ activationRequired: true, account: 'Lin@Example.com' });

    const [mail] = await waitForMail(t.dataDir, 'lin@example.com');
    expect(mail!.subject).toBe('激活你的译读账号');
    const link = mail!.links.find((l) => l.includes('/user/confirm?code='));
    expect(link).toMatch(/^http:\/\/yidu\.test\/user\/confirm\?code=/);

    const early = await t.call('POST', '/api/auth/login', {
      body: { account: 'lin@example.com', password: STRONG_PASSWORD },
    });
    expect(early.status).toBe(403);
    expect(early.data.key).toBe('accountNotActivated');

    const code = new URL(link!).searchParams.get('code')!;
    const confirm = await t.call('POST', `/api/auth/confirmAccount?code=${encodeURIComponent(code)}`);
    expect(confirm.code).toBe(0);
    expect(confirm.data.account).toBe('Lin@Example.com');
    // Opening the link again is harmless.
    expect((await t.call('POST', `/api/auth/confirmAccount?code=${encodeURIComponent(code)}`)).code).toBe(0);

    const login = await t.call('POST', '/api/auth/login', {
      body: { account: 'LIN@example.com', password: STRONG_PASSWORD },
    });
    expect(login.code).toBe(0);
    expect(login.data.token).toEqual(expect.any(String));
    expect(login.data.user).toMatchObject({
      username: '小林',
      nickname: '小林',
      language: 'English',
      languageCode: 'en',
      points: 1000,
      role: 'user',
    });

    const info = await t.call('GET', '/api/user/getUserinfo', { token: login.data.token });
    expect(info.data.email).toBe('Lin@Example.com');
    expect(info.data.inviteCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(info.data).not.toHaveProperty('password_hash');

    const ledger = await t.running.infra.db
      .selectFrom('points_ledger')
      .selectAll()
      .where('user_id', '=', info.data.id)
      .execute();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ type: 'income', points: '1000', balance_before: '0', reason: 'signupBonus' });
  });

  it('lets a new user register with the invitation code of an existing user', async () => {
    const login = await t.call('POST', '/api/auth/login', {
      body: { account: 'lin@example.com', password: STRONG_PASSWORD },
    });
    const reg = await t.call('POST', '/api/auth/register', {
      body: {
        method: 'email',
        email: 'friend@example.com',
        password: STRONG_PASSWORD,
        inviteCode: login.data.user.inviteCode.toLowerCase(),
      },
    });
    expect(reg.code).toBe(0);
    const friend = await t.running.infra.db
      .selectFrom('users')
      .select('invited_by')
      .where('email', '=', 'friend@example.com')
      .executeTakeFirstOrThrow();
    expect(friend.invited_by).toBe(login.data.user.id);
  });

  it('uses up a single-use minted code', async () => {
    const inviteCode = await mintCode(t, 1);
    const first = await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'one@example.com', password: STRONG_PASSWORD, inviteCode },
    });
    expect(first.code).toBe(0);
    const second = await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'two@example.com', password: STRONG_PASSWORD, inviteCode },
    });
    expect(second.data.key).toBe('invalidInviteCode');
  });

  it('names each bad field with its own key', async () => {
    const inviteCode = await mintCode(t, 100);
    const base = { method: 'email', password: STRONG_PASSWORD, inviteCode };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, email: 'not-an-email' }, 'invalidEmail'],
      [{ ...base, email: 'weak@example.com', password: 'short1A' }, 'weakPassword'],
      [{ ...base, email: 'weak@example.com', password: 'alllowercase1' }, 'weakPassword'],
      [{ ...base, email: 'lang@example.com', language: 'Klingon' }, 'noSuchLanguage'],
      [{ ...base, email: 'lin@example.com' }, 'accountExists'],
      [{ ...base, email: 'LIN@example.com', account: 'someone-else' }, 'emailInUse'],
      [{ method: 'fax', email: 'x@example.com', password: STRONG_PASSWORD }, 'badRequest'],
      [{ method: 'email', email: 'x@example.com' }, 'badRequest'],
    ];
    for (const [body, key] of cases) {
      const res = await t.call('POST', '/api/auth/register', { body });
      expect(res.data?.key, JSON.stringify(body)).toBe(key);
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
  });

  it('answers linkExpired for an expired activation link and invalidLink for an unknown one', async () => {
    const inviteCode = await mintCode(t);
    await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'late@example.com', password: STRONG_PASSWORD, inviteCode },
    });
    const [mail] = await waitForMail(t.dataDir, 'late@example.com');
    const link = mail!.links.find((l) => l.includes('confirm'))!;
    await sql`UPDATE verification_codes SET expires_at = now() - interval '1 minute' WHERE purpose = 'activation'`.execute(
      t.running.infra.db,
    );
    const code = new URL(link).searchParams.get('code')!;
    const expired = await t.call('POST', `/api/auth/confirmAccount?code=${encodeURIComponent(code)}`);
    expect(expired.status).toBe(400);
    expect(expired.data.key).toBe('linkExpired');
    expect(expired.msg).toBe('The link has expired');

    const unknown = await t.call('POST', '/api/auth/confirmAccount?code=made-up');
    expect(unknown.data.key).toBe('invalidLink');

    // A new link can be requested for the pending account (after the countdown), and it works.
    const early = await t.call('POST', '/api/auth/resendActivation', { body: { account: 'late@example.com' } });
    expect(early.data.key).toBe('verificationCodeCooldown');
    await sql`UPDATE rate_limits SET reset_at = now() WHERE key LIKE 'codes:resend:activation:%'`.execute(
      t.running.infra.db,
    );
    const resent = await t.call('POST', '/api/auth/resendActivation', { body: { account: 'late@example.com' } });
    expect(resent.code).toBe(0);
    expect(resent.data.sentTo).toBe('l***@example.com');
    const again = await waitForMail(t.dataDir, 'late@example.com', 2);
    const fresh = new URL(again.at(-1)!.links.find((l) => l.includes('confirm'))!).searchParams.get('code')!;
    const confirmed = await t.call('POST', `/api/auth/confirmAccount?code=${encodeURIComponent(fresh)}`);
    expect(confirmed.data).toEqual({ account: 'late@example.com', kind: 'activation' });
  });
});

describe('registration without activation or invitation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ EMAIL_ACTIVATION: 'false', REQUIRE_INVITE: 'false', STARTING_POINTS: '250' });
  });
  afterAll(async () => t?.close());

  it('logs the user in at once', async () => {
    const reg = await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'quick@example.com', account: 'quick', password: STRONG_PASSWORD },
    });
    expect(reg.code).toBe(0);
    expect(reg.data.activationRequired).toBe(false);
    expect(reg.data.user).toMatchObject({ account: 'quick', points: 250, language: 'Chinese' });
    const info = await t.call('GET', '/api/user/getUserinfo', { token: reg.data.token });
    expect(info.data.account).toBe('quick');
  });

  it('exposes the registration settings to the web app', async () => {
    const res = await t.call('GET', '/api/config/public');
    expect(res.data).toMatchObject({ requireInvite: false, emailActivation: false, codeResendSeconds: 60 });
  });
});

describe('phone registration with an SMS code', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', CODE_DAILY_LIMIT: '3', CODE_RESEND_SECONDS: '60' });
  });
  afterAll(async () => t?.close());

  it('sends a code, enforces the resend countdown, checks the code and registers', async () => {
    const phone = '13800138000';
    const sent = await t.call('POST', `/api/auth/getVerificationCode?type=0&phone=${phone}`);
    expect(sent.code).toBe(0);
    expect(sent.data).toEqual({ retryAfter: 60, sentTo: '138****8000', channel: 'phone' });
    const sms = await readSmsOutbox(t.dataDir);
    expect(sms).toHaveLength(1);
    const code = /\d{6}/.exec(sms[0]!.text)![0];

    const again = await t.call('POST', `/api/auth/getVerificationCode?type=0&phone=${phone}`);
    expect(again.status).toBe(429);
    expect(again.data.key).toBe('verificationCodeCooldown');
    expect(again.data.retryAfter).toBeGreaterThan(50);
    expect(again.headers['retry-after']).toBeDefined();

    const wrong = await t.call('POST', '/api/auth/register', {
      body: { method: 'phone', phone, password: STRONG_PASSWORD, code: '000000' === code ? '111111' : '000000' },
    });
    expect(wrong.data.key).toBe('invalidVerificationCode');

    const reg = await t.call('POST', '/api/auth/register', {
      body: { method: 'phone', phone, password: STRONG_PASSWORD, code },
    });
    expect(reg.code).toBe(0);
    expect(reg.data.activationRequired).toBe(false);
    expect(reg.data.user.phone).toBe(phone);

    // The code is spent, and the phone is now taken.
    const reuse = await t.call('POST', '/api/auth/register', {
      body: { method: 'phone', phone, account: 'other', password: STRONG_PASSWORD, code },
    });
    expect(reuse.data.key).toBe('phoneInUse');
    const taken = await t.call('POST', `/api/auth/getVerificationCode?type=0&phone=${phone}`);
    expect(taken.data.key).toBe('phoneInUse');
  });

  it('refuses a malformed phone number and a missing code', async () => {
    expect((await t.call('POST', '/api/auth/getVerificationCode?type=0&phone=12ab')).data.key).toBe('invalidPhone');
    const res = await t.call('POST', '/api/auth/register', {
      body: { method: 'phone', phone: '13900139000', password: STRONG_PASSWORD },
    });
    expect(res.data.key).toBe('invalidVerificationCode');
  });

  it('caps the codes a phone can receive in a day', async () => {
    const phone = '13700137000';
    const db = t.running.infra.db;
    for (let i = 0; i < 3; i++) {
      expect((await t.call('POST', `/api/auth/getVerificationCode?type=0&phone=${phone}`)).code).toBe(0);
      // Skip the countdown without waiting a minute.
      await sql`UPDATE rate_limits SET reset_at = now() WHERE key = ${`codes:resend:register:${phone}`}`.execute(db);
    }
    const capped = await t.call('POST', `/api/auth/getVerificationCode?type=0&phone=${phone}`);
    expect(capped.status).toBe(429);
    expect(capped.data.key).toBe('tooManyRequests');
  });

  it('gives up on a code after five wrong guesses', async () => {
    const phone = '13600136000';
    await t.call('POST', `/api/auth/getVerificationCode?type=0&phone=${phone}`);
    const sms = await readSmsOutbox(t.dataDir);
    const code = /\d{6}/.exec(sms.filter((s) => s.to === phone).at(-1)!.text)![0];
    const wrongCode = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) {
      await t.call('POST', '/api/auth/register', {
        body: { method: 'phone', phone, password: STRONG_PASSWORD, code: wrongCode },
      });
    }
    const res = await t.call('POST', '/api/auth/register', {
      body: { method: 'phone', phone, password: STRONG_PASSWORD, code },
    });
    expect(res.data.key).toBe('invalidVerificationCode');
  });
});

describe('login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      ...ADMIN,
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      LOGIN_MAX_FAILURES: '3',
      LOGIN_MAX_FAILURES_PER_IP: '6',
    });
    await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'reader@example.com', account: 'reader', password: STRONG_PASSWORD },
    });
  });
  afterAll(async () => t?.close());

  it('answers code 1 for a wrong password and code 2 for an unknown account', async () => {
    const wrong = await t.call('POST', '/api/auth/login', { body: { account: 'reader', password: 'Wrong2026pass' } });
    expect(wrong.code).toBe(1);
    expect(wrong.data.key).toBe('invalidAccountOrPassword');
    expect(wrong.msg).toBe('Incorrect username or password');
    const unknown = await t.call('POST', '/api/auth/login', { body: { account: 'nobody', password: STRONG_PASSWORD } });
    expect(unknown.code).toBe(2);
    expect(unknown.data.key).toBe('noSuchAccount');
    const empty = await t.call('POST', '/api/auth/login', { body: { account: '', password: '' } });
    expect(empty.data.key).toBe('badRequest');
  });

  it('logs in by account or email, records the login', async () => {
    const byEmail = await t.call('POST', '/api/auth/login', {
      body: { account: 'READER@example.com', password: STRONG_PASSWORD },
    });
    expect(byEmail.code).toBe(0);
    const user = await t.running.infra.db
      .selectFrom('users')
      .select(['login_count', 'last_login_at'])
      .where('account', '=', 'reader')
      .executeTakeFirstOrThrow();
    expect(user.login_count).toBeGreaterThanOrEqual(1);
    expect(user.last_login_at).toBeInstanceOf(Date);
  });

  it('locks an account after repeated failures, even with the right password', async () => {
    for (let i = 0; i < 3; i++)
      await t.call('POST', '/api/auth/login', {
        body: { account: 'reader', password: 'Wrong2026pass' },
        ip: '10.1.1.1',
      });
    const locked = await t.call('POST', '/api/auth/login', {
      body: { account: 'reader', password: STRONG_PASSWORD },
      ip: '10.1.1.2',
    });
    expect(locked.status).toBe(429);
    expect(locked.data.key).toBe('tooManyRequests');
    expect(locked.data.retryAfter).toBeGreaterThan(0);
    // Other accounts are not affected.
    expect(
      (
        await t.call('POST', '/api/auth/login', {
          body: { account: 'root', password: 'Admin2026pass' },
          ip: '10.1.1.2',
        })
      ).code,
    ).toBe(0);
  });

  it('limits failures per IP address across accounts', async () => {
    for (let i = 0; i < 6; i++)
      await t.call('POST', '/api/auth/login', {
        body: { account: `ghost${i}`, password: 'Wrong2026pass' },
        ip: '10.9.9.9',
      });
    const blocked = await t.call('POST', '/api/auth/login', {
      body: { account: 'root', password: 'Admin2026pass' },
      ip: '10.9.9.9',
    });
    expect(blocked.data.key).toBe('tooManyRequests');
  });

  it('refuses a disabled account', async () => {
    await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'gone@example.com', password: STRONG_PASSWORD },
    });
    await t.running.infra.db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('email', '=', 'gone@example.com')
      .execute();
    const res = await t.call('POST', '/api/auth/login', {
      body: { account: 'gone@example.com', password: STRONG_PASSWORD },
    });
    expect(res.data.key).toBe('accountDisabled');
  });
});

describe('forgotten password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
  });
  afterAll(async () => t?.close());

  it('mails a code that resets the password and signs every session out', async () => {
    const reg = await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'forgetful@example.com', password: STRONG_PASSWORD },
    });
    const oldToken = reg.data.token;

    const sent = await t.call('POST', '/api/auth/forgot-password-code', {
      body: { account: 'forgetful@example.com', uiLanguage: 'en' },
    });
    expect(sent.data).toEqual({ retryAfter: 60, sentTo: 'f***@example.com', channel: 'email' });
    const [mail] = await waitForMail(t.dataDir, 'forgetful@example.com');
    expect(mail!.subject).toBe('Your Yidu password reset code');
    const code = /\b\d{6}\b/.exec(mail!.text)![0];

    const cooldown = await t.call('POST', '/api/auth/forgot-password-code', {
      body: { account: 'forgetful@example.com' },
    });
    expect(cooldown.data.key).toBe('verificationCodeCooldown');

    const weak = await t.call('POST', '/api/auth/resetPassword', {
      body: { account: 'forgetful@example.com', code, password: 'weak' },
    });
    expect(weak.data.key).toBe('weakPassword');
    const bad = await t.call('POST', '/api/auth/resetPassword', {
      body: {
        account: 'forgetful@example.com',
        code: code === '123456' ? '654321' : '123456',
        password: 'NewPass2026',
      },
    });
    expect(bad.data.key).toBe('invalidVerificationCode');

    const ok = await t.call('POST', '/api/auth/resetPassword', {
      body: { account: 'forgetful@example.com', code, password: 'NewPass2026' },
    });
    expect(ok.code).toBe(0);
    expect((await t.call('GET', '/api/user/getUserinfo', { token: oldToken })).status).toBe(401);
    expect(
      (
        await t.call('POST', '/api/auth/login', {
          body: { account: 'forgetful@example.com', password: STRONG_PASSWORD },
        })
      ).code,
    ).toBe(1);
    expect(
      (await t.call('POST', '/api/auth/login', { body: { account: 'forgetful@example.com', password: 'NewPass2026' } }))
        .code,
    ).toBe(0);
    // A code works once.
    expect(
      (
        await t.call('POST', '/api/auth/resetPassword', {
          body: { account: 'forgetful@example.com', code, password: 'Other2026pass' },
        })
      ).data.key,
    ).toBe('invalidVerificationCode');
  });

  it('texts the code to a phone-only account', async () => {
    const phone = '13500135000';
    await t.call('POST', `/api/auth/getVerificationCode?type=0&phone=${phone}`);
    const regCode = /\d{6}/.exec((await readSmsOutbox(t.dataDir)).at(-1)!.text)![0];
    await t.call('POST', '/api/auth/register', {
      body: { method: 'phone', phone, password: STRONG_PASSWORD, code: regCode },
    });

    const sent = await t.call('POST', `/api/auth/getVerificationCode?type=1&phone=${phone}`);
    expect(sent.data.channel).toBe('phone');
    const resetCode = /\d{6}/.exec((await readSmsOutbox(t.dataDir)).at(-1)!.text)![0];
    const ok = await t.call('POST', '/api/auth/resetPassword', {
      body: { account: phone, code: resetCode, password: 'PhonePass2026' },
    });
    expect(ok.code).toBe(0);
  });

  it('answers noSuchAccount for an unknown account', async () => {
    const res = await t.call('POST', '/api/auth/forgot-password-code', { body: { account: 'who@example.com' } });
    expect(res.data.key).toBe('noSuchAccount');
  });
});
