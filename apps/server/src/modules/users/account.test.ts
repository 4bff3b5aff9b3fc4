import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORPUS,
  registerUser,
  seedChineseBook,
  startTestApp,
  STRONG_PASSWORD,
  uploadFile,
  waitForMail,
  type TestApp,
} from '../../../test/helpers.ts';

describe('the personal center', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
    token = await registerUser(t, 'lin');
  });
  afterAll(async () => t?.close());

  it('takes an avatar, crops it square and strips its metadata', async () => {
    const canvas = createCanvas(600, 300);
    canvas.getContext('2d').fillRect(0, 0, 600, 300);
    const res = await uploadFile(t, '/api/user/avatar', { name: 'me.png', data: await canvas.encode('png') }, token);
    expect(res.code).toBe(0);
    const image = await t.app.inject({ url: res.data.avatar });
    expect(image.headers['content-type']).toBe('image/jpeg');
    const jpeg = image.rawPayload;
    // The SOF0 marker holds the size: 256 x 256.
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect([jpeg.readUInt16BE(sof + 5), jpeg.readUInt16BE(sof + 7)]).toEqual([256, 256]);
    expect(jpeg.includes(Buffer.from('Exif'))).toBe(false);
    const text = await uploadFile(
      t,
      '/api/user/avatar',
      { name: 'me.png', data: await readFile(path.join(CORPUS, 'txt/en-subtitle-utf16le-bom.txt')) },
      token,
    );
    expect(text.data.key).toBe('notAnImage');
  });

  it('changes the email address only after the new address confirms it', async () => {
    expect(
      (
        await t.call('POST', '/api/user/changeEmail', {
          token,
          body: { email: 'new@example.com', password: 'Wrong2026pass' },
        })
      ).data.key,
    ).toBe('wrongPassword');
    await registerUser(t, 'taken');
    expect(
      (
        await t.call('POST', '/api/user/changeEmail', {
          token,
          body: { email: 'taken@example.com', password: STRONG_PASSWORD },
        })
      ).data.key,
    ).toBe('emailInUse');
    expect(
      (await t.call('POST', '/api/user/changeEmail', { token, body: { email: 'nope', password: STRONG_PASSWORD } }))
        .data.key,
    ).toBe('invalidEmail');

    const sent = await t.call('POST', '/api/user/changeEmail', {
      token,
      body: { email: 'lin.new@example.com', password: STRONG_PASSWORD, uiLanguage: 'en' },
    });
    expect(sent.data).toMatchObject({ channel: 'email', sentTo: 'l***@example.com' });
    expect((await t.call('GET', '/api/user/getUserinfo', { token })).data).toMatchObject({
      email: 'lin@example.com',
      pendingEmail: 'lin.new@example.com',
    });
    expect(
      (
        await t.call('POST', '/api/user/changeEmail', {
          token,
          body: { email: 'other@example.com', password: STRONG_PASSWORD },
        })
      ).data.key,
    ).toBe('verificationCodeCooldown');

    const [mail] = await waitForMail(t.dataDir, 'lin.new@example.com');
    expect(mail!.subject).toBe('Confirm your new email address');
    const code = new URL(mail!.links.find((l) => l.includes('/user/confirm'))!).searchParams.get('code')!;
    const confirmed = await t.call('POST', `/api/auth/confirmAccount?code=${encodeURIComponent(code)}`);
    expect(confirmed.data).toEqual({ account: 'lin', kind: 'emailChange', email: 'lin.new@example.com' });
    expect((await t.call('GET', '/api/user/getUserinfo', { token })).data).toMatchObject({
      email: 'lin.new@example.com',
      pendingEmail: null,
    });
    expect(
      (await t.call('POST', '/api/auth/login', { body: { account: 'lin.new@example.com', password: STRONG_PASSWORD } }))
        .code,
    ).toBe(0);
  });

  it('hides the name on share pages when the user asks', async () => {
    const code = await seedChineseBook(t, 'lin');
    const share = (await t.call('POST', '/api/book/share/create', { token, body: { bookCode: code, features: [] } }))
      .data;
    const other = await registerUser(t, 'curious');
    expect((await t.call('GET', `/api/book/share/${share.id}`, { token: other })).data.sharedBy).toBe('lin');
    await t.call('POST', '/api/user/updateUserinfo', { token, body: { showNameOnShares: false } });
    expect((await t.call('GET', `/api/book/share/${share.id}`, { token: other })).data.sharedBy).toBeNull();
  });

  it('deletes the account with its private books, leaving public books to their readers', async () => {
    const owner = await registerUser(t, 'leaving');
    const privateBook = await seedChineseBook(t, 'leaving');
    await t.call('POST', '/api/book/updateBook', { token: owner, body: { bookCode: privateBook, bookStatus: 0 } });
    const publicBook = await seedChineseBook(t, 'leaving');
    const reader = await registerUser(t, 'staying');
    await t.call('POST', '/api/book/user/add', { token: reader, body: { bookCode: publicBook } });

    expect(
      (await t.call('POST', '/api/user/deleteAccount', { token: owner, body: { password: 'Wrong2026pass' } })).data.key,
    ).toBe('wrongPassword');
    expect(
      (await t.call('POST', '/api/user/deleteAccount', { token: owner, body: { password: STRONG_PASSWORD } })).code,
    ).toBe(0);
    expect((await t.call('GET', '/api/user/getUserinfo', { token: owner })).status).toBe(401);
    expect(
      (await t.call('POST', '/api/auth/login', { body: { account: 'leaving', password: STRONG_PASSWORD } })).code,
    ).toBe(2);
    const db = t.running.infra.db;
    expect(
      await db.selectFrom('books').select('id').where('code', '=', privateBook).executeTakeFirst(),
    ).toBeUndefined();
    const kept = await db
      .selectFrom('books')
      .select('owner_id')
      .where('code', '=', publicBook)
      .executeTakeFirstOrThrow();
    expect(kept.owner_id).toBeNull();
    expect((await t.call('GET', `/api/book/user/getBookByCode?bookCode=${publicBook}`, { token: reader })).code).toBe(
      0,
    );
  });
});
