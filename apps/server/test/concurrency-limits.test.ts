/**
 * Every limit holds when its requests race each other: 20–50 parallel requests through HTTP
 * against the real database end with no more successes than the limit allows. (Requests that must
 * not meet the per-IP limits of other tests come from distinct addresses.)
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  registerUser,
  startTestApp,
  STRONG_PASSWORD,
  uploadFile,
  waitForMail,
  type CallResult,
  type TestApp,
} from './helpers.ts';

const WRONG_PASSWORD = 'Wrong2026pass';
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const keysOf = (results: CallResult[]) =>
  results.reduce<Record<string, number>>((counts, r) => {
    const key = r.code === 0 ? 'ok' : String(r.data?.key);
    counts[key] = (counts[key] ?? 0) + 1;
    return counts;
  }, {});

describe('limits under parallel requests', () => {
  let t: TestApp;
  const userId = async (account: string) =>
    (await t.running.infra.db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirstOrThrow())
      .id;

  beforeAll(async () => {
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      LOGIN_MAX_FAILURES: '5',
      LOGIN_MAX_FAILURES_PER_IP: '10',
      UPLOADS_PER_DAY: '20',
      UPLOADS_PER_MONTH: '100',
      CODE_RESEND_SECONDS: '60',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(async () => t?.close());

  it('checks no more than 5 of 24 parallel wrong passwords, whatever the spelling, and then refuses the right one', async () => {
    await registerUser(t, 'carol');
    await t.running.infra.db
      .updateTable('users')
      .set({ phone: '13900001111' })
      .where('account', '=', 'carol')
      .execute();
    const spellings = ['carol', 'carol@example.com', '13900001111', 'CAROL'];
    const results = await Promise.all(
      range(24).map((i) =>
        t.call('POST', '/api/auth/login', {
          body: { account: spellings[i % spellings.length], password: WRONG_PASSWORD },
          ip: `10.1.0.${i + 1}`,
        }),
      ),
    );
    expect(keysOf(results)).toEqual({ invalidAccountOrPassword: 5, tooManyRequests: 19 });
    const checked = await t.running.infra.db
      .selectFrom('login_events')
      .select(sql<string>`count(*)`.as('n'))
      .where('user_id', '=', await userId('carol'))
      .where('reason', '=', 'wrongPassword')
      .executeTakeFirstOrThrow();
    expect(Number(checked.n)).toBe(5);

    // Locked for every spelling, even with the right password.
    for (const [i, account] of spellings.entries()) {
      const right = await t.call('POST', '/api/auth/login', {
        body: { account, password: STRONG_PASSWORD },
        ip: `10.1.1.${i + 1}`,
      });
      expect(right.status, account).toBe(429);
      expect(right.data.key).toBe('tooManyRequests');
    }
  });

  it('counts failures of one IP address across accounts: 10 of 25 parallel attempts are checked', async () => {
    const results = await Promise.all(
      range(25).map((i) =>
        t.call('POST', '/api/auth/login', {
          body: { account: `ghost${i}`, password: WRONG_PASSWORD },
          ip: '10.2.0.1',
        }),
      ),
    );
    expect(keysOf(results)).toEqual({ noSuchAccount: 10, tooManyRequests: 15 });
  });

  it('lets a right password through when slots are free, and forgives the earlier failures', async () => {
    await registerUser(t, 'frank');
    for (let i = 0; i < 4; i++)
      await t.call('POST', '/api/auth/login', {
        body: { account: 'frank', password: WRONG_PASSWORD },
        ip: `10.3.0.${i + 1}`,
      });
    const right = await t.call('POST', '/api/auth/login', {
      body: { account: 'frank@example.com', password: STRONG_PASSWORD },
      ip: '10.3.1.1',
    });
    expect(right.code).toBe(0);
    const again = await t.call('POST', '/api/auth/login', {
      body: { account: 'frank', password: WRONG_PASSWORD },
      ip: '10.3.1.2',
    });
    expect(again.data).toMatchObject({ key: 'invalidAccountOrPassword', remainingAttempts: 4 });
  });

  it('compares no more than 5 parallel guesses of a reset code, and the right code is dead after them', async () => {
    await registerUser(t, 'dave');
    expect((await t.call('POST', '/api/auth/forgot-password-code', { body: { account: 'dave' } })).code).toBe(0);
    const [mail] = await waitForMail(t.dataDir, 'dave@example.com');
    const code = /\b\d{6}\b/.exec(mail!.text)![0];
    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = await Promise.all(
      range(30).map((i) =>
        t.call('POST', '/api/auth/resetPassword', {
          body: { account: i % 2 ? 'dave' : 'dave@example.com', code: wrong, password: 'Another2026pass' },
          ip: `10.4.0.${i + 1}`,
        }),
      ),
    );
    expect(keysOf(guesses)).toEqual({ invalidVerificationCode: 30 });
    const stored = await t.running.infra.db
      .selectFrom('verification_codes')
      .select('attempts')
      .where('purpose', '=', 'reset')
      .where('target', '=', String(await userId('dave')))
      .executeTakeFirstOrThrow();
    expect(stored.attempts).toBe(5);
    const right = await t.call('POST', '/api/auth/resetPassword', {
      body: { account: 'dave', code, password: 'Another2026pass' },
      ip: '10.4.1.1',
    });
    expect(right.data.key).toBe('invalidVerificationCode');
  });

  it('compares no more than 5 guesses when the right code races 30 wrong ones, and accepts it at most once', async () => {
    await registerUser(t, 'gina');
    await t.call('POST', '/api/auth/forgot-password-code', { body: { account: 'gina' } });
    const [mail] = await waitForMail(t.dataDir, 'gina@example.com');
    const code = /\b\d{6}\b/.exec(mail!.text)![0];
    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = await Promise.all(
      range(31).map((i) =>
        t.call('POST', '/api/auth/resetPassword', {
          body: { account: 'gina', code: i === 15 ? code : wrong, password: 'Another2026pass' },
          ip: `10.5.0.${i + 1}`,
        }),
      ),
    );
    expect(guesses.filter((g) => g.code === 0).length).toBeLessThanOrEqual(1);
    const stored = await t.running.infra.db
      .selectFrom('verification_codes')
      .select('attempts')
      .where('purpose', '=', 'reset')
      .where('target', '=', String(await userId('gina')))
      .executeTakeFirstOrThrow();
    expect(stored.attempts).toBeLessThanOrEqual(5);
  });

  it('sends one code for 20 parallel requests during the resend countdown', async () => {
    await registerUser(t, 'erin');
    const sends = await Promise.all(
      range(20).map((i) =>
        t.call('POST', '/api/auth/forgot-password-code', {
          body: { account: i % 2 ? 'erin' : 'erin@example.com' },
          ip: `10.6.0.${i + 1}`,
        }),
      ),
    );
    expect(keysOf(sends)).toEqual({ ok: 1, verificationCodeCooldown: 19 });
    const codes = await t.running.infra.db
      .selectFrom('verification_codes')
      .select(sql<string>`count(*)`.as('n'))
      .where('purpose', '=', 'reset')
      .where('target', '=', String(await userId('erin')))
      .executeTakeFirstOrThrow();
    expect(Number(codes.n)).toBe(1);
  });

  it('looks up no more than 10 of 25 parallel wrong invitation codes from one IP address', async () => {
    const results = await Promise.all(
      range(25).map((i) =>
        t.call('POST', '/api/auth/register', {
          body: {
            method: 'email',
            email: `guess${i}@example.com`,
            password: STRONG_PASSWORD,
            inviteCode: `WRONG${String(i).padStart(3, '0')}`,
          },
          ip: '10.7.0.1',
        }),
      ),
    );
    expect(keysOf(results)).toEqual({ invalidInviteCode: 10, tooManyRequests: 15 });
  });

  it('accepts 20 of 25 parallel uploads from one IP address for a limit of 20 a day', async () => {
    const token = await registerUser(t, 'uploader');
    const data = Buffer.from('A short book.\n\nIt has two paragraphs.');
    const results = await Promise.all(
      range(25).map(() => uploadFile(t, '/api/book/upload', { name: 'a.txt', data }, token, {}, '10.8.0.1')),
    );
    expect(keysOf(results)).toEqual({ ok: 20, uploadLimitReached: 5 });
    const recorded = await t.running.infra.db
      .selectFrom('upload_events')
      .select(sql<string>`count(*)`.as('n'))
      .where('ip', '=', '10.8.0.1')
      .executeTakeFirstOrThrow();
    expect(Number(recorded.n)).toBe(20);
    const count = await t.call('GET', '/api/book/upload/count', { token, ip: '10.8.0.1' });
    expect(count.data).toMatchObject({ today: 20, thisMonth: 20, dailyLimit: 20 });
  });

  it('turns one upload into one request, however many saves race for it', async () => {
    const token = await registerUser(t, 'saver');
    const other = await registerUser(t, 'borrower');
    const data = Buffer.from('Saved once.\n\nOnly once.');
    const upload = await uploadFile(t, '/api/book/upload', { name: 'once.txt', data }, token, {}, '10.9.0.1');
    const saves = await Promise.all(
      range(20).map((i) =>
        t.call('POST', '/api/book/saveNew', {
          token,
          body: { fileId: upload.data.fileId, bookName: `once ${i}`, bookStatus: 0 },
        }),
      ),
    );
    expect(keysOf(saves)).toEqual({ ok: 1, fileMissing: 19 });
    expect(saves.find((s) => s.code !== 0)!.data.reason).toBe('noUnsavedUpload');
    const requests = await t.running.infra.db
      .selectFrom('upload_requests')
      .select(sql<string>`count(*)`.as('n'))
      .where('file_id', '=', upload.data.fileId)
      .executeTakeFirstOrThrow();
    expect(Number(requests.n)).toBe(1);

    // Path A is held to the same rule, and another user cannot save a file they did not upload.
    const pathA = await uploadFile(t, `/api/book/save/${upload.data.fileId}`, undefined, token, {
      data: JSON.stringify({ bookName: 'again', bookStatus: 0 }),
    });
    expect(pathA.data.key).toBe('fileMissing');
    const borrowed = await t.call('POST', '/api/book/saveNew', {
      token: other,
      body: { fileId: upload.data.fileId, bookName: 'not mine', bookStatus: 0 },
    });
    expect(borrowed.data.key).toBe('fileMissing');

    // Uploading the same file again (counted again) allows one more request.
    const again = await uploadFile(t, '/api/book/upload', { name: 'once.txt', data }, token, {}, '10.9.0.1');
    expect(again.data.fileId).toBe(upload.data.fileId);
    const second = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: 'twice', bookStatus: 0 },
    });
    expect(second.code).toBe(0);
  });
});

describe('the monthly upload limit under parallel requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      UPLOADS_PER_DAY: '1000',
      UPLOADS_PER_MONTH: '15',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(async () => t?.close());

  it('accepts 15 of 25 parallel uploads for a limit of 15 a month', async () => {
    const token = await registerUser(t, 'monthly');
    const data = Buffer.from('A monthly book.');
    const results = await Promise.all(
      range(25).map(() => uploadFile(t, '/api/book/upload', { name: 'm.txt', data }, token, {}, '10.10.0.1')),
    );
    expect(keysOf(results)).toEqual({ ok: 15, uploadLimitReached: 10 });
    const count = await t.call('GET', '/api/book/upload/count', { token, ip: '10.10.0.1' });
    // Refused uploads left the day's counter as they found it.
    expect(count.data).toMatchObject({ today: 15, thisMonth: 15 });
  });
});
