import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot } from '../src/boot.ts';
import { loadConfig } from '../src/config/env.ts';
import { createLogger } from '../src/lib/logger.ts';
import {
  CORPUS,
  createTestDatabase,
  pollStage,
  registerUser,
  startTestApp,
  STRONG_PASSWORD,
  uploadFile,
  waitForMail,
  type TestApp,
} from './helpers.ts';

const listen = (server: { listen: (port: number, host: string, cb: () => void) => unknown }, address: () => unknown) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((address() as AddressInfo).port)));

describe('mail through a real SMTP server', () => {
  const received: { to: string[]; data: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  let t: TestApp;
  beforeAll(async () => {
    const port = await listen(smtp, () => smtp.server.address());
    t = await startTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      REQUIRE_INVITE: 'false',
      MAIL_FROM: 'Yidu <hello@yidu.test>',
    });
  });
  afterAll(async () => {
    await t?.close();
    smtp.close();
  });

  it('delivers the activation mail over SMTP', async () => {
    const reg = await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'smtp@example.com', password: STRONG_PASSWORD, uiLanguage: 'de' },
    });
    expect(reg.data.activationRequired).toBe(true);
    const deadline = Date.now() + 15_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['smtp@example.com']);
    expect(received[0]!.data).toContain('From: Yidu <hello@yidu.test>');
    expect(received[0]!.data).toMatch(/Subject: .*Yidu/);
    expect(received[0]!.data).toContain('http://yidu.test/user/confirm?code=');
  });
});

describe('SMS through an HTTP provider', () => {
  const texts: { to: string; text: string; auth: string | undefined }[] = [];
  let failing = false;
  const provider = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (failing) {
        res.writeHead(500).end('provider down');
        return;
      }
      texts.push({ ...(JSON.parse(body) as { to: string; text: string }), auth: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  let t: TestApp;
  beforeAll(async () => {
    const port = await listen(provider, () => provider.address());
    t = await startTestApp({
      SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/send`,
      SMS_WEBHOOK_TOKEN: 'sms-secret',
      REQUIRE_INVITE: 'false',
    });
  });
  afterAll(async () => {
    await t?.close();
    provider.close();
  });

  it('posts the code to the provider', async () => {
    const res = await t.call('POST', '/api/auth/getVerificationCode?type=0&phone=%2B8613800000001&uiLanguage=en');
    expect(res.code).toBe(0);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ to: '+8613800000001', auth: 'Bearer sms-secret' });
    expect(texts[0]!.text).toMatch(/^\[Yidu\] Your code is \d{6}\./);
  });

  it('answers failedToSendVerificationCode when the provider fails', async () => {
    failing = true;
    const res = await t.call('POST', '/api/auth/getVerificationCode?type=0&phone=13800000002');
    expect(res.status).toBe(502);
    expect(res.data.key).toBe('failedToSendVerificationCode');
  });
});

describe('the per-address rate limit', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-web-'));
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(webDir, 'assets', 'chunk-abc123.js'), 'console.log(1)');
    t = await startTestApp({ WEB_DIST_DIR: webDir, RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => {
    await t?.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('counts API calls only: the app and its many code files always load', async () => {
    for (let i = 0; i < 12; i++) {
      expect((await t.app.inject({ url: '/assets/chunk-abc123.js' })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/tabs/new' })).statusCode).toBe(200);
    }
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await t.call('GET', '/api/config/public'));
    expect(answers.slice(0, 5).every((a) => a.status === 200)).toBe(true);
    expect(answers[5]).toMatchObject({ status: 429, data: { key: 'tooManyRequests' } });
  });
});

describe('HTTP surface', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-web-'));
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Yidu</title><div id="root"></div>');
    await writeFile(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await startTestApp({ WEB_DIST_DIR: webDir, METRICS_TOKEN: 'scrape-token-0123456789' });
  });
  afterAll(async () => {
    await t?.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('serves the web app with a fallback to index.html for client routes', async () => {
    for (const url of ['/', '/books/all', '/tabs/read/abc/zh', '/user/confirm?code=x']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const asset = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
    // A rebuild while the server runs: new asset files are served at once.
    await writeFile(path.join(webDir, 'assets', 'app-def456.js'), 'console.log(2)');
    expect((await t.app.inject({ url: '/assets/app-def456.js' })).statusCode).toBe(200);
  });

  it('answers unknown API paths with the envelope', async () => {
    const res = await t.call('GET', '/api/no/such/call');
    expect(res.status).toBe(404);
    expect(res).toMatchObject({ code: 404, data: { key: 'notFound' }, msg: '404 Not Found' });
    expect(
      (await t.call('POST', '/api/auth/login', { body: 'not json', headers: { 'content-type': 'application/json' } }))
        .data.key,
    ).toBe('badRequest');
  });

  it('sends security headers and keeps CORS closed', async () => {
    const res = await t.app.inject({ url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves Prometheus metrics to the holder of METRICS_TOKEN only', async () => {
    await t.call('GET', '/api/health');
    await t.call('GET', '/api/no/such/call');
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode,
    ).toBe(404);
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-token-0123456789' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
    expect(res.body).toMatch(/yidu_http_request_duration_seconds_bucket\{.*route="\/api\/health".*le="0.005"\} \d+/);
    expect(res.body).toContain('yidu_errors_total{key="notFound"}');
    expect(res.body).toMatch(/yidu_queue_jobs\{name="[^"]+",state="[^"]+"\} \d+|# TYPE yidu_queue_jobs gauge/);
    expect(res.body).toMatch(/yidu_users \d+/);
  });

  it('publishes the OpenAPI document at /api/docs', async () => {
    const json = await t.app.inject({ url: '/api/docs/json' });
    const doc = json.json() as { paths: Record<string, unknown> };
    for (const route of [
      '/api/auth/register',
      '/api/auth/login',
      '/api/user/getUserinfo',
      '/api/admin/util/findUserByName',
    ]) {
      expect(doc.paths, route).toHaveProperty([route]);
    }
    expect((await t.app.inject({ url: '/api/docs/' })).statusCode).toBe(200);
  });
});

describe('roles: an API process and a worker process sharing one database', () => {
  it('lets the API enqueue a mail that only the worker sends', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-roles-'));
    const env = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      REQUIRE_INVITE: 'false',
      WEB_DIST_DIR: dataDir,
    };
    const logger = createLogger('silent');
    const apiConfig = loadConfig(env, 'api');
    const workerConfig = loadConfig(env, 'worker');
    if (!apiConfig.ok || !workerConfig.ok) throw new Error('config');
    const api = await boot(apiConfig.config, logger);
    try {
      expect(api.mailer).toBeUndefined();
      const res = await api.app!.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { method: 'email', email: 'roles@example.com', password: STRONG_PASSWORD },
      });
      expect(res.json().code).toBe(0);
      await new Promise((r) => setTimeout(r, 1500));
      await expect(waitForMail(dataDir, 'roles@example.com', 1, 100)).rejects.toThrow();

      const worker = await boot(workerConfig.config, logger);
      try {
        expect(worker.app).toBeUndefined();
        const mails = await waitForMail(dataDir, 'roles@example.com');
        expect(mails).toHaveLength(1);
      } finally {
        await worker.stop();
      }
    } finally {
      await api.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start on the same data directory twice', () => {
  it('keeps accounts, the app secret and the embedded database across restarts', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-restart-'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const env = {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(port),
      LOG_LEVEL: 'silent',
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      WEB_DIST_DIR: dataDir,
    };
    const logger = createLogger('silent');
    try {
      const first = loadConfig(env);
      if (!first.ok) throw new Error('config');
      const one = await boot(first.config, logger);
      const reg = await one.app!.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { method: 'email', email: 'stay@example.com', password: STRONG_PASSWORD },
      });
      const token = reg.json().data.token as string;
      const secret = await readFile(path.join(dataDir, 'app-secret'), 'utf8');
      await one.stop();

      const second = loadConfig(env);
      if (!second.ok) throw new Error('config');
      const two = await boot(second.config, logger);
      try {
        const info = await two.app!.inject({
          url: '/api/user/getUserinfo',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(info.json().data.email).toBe('stay@example.com');
        expect(await readFile(path.join(dataDir, 'app-secret'), 'utf8')).toBe(secret);
      } finally {
        await two.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('main.ts', () => {
  it('lists every configuration problem and exits with status 1', async () => {
    const serverRoot = path.resolve(import.meta.dirname, '..');
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: serverRoot,
      env: { PATH: process.env.PATH, PORT: 'abc', SMTP_URL: 'ftp://x' },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('SMTP_URL');
  });

  it('refuses an unknown role', async () => {
    const serverRoot = path.resolve(import.meta.dirname, '..');
    const child = spawn(process.execPath, ['src/main.ts', '--role=chef'], {
      cwd: serverRoot,
      env: { PATH: process.env.PATH },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(2);
    expect(stderr).toContain('--role=api');
  });
});

describe('npm run admin', () => {
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, ['src/cli/admin.ts', ...args], {
        cwd: path.resolve(import.meta.dirname, '..'),
        env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('close', (code) => resolve({ code, out, err }));
    });

  it('creates an admin, promotes a user and mints invitation codes', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-cli-'));
    const env = { DATABASE_URL: await createTestDatabase(), DATA_DIR: dataDir };
    try {
      const created = await run(
        ['create', '--account', 'cliadmin', '--password', 'Cli2026admin', '--email', 'cli@example.com'],
        env,
      );
      expect(created.err).toBe('');
      expect(created.out).toContain('Admin "cliadmin" created');
      expect((await run(['create', '--account', 'cliadmin', '--password', 'Cli2026admin'], env)).err).toContain(
        'accountExists',
      );
      expect((await run(['create', '--account', 'weak', '--password', 'weak'], env)).code).toBe(1);

      const invite = await run(['invite', '--count', '2', '--max-uses', '3'], env);
      expect(invite.out.trim().split('\n')).toHaveLength(2);
      expect((await run(['promote', '--account', 'nobody'], env)).code).toBe(1);
      expect((await run(['dance'], env)).code).toBe(2);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('several workers on one database', () => {
  it('runs each job exactly once', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-workers-'));
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST_DIR: dataDir };
    const logger = createLogger('silent');
    const config = (role: 'api' | 'worker') => {
      const loaded = loadConfig(env, role);
      if (!loaded.ok) throw new Error('config');
      return loaded.config;
    };
    const api = await boot(config('api'), logger);
    const workers = [await boot(config('worker'), logger), await boot(config('worker'), logger)];
    try {
      const jobs = 30;
      for (let i = 0; i < jobs; i++) {
        await api.infra.queue.send('mail.send', {
          to: `reader${i}@example.com`,
          template: 'test',
          language: 'en',
          params: {},
        });
      }
      const deadline = Date.now() + 30_000;
      let files: string[] = [];
      while (Date.now() < deadline) {
        files = (await readdir(path.join(dataDir, 'outbox')).catch(() => [] as string[])).filter((f) =>
          f.endsWith('.eml'),
        );
        if (files.length >= jobs) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      // Give a duplicate the time to show up, if there were one.
      await new Promise((r) => setTimeout(r, 1500));
      const mails = await readOutboxRecipients(dataDir);
      expect(mails).toHaveLength(jobs);
      expect(new Set(mails).size).toBe(jobs);
    } finally {
      for (const w of workers) await w.stop();
      await api.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

async function readOutboxRecipients(dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, 'outbox');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
  return Promise.all(files.map(async (f) => /^To: (.*)$/m.exec(await readFile(path.join(dir, f), 'utf8'))![1]!.trim()));
}

describe('files in an S3-compatible store', () => {
  it('keeps uploaded books and covers in the bucket and serves them', async () => {
    const { default: S3rver } = await import('s3rver');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-s3-app-'));
    const s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'books' }],
    });
    const { port } = await s3.run();
    const t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      S3_BUCKET: 'books',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    try {
      const token = await registerUser(t, 's3reader');
      const upload = await uploadFile(
        t,
        '/api/book/upload',
        { name: 'sub.txt', data: await readFile(path.join(CORPUS, 'txt/en-subtitle-utf16le-bom.txt')) },
        token,
      );
      const saved = await t.call('POST', '/api/book/saveNew', {
        token,
        body: { fileId: upload.data.fileId, bookName: 'S3 book', bookStatus: 0 },
      });
      let done;
      for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById'])
        done = await pollStage(t, `/api/book/${stage}?requestId=${saved.data.requestId}`, token);
      const bookCode = done!.data.result.bookCode;
      const { createCanvas } = await import('@napi-rs/canvas');
      const cover = await uploadFile(
        t,
        `/api/book/cover?bookCode=${bookCode}&scope=user`,
        { name: 'c.png', data: await createCanvas(300, 450).encode('png') },
        token,
      );
      const image = await t.app.inject({ url: cover.data.coverUrl });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      // Nothing went to the local disk.
      expect(await readdir(path.join(t.dataDir, 'files')).catch(() => [])).toEqual([]);
    } finally {
      await t.close();
      await s3.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
