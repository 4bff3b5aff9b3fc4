/**
 * HTTP at the edges: security headers that fit how Yidu is served (plain HTTP on a home network, or
 * HTTPS), caching that never keeps an answer meant for one user, and input that cannot be text
 * answered with 400 badRequest instead of 500.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, STRONG_PASSWORD, uploadFile, type TestApp } from './helpers.ts';

/** A built web app in miniature: index.html and one hashed asset. */
async function miniatureWebApp(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-web-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><title>Yidu</title><script src="/assets/app-1a2b.js"></script>',
  );
  await writeFile(path.join(dir, 'assets', 'app-1a2b.js'), 'console.log("yidu")');
  return dir;
}

const OPEN = { REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' };

describe('security headers and caching over plain HTTP', () => {
  let t: TestApp;
  let web: string;
  let token: string;
  beforeAll(async () => {
    web = await miniatureWebApp();
    t = await startTestApp({ ...OPEN, PUBLIC_URL: 'http://yidu.lan:3000', TRUST_PROXY: 'true', WEB_DIST_DIR: web });
    token = await registerUser(t, 'header');
  });
  afterAll(async () => {
    await t?.close();
    if (web) await rm(web, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('does not upgrade requests nor send HSTS to a plain-HTTP address', async () => {
    for (const url of ['/', '/library', '/assets/app-1a2b.js', '/api/health']) {
      const res = await get(url, { host: '192.168.1.20:3000' });
      const policy = String(res.headers['content-security-policy']);
      expect(policy, url).toContain("default-src 'self'");
      expect(policy, url).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('upgrades and sends HSTS when a trusted proxy says the request came over HTTPS', async () => {
    const res = await get('/', { 'x-forwarded-proto': 'https' });
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('says no-store on every answer of the API that depends on who asks, errors included', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { account: 'header', password: STRONG_PASSWORD },
    });
    expect(login.json().data.token).toBeTruthy();
    expect(login.headers['cache-control']).toBe('no-store');
    const me = await get('/api/user/getUserinfo', { authorization: `Bearer ${token}` });
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    const list = await get('/api/book/user/list', { authorization: `Bearer ${token}` });
    expect(list.headers['cache-control']).toBe('no-store');
    for (const url of ['/api/user/getUserinfo', '/api/nothing-here', '/api/health']) {
      expect((await get(url)).headers['cache-control'], url).toBe('no-store');
    }
  });

  it('keeps the caching of the web app: hashed assets for a year, index.html revalidated', async () => {
    expect((await get('/assets/app-1a2b.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/')).headers['cache-control']).toBe('no-cache');
    expect((await get('/library')).headers['cache-control']).toBe('no-cache');
  });
});

describe('security headers when PUBLIC_URL is https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ...OPEN, PUBLIC_URL: 'https://read.example.com' });
  });
  afterAll(async () => t?.close());

  it('upgrades and sends HSTS on every answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('input that cannot be text', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    // X-Forwarded-Proto from an untrusted client changes nothing (TRUST_PROXY is off here).
    t = await startTestApp(OPEN);
    token = await registerUser(t, 'edges');
  });
  afterAll(async () => t?.close());

  const send = async (options: InjectOptions) => {
    const res = await t.app.inject({
      ...options,
      headers: { authorization: `Bearer ${token}`, ...(options.headers as Record<string, string>) },
    });
    return { status: res.statusCode, body: res.json() as { code: number; data: { key: string; reason?: string } } };
  };
  const expectBadRequest = (res: Awaited<ReturnType<typeof send>>, label: string) => {
    expect(res.status, label).toBe(400);
    expect(res.body.data.key, label).toBe('badRequest');
  };

  it('ignores X-Forwarded-Proto without TRUST_PROXY', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(String(res.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers 400 for a NUL or bad percent-encoding in the query or the path', async () => {
    const urls = [
      '/api/book/user/library?keyword=%00',
      '/api/book/user/library?keyword=a%00b&page=1',
      '/api/book/user/library?keyword=%ZZ',
      '/api/book/user/library?keyword=%C3%28',
      '/api/book/user/library?keyword=%ED%A0%80',
      '/api/book/user/getBookByCode?bookCode=a%00b',
      '/api/book/user/library?key%00word=x',
      '/api/auth/confirmAccount?code=%00',
    ];
    for (const url of urls)
      expectBadRequest(await send({ method: url.includes('confirm') ? 'POST' : 'GET', url }), url);
    for (const url of ['/api/book/user/ab%00cd', '/api/book/user/%E0%A4%A', '/api/book/user/%C3%28'])
      expectBadRequest(await send({ method: 'DELETE', url }), url);
    // The media route decodes its own path.
    expectBadRequest(await send({ method: 'GET', url: '/api/media/covers/%E0%A4%A.jpg?sig=x' }), 'media');
  });

  it('answers 400 for a NUL, a lone surrogate or invalid UTF-8 in a JSON body', async () => {
    const json = { 'content-type': 'application/json' };
    expectBadRequest(
      await send({ method: 'POST', url: '/api/auth/login', payload: { account: 'a\u0000b', password: 'x' } }),
      'NUL',
    );
    expectBadRequest(
      await send({
        method: 'POST',
        url: '/api/auth/login',
        payload: '{"account":"\\ud800","password":"Wrong2026pass"}',
        headers: json,
      }),
      'lone surrogate',
    );
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"account":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('","password":"Wrong2026pass"}'),
    ]);
    expectBadRequest(
      await send({ method: 'POST', url: '/api/auth/login', payload: invalidUtf8, headers: json }),
      'UTF-8',
    );
    expectBadRequest(
      await send({ method: 'POST', url: '/api/user/updateUserinfo', payload: { nickname: 'x\u0000' } }),
      'nickname',
    );
    expectBadRequest(
      await send({
        method: 'POST',
        url: '/api/reader/annotation',
        payload: { bookCode: 'x', blockId: 'c1-b1', content: '\u0000' },
      }),
      'annotation',
    );
    // Keys count too.
    expectBadRequest(
      await send({ method: 'POST', url: '/api/user/updateUserinfo', payload: '{"nick\\u0000":"x"}', headers: json }),
      'key',
    );
    // Proper text, CJK and emoji included, still passes.
    const fine = await send({ method: 'POST', url: '/api/user/updateUserinfo', payload: { nickname: '读者 📚' } });
    expect(fine.status).toBe(200);
  });

  it('answers 400 for a NUL in multipart fields and file names', async () => {
    const data = Buffer.from('A short book.\n\nIt has two paragraphs.');
    const named = await uploadFile(t, '/api/book/upload', { name: 'a\u0000.txt', data }, token);
    expect(named.status).toBe(400);
    expect(named.data.key).toBe('badRequest');
    const upload = await uploadFile(t, '/api/book/upload', { name: 'a.txt', data }, token);
    const saved = await uploadFile(t, `/api/book/save/${upload.data.fileId}`, undefined, token, {
      data: JSON.stringify({ bookName: 'x\u0000y', bookStatus: 0 }),
    });
    expect(saved.status).toBe(400);
    expect(saved.data.key).toBe('badRequest');
    const feedback = await uploadFile(t, '/api/feedback/add', undefined, token, {
      title: 't\u0000',
      type: 'uiIssue',
      description: 'd',
    });
    expect(feedback.status).toBe(400);
    expect(feedback.data.key).toBe('badRequest');
  });

  it('answers 400 when a NUL reaches the database some other way', async () => {
    // Node's HTTP parser refuses a NUL in a header; inject does not, which makes it a way past the checks.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { account: 'edges', password: STRONG_PASSWORD },
      headers: { 'user-agent': 'agent\u0000' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data).toEqual({ key: 'badRequest', reason: 'invalidText' });
  });

  it('keeps the envelope for a path Fastify cannot decode', async () => {
    const res = await send({ method: 'GET', url: `/api/book/${randomBytes(2).toString('hex')}%E0%A4%A/library` });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, data: { key: 'badRequest' } });
  });
});
