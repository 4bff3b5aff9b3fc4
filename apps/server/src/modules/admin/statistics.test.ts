import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORPUS,
  pollStage,
  registerUser,
  seedChineseBook,
  startTestApp,
  STRONG_PASSWORD,
  uploadFile,
  type TestApp,
} from '../../../test/helpers.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('admin statistics and operations (SPEC §7.7)', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let fileId: string;
  beforeAll(async () => {
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      ADMIN_ACCOUNT: 'boss',
      ADMIN_PASSWORD: 'Boss2026pass',
    });
    admin = (await t.call('POST', '/api/auth/login', { body: { account: 'boss', password: 'Boss2026pass' } })).data
      .token;
    user = await registerUser(t, 'reader');
    const db = t.running.infra.db;
    // Three users registered five days ago; two of them came back the next day.
    for (const name of ['old1', 'old2', 'old3']) await registerUser(t, name);
    await sql`UPDATE users SET created_at = now() - interval '5 days', last_login_at = now() - interval '5 days' WHERE account IN ('old1', 'old2', 'old3')`.execute(
      db,
    );
    const olds = await db
      .selectFrom('users')
      .select(['id', 'account'])
      .where('account', 'in', ['old1', 'old2'])
      .execute();
    for (const u of olds) {
      await db
        .insertInto('login_events')
        .values({
          user_id: u.id,
          account: u.account,
          ip: null,
          success: true,
          reason: null,
          created_at: sql<Date>`date_trunc('day', now() - interval '4 days') + interval '2 hours'` as never,
        })
        .execute();
    }
    // One good upload and one broken one.
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'sub.txt', data: await readFile(path.join(CORPUS, 'txt/en-subtitle-utf16le-bom.txt')) },
      user,
    );
    fileId = upload.data.fileId;
    const good = await t.call('POST', '/api/book/saveNew', {
      token: user,
      body: { fileId, bookName: 'Subtitles', bookStatus: 1 },
    });
    for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById'])
      await pollStage(t, `/api/book/${stage}?requestId=${good.data.requestId}`, user);
    const broken = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'moby.epub', data: await readFile(path.join(CORPUS, 'bad/truncated-moby-dick.epub')) },
      user,
    );
    const bad = await t.call('POST', '/api/book/saveNew', {
      token: user,
      body: { fileId: broken.data.fileId, bookName: 'Broken', bookStatus: 0 },
    });
    await pollStage(t, `/api/book/analysis?requestId=${bad.data.requestId}`, user);
  }, 120_000);
  afterAll(async () => t?.close());

  const ADMIN_CALLS: [string, string][] = [
    ['GET', '/api/admin/util/checkErrorByUsername?username=reader'],
    ['GET', '/api/admin/util/checkErrorByAccount?account=reader'],
    ['GET', '/api/admin/util/download?bookFilePath=x'],
    ['GET', '/api/admin/util/bookUploadStatistic'],
    ['GET', '/api/admin/util/userRegStatistic'],
    ['GET', '/api/admin/util/userLoginStatistic'],
    ['GET', '/api/admin/util/findUserByName?username=reader'],
    ['GET', '/api/admin/util/findUploadByUserName?username=reader'],
    ['GET', '/api/admin/util/monitorThreadPool'],
    ['GET', '/api/admin/util/kafkaCheck'],
    ['GET', '/api/admin/util/getUserToken?account=reader'],
    ['GET', '/api/admin/util/findOldLoginUser?regDay=1&lastLoginDay=1'],
    ['GET', '/api/admin/util/findFrequentOperators?count=1'],
    ['POST', '/api/admin/util/addBook?bookCode=x&userId=1'],
    ['GET', '/api/admin/util/getLoginCount?days=7'],
    ['GET', '/api/admin/util/getUserRetentionRate?nDays=3'],
    ['GET', '/api/admin/util/system-info'],
    ['GET', '/api/admin/stats/usage'],
    ['GET', '/api/admin/audit'],
    ['POST', '/api/admin/users/1'],
  ];

  it('refuses every admin call to a user (403) and to a guest (401)', async () => {
    for (const [method, url] of ADMIN_CALLS) {
      const res = await t.call(method as 'GET', url, { token: user, body: method === 'POST' ? {} : undefined });
      expect(res.status, url).toBe(403);
      expect(res.data.key).toBe('insufficientPermissions');
      expect((await t.call(method as 'GET', url)).status, url).toBe(401);
    }
  });

  it('counts uploads per day by outcome and visibility', async () => {
    const res = await t.call('GET', `/api/admin/util/bookUploadStatistic?date=${day(0)}&days=7`, { token: admin });
    expect(res.data).toHaveLength(7);
    expect(res.data.at(-1)).toMatchObject({ day: day(0), total: 2, completed: 1, failed: 1, public: 1, private: 1 });
    expect(res.data[0].total).toBe(0);
    const onlyPublic = await t.call('GET', `/api/admin/util/bookUploadStatistic?days=1&bookStatus=1`, { token: admin });
    expect(onlyPublic.data[0]).toMatchObject({ total: 1, completed: 1 });
  });

  it('counts registrations, logins and retention', async () => {
    const reg = await t.call('GET', `/api/admin/util/userRegStatistic?days=7`, { token: admin });
    expect(reg.data.find((d: { day: string }) => d.day === day(-5)).count).toBe(3);
    expect(reg.data.at(-1).count).toBeGreaterThanOrEqual(2);
    const logins = await t.call('GET', '/api/admin/util/userLoginStatistic?days=7', { token: admin });
    expect(logins.data.find((d: { day: string }) => d.day === day(-4))).toMatchObject({ logins: 2, users: 2 });
    const count = await t.call('GET', '/api/admin/util/getLoginCount?days=7', { token: admin });
    expect(count.data.logins).toBeGreaterThanOrEqual(3);
    const retention = await t.call('GET', `/api/admin/util/getUserRetentionRate?baseDate=${day(-5)}&nDays=3`, {
      token: admin,
    });
    expect(retention.data).toMatchObject({ baseDate: day(-5), cohort: 3 });
    expect(retention.data.days[0]).toMatchObject({ day: 1, retained: 2 });
    expect(retention.data.days[0].rate).toBeCloseTo(2 / 3);
    expect(retention.data.days[1].retained).toBe(0);
  });

  it('finds users: by name, long-absent ones, frequent operators', async () => {
    expect((await t.call('GET', '/api/admin/util/findUserByName?username=old', { token: admin })).data).toHaveLength(3);
    const absent = await t.call('GET', '/api/admin/util/findOldLoginUser?regDay=3&lastLoginDay=3', { token: admin });
    expect(absent.data.map((u: { account: string }) => u.account).sort()).toEqual(['old1', 'old2', 'old3']);
    const frequent = await t.call('GET', `/api/admin/util/findFrequentOperators?date=${day(0)}&count=2`, {
      token: admin,
    });
    expect(frequent.data.find((u: { account: string }) => u.account === 'reader')).toMatchObject({ uploads: 2 });
  });

  it("shows a user's uploads and errors with their messages", async () => {
    const uploads = await t.call('GET', '/api/admin/util/findUploadByUserName?username=read', { token: admin });
    expect(uploads.data.map((u: { bookName: string }) => u.bookName).sort()).toEqual(['Broken', 'Subtitles']);
    const errors = await t.call('GET', '/api/admin/util/checkErrorByUsername?username=reader', { token: admin });
    expect(errors.data.uploads).toHaveLength(1);
    expect(errors.data.uploads[0]).toMatchObject({
      bookName: 'Broken',
      stage: 'parsingFile',
      errorKey: 'fileCorrupted',
    });
    expect(
      (await t.call('GET', '/api/admin/util/checkErrorByAccount?account=reader@example.com', { token: admin })).data
        .key,
    ).toBe('noSuchAccount');
    expect(
      (await t.call('GET', '/api/admin/util/checkErrorByAccount?account=READER', { token: admin })).data.uploads,
    ).toHaveLength(1);
  });

  it('downloads a stored book file by id, and nothing by path tricks; audited', async () => {
    const ok = await t.app.inject({
      url: `/api/admin/util/download?bookFilePath=${fileId}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.rawPayload.equals(await readFile(path.join(CORPUS, 'txt/en-subtitle-utf16le-bom.txt')))).toBe(true);
    expect(ok.headers['content-disposition']).toContain('sub.txt');
    for (const attempt of [
      '../app-secret',
      '../../etc/passwd',
      `uploads/../app-secret`,
      '/etc/passwd',
      'postgres-password',
    ]) {
      const res = await t.call('GET', `/api/admin/util/download?bookFilePath=${encodeURIComponent(attempt)}`, {
        token: admin,
      });
      expect(res.status, attempt).toBe(404);
    }
    const audit = await t.call('GET', '/api/admin/audit', { token: admin });
    expect(audit.data.find((a: { action: string }) => a.action === 'download')).toMatchObject({
      target: fileId,
      admin: 'boss',
    });
  });

  it('gives a support token the user sees, and a book to a user; both audited', async () => {
    const token = await t.call('GET', '/api/admin/util/getUserToken?account=old1', { token: admin });
    expect(token.data.expiresInSeconds).toBe(1800);
    const asOld1 = await t.call('GET', '/api/user/getUserinfo', { token: token.data.token });
    expect(asOld1.data.account).toBe('old1');
    const sessions = await t.call('GET', '/api/user/sessions', { token: token.data.token });
    expect(sessions.data.find((s: { kind: string }) => s.kind === 'impersonation')).toMatchObject({ current: true });

    const code = await seedChineseBook(t, 'boss');
    const given = await t.call('POST', `/api/admin/util/addBook?bookCode=${code}&userId=${asOld1.data.id}`, {
      token: admin,
    });
    expect(given.code).toBe(0);
    expect(
      (await t.call('GET', '/api/book/user/list', { token: token.data.token })).data.map(
        (b: { bookCode: string }) => b.bookCode,
      ),
    ).toContain(code);
    const actions = (await t.call('GET', '/api/admin/audit', { token: admin })).data.map(
      (a: { action: string }) => a.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['getUserToken', 'addBook']));
  });

  it("retries someone's failed upload, audited", async () => {
    const [failed] = (await t.call('GET', '/api/admin/util/checkErrorByUsername?username=reader', { token: admin }))
      .data.uploads;
    expect(
      (await t.call('POST', `/api/admin/util/retryUpload?requestId=${failed.requestId}`, { token: user })).status,
    ).toBe(403);
    const retried = await t.call('POST', `/api/admin/util/retryUpload?requestId=${failed.requestId}`, { token: admin });
    expect(retried.data).toMatchObject({ stage: 'parsingFile', status: 'running' });
    expect((await pollStage(t, `/api/book/analysis?requestId=${failed.requestId}`, user)).data.errorKey).toBe(
      'fileCorrupted',
    );
    expect(
      (await t.call('GET', '/api/admin/audit', { token: admin })).data.some(
        (a: { action: string }) => a.action === 'retryUpload',
      ),
    ).toBe(true);
  });

  it('reports the queue, its round trip and the system', async () => {
    const pool = await t.call('GET', '/api/admin/util/monitorThreadPool', { token: admin });
    expect(pool.data.find((q: { name: string }) => q.name === 'book.parse').states.completed).toBeGreaterThanOrEqual(1);
    const ping = await t.call('GET', '/api/admin/util/kafkaCheck', { token: admin });
    expect(ping.data).toMatchObject({ ok: true, state: 'completed' });
    const info = await t.call('GET', '/api/admin/util/system-info', { token: admin });
    expect(info.data).toMatchObject({ node: process.version, role: 'all' });
    expect(info.data.postgres).toMatch(/^\d+/);
    expect(info.data.databaseBytes).toBeGreaterThan(1_000_000);
    expect(info.data.disk.totalBytes).toBeGreaterThan(0);
  });

  it('disables an account (its sessions end for good) and sets roles, audited', async () => {
    const target = (await t.call('GET', '/api/user/getUserinfo', { token: user })).data;
    const disabled = await t.call('POST', `/api/admin/users/${target.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    expect(disabled.data.status).toBe('disabled');
    expect((await t.call('GET', '/api/user/getUserinfo', { token: user })).status).toBe(401);
    await t.call('POST', `/api/admin/users/${target.id}`, { token: admin, body: { status: 'active', role: 'admin' } });
    // Enabled again, the old token stays dead: only a new login gets in.
    expect((await t.call('GET', '/api/user/getUserinfo', { token: user })).status).toBe(401);
    const login = await t.call('POST', '/api/auth/login', {
      body: { account: target.account, password: STRONG_PASSWORD },
    });
    expect(login.code).toBe(0);
    user = login.data.token;
    expect((await t.call('GET', '/api/user/getUserinfo', { token: user })).data.role).toBe('admin');
    const me = (await t.call('GET', '/api/user/getUserinfo', { token: admin })).data;
    expect(
      (await t.call('POST', `/api/admin/users/${me.id}`, { token: admin, body: { status: 'disabled' } })).data.reason,
    ).toBe('notYourself');
    expect(
      (await t.call('GET', '/api/admin/audit', { token: admin })).data.filter(
        (a: { action: string }) => a.action === 'setUser',
      ),
    ).toHaveLength(2);
  });
});
