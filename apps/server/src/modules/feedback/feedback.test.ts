import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, registerUser, startTestApp, uploadFile, type TestApp } from '../../../test/helpers.ts';

describe('feedback', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      ADMIN_ACCOUNT: 'desk',
      ADMIN_PASSWORD: 'Desk2026pass',
    });
    admin = (await t.call('POST', '/api/auth/login', { body: { account: 'desk', password: 'Desk2026pass' } })).data
      .token;
    alice = await registerUser(t, 'alice');
    bob = await registerUser(t, 'bob');
  });
  afterAll(async () => t?.close());

  it('takes a title, a type, a description and an image checked by content', async () => {
    const png = await readFile(path.join(CORPUS, 'bad/png-image-named-as.pdf'));
    const res = await uploadFile(t, '/api/feedback/add', { name: 'shot.png', data: png }, alice, {
      title: '翻译按钮没反应',
      type: 'systemBug',
      description: '点了之后什么都没有发生',
    });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      title: '翻译按钮没反应',
      type: 'systemBug',
      status: 'unresolved',
      reply: null,
      user: { username: 'alice' },
    });
    const image = await t.app.inject({ url: res.data.imageUrl });
    expect(image.headers['content-type']).toBe('image/jpeg');

    const fields = { title: 'x', type: 'uiIssue', description: 'y' };
    const notImage = await uploadFile(
      t,
      '/api/feedback/add',
      { name: 'a.png', data: Buffer.from('%PDF-1.4 not an image') },
      alice,
      fields,
    );
    expect(notImage.data.key).toBe('notAnImage');
    expect(notImage.msg).toBe('Upload file must be an image!');
    const big = Buffer.concat([png.subarray(0, 8), Buffer.alloc(10 * 1024 * 1024 + 1)]);
    expect((await uploadFile(t, '/api/feedback/add', { name: 'b.png', data: big }, alice, fields)).data.key).toBe(
      'imageTooLarge',
    );
    expect((await uploadFile(t, '/api/feedback/add', undefined, alice, { ...fields, title: '' })).data).toMatchObject({
      key: 'badRequest',
      reason: 'titleRequired',
    });
    expect(
      (await uploadFile(t, '/api/feedback/add', undefined, alice, { ...fields, description: ' ' })).data,
    ).toMatchObject({ key: 'badRequest', reason: 'descriptionRequired' });
    expect((await uploadFile(t, '/api/feedback/add', undefined, alice, { ...fields, type: 'rant' })).data.key).toBe(
      'badRequest',
    );
    expect(
      (
        await uploadFile(t, '/api/feedback/add', undefined, bob, {
          title: 'Dark mode',
          type: 'optimizationSuggestion',
          description: 'Please add one',
        })
      ).code,
    ).toBe(0);
  });

  it("shows users their own feedback only, admins everyone's", async () => {
    const mine = await t.call('GET', '/api/feedback/search', { token: alice });
    expect(mine.data.total).toBe(1);
    const all = await t.call('GET', '/api/feedback/search', { token: admin });
    expect(all.data.total).toBe(2);
    expect(all.data.items[0].title).toBe('Dark mode');
    expect((await t.call('GET', '/api/feedback/search?type=systemBug', { token: admin })).data.total).toBe(1);
    expect(
      (await t.call('GET', `/api/feedback/search?keyword=${encodeURIComponent('翻译')}`, { token: admin })).data.total,
    ).toBe(1);
    const bobs = all.data.items.find((f: { title: string }) => f.title === 'Dark mode');
    expect((await t.call('GET', `/api/feedback/${bobs.id}`, { token: alice })).data.key).toBe('notFound');
    expect((await t.call('GET', `/api/feedback/${bobs.id}`, { token: bob })).data.title).toBe('Dark mode');
  });

  it('moves through statuses set by admins, with a reply the user sees', async () => {
    const [item] = (await t.call('GET', '/api/feedback/search', { token: alice })).data.items;
    expect(
      (await t.call('POST', `/api/feedback/${item.id}/status`, { token: alice, body: { status: 'resolved' } })).status,
    ).toBe(403);
    await t.call('POST', `/api/feedback/${item.id}/status`, {
      token: admin,
      body: { status: 'inProgress', reply: '我们正在处理' },
    });
    const resolved = await t.call('POST', `/api/feedback/${item.id}/status`, {
      token: admin,
      body: { status: 'resolved' },
    });
    expect(resolved.data).toMatchObject({ status: 'resolved', reply: '我们正在处理' });
    expect((await t.call('GET', `/api/feedback/${item.id}`, { token: alice })).data).toMatchObject({
      status: 'resolved',
      reply: '我们正在处理',
    });
    expect(
      (await t.call('POST', `/api/feedback/${item.id}/status`, { token: admin, body: { status: 'done' } })).data.key,
    ).toBe('badRequest');
  });
});
