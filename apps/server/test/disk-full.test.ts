import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERRORS } from '@yidu/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { CORPUS, pollStage, registerUser, startTestApp, uploadFile, type TestApp } from './helpers.ts';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from './small-disk.ts';

if (smallDiskUnavailable) console.warn(`disk-full.test.ts skipped: ${smallDiskUnavailable}`);

/** Every file under `dir` but the filler, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name !== '.filler')
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}
const temporaryFiles = async (dir: string) => (await filesUnder(dir)).filter((f) => f.endsWith('.tmp'));

/** 210 KB, 13 images: its upload needs room, and so does its parse (the images are stored). */
const DOCX = path.join(CORPUS, 'docx/en-cancer-statistics-images.docx');
const STALE = 'files/uploads/zz/killed.pdf.0123456789ab.tmp';
const LIVE = 'files/uploads/zz/writing.pdf.abcdef012345.tmp';

describe.skipIf(smallDiskUnavailable)('DATA_DIR on a disk that fills', () => {
  let disk: SmallDisk;
  let t: TestApp;
  let token: string;
  let docx: Buffer;

  beforeAll(async () => {
    disk = await mountSmallDisk(4096);
    // What a write killed two hours ago left, and one another process is making right now.
    await mkdir(path.join(disk.dir, 'files/uploads/zz'), { recursive: true });
    await writeFile(path.join(disk.dir, STALE), Buffer.alloc(50_000));
    await utimes(path.join(disk.dir, STALE), new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
    await writeFile(path.join(disk.dir, LIVE), Buffer.alloc(1000));
    t = await startTestApp({
      DATA_DIR: disk.dir,
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      ADMIN_ACCOUNT: 'chief',
      ADMIN_PASSWORD: 'Chief2026pass',
    });
    token = await registerUser(t, 'reader');
    docx = await readFile(DOCX);
  });
  afterAll(async () => {
    await t?.close();
    await disk?.unmount();
  });

  it('sweeps the temporary files of killed writes at start-up, not those of live ones', async () => {
    const deadline = Date.now() + 10_000;
    while ((await temporaryFiles(disk.dir)).includes(STALE) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await temporaryFiles(disk.dir)).toEqual([LIVE]);
    await rm(path.join(disk.dir, LIVE));
  });

  it('answers an upload with storageFull, leaves nothing half written, and takes the next once there is room', async () => {
    await disk.fill(100 * 1024); // less room than the file needs: the write starts and fails half way
    const refused = await uploadFile(t, '/api/book/upload', { name: 'cancer.docx', data: docx }, token);
    expect(refused.status).toBe(507);
    expect(refused.data.key).toBe('storageFull');
    expect(refused.msg).toBe(ERRORS.storageFull.message);
    // The admins' checklist says so before anyone complains.
    const admin = (await t.call('POST', '/api/auth/login', { body: { account: 'chief', password: 'Chief2026pass' } }))
      .data.token;
    const setup = (await t.call('GET', '/api/admin/setup', { token: admin })).data;
    expect(setup.attention).toBe(true);
    expect(setup.items.find((i: { id: string }) => i.id === 'storage')).toMatchObject({
      status: 'failing',
      detail: { dataDir: disk.dir, totalMb: 4 },
    });
    expect(await temporaryFiles(disk.dir)).toEqual([]);
    expect((await filesUnder(disk.dir)).filter((f) => f.startsWith('files/uploads/'))).toEqual([]);
    // The refused upload does not count against the day's limit.
    expect((await t.call('GET', '/api/book/upload/count', { token })).data.today).toBe(0);

    // A feedback image meets the same disk, and says the same.
    // Noise, so that its JPEG is far larger than the room left.
    const canvas = createCanvas(800, 800);
    const pixels = canvas.getContext('2d').createImageData(800, 800);
    pixels.data.set(randomBytes(pixels.data.length));
    canvas.getContext('2d').putImageData(pixels, 0, 0);
    const image = await canvas.encode('png');
    const feedback = await uploadFile(t, '/api/feedback/add', { name: 'shot.jpg', data: image }, token, {
      title: 'A bug',
      type: 'systemBug',
      description: 'With a picture',
    });
    expect(feedback).toMatchObject({ status: 507, data: { key: 'storageFull' } });
    expect(await temporaryFiles(disk.dir)).toEqual([]);

    await disk.free();
    const accepted = await uploadFile(t, '/api/book/upload', { name: 'cancer.docx', data: docx }, token);
    expect(accepted.status).toBe(200);
    expect(accepted.data.fileId).toMatch(/^f/);
  });

  it('fails a parse that meets the full disk with storageFull, without retries, and Retry finishes it with room', async () => {
    const uploaded = await uploadFile(t, '/api/book/upload', { name: 'cancer.docx', data: docx }, token);
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: uploaded.data.fileId, bookName: 'Cancer statistics', bookStatus: 0 },
    });
    const requestId = saved.data.requestId as string;
    await disk.fill(); // the book's 13 images find no room

    const failed = await pollStage(t, `/api/book/analysis?requestId=${requestId}`, token);
    expect(failed.data).toMatchObject({ stage: 'parsingFile', status: 'failed', errorKey: 'storageFull' });
    // Ran once: a full disk is no reason for the queue to try again (and again) at once.
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      const job = await client.query(
        `SELECT j.retry_count, j.state FROM upload_requests r JOIN pgboss.job j ON j.id = r.job_id::uuid WHERE r.id = $1`,
        [requestId],
      );
      expect(job.rows).toEqual([{ retry_count: 0, state: 'completed' }]);
    } finally {
      await client.end();
    }
    expect(await temporaryFiles(disk.dir)).toEqual([]);

    // The admin's list of failed uploads says why.
    const login = await t.call('POST', '/api/auth/login', { body: { account: 'chief', password: 'Chief2026pass' } });
    const errors = await t.call('GET', '/api/admin/util/checkErrorByAccount?account=reader', {
      token: login.data.token,
    });
    expect(errors.data.uploads).toEqual([expect.objectContaining({ requestId, errorKey: 'storageFull' })]);

    await disk.free();
    const retried = await t.call('POST', `/api/book/upload/retry?requestId=${requestId}`, { token });
    expect(retried.status).toBe(200);
    const done = await pollStage(t, `/api/book/analysis?requestId=${requestId}`, token);
    expect(done.data).toMatchObject({ status: 'done' });
    expect(done.data.result.images).toBeGreaterThan(0);
  });
});

/** The embedded test server runs as the 'postgres' user when the tests run as root. */
function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

const localServer = !process.env.TEST_DATABASE_URL && postgresUser() !== undefined;

describe.skipIf(smallDiskUnavailable || !localServer)("the database's own disk full", () => {
  let disk: SmallDisk;
  let t: TestApp;
  let client: pg.Client;
  const tablespace = `yidu_small_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
    disk = await mountSmallDisk(512, postgresUser());
    client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    // The feedback table moves to the small disk: PostgreSQL itself meets the full disk (53100).
    await client.query(`CREATE TABLESPACE ${tablespace} LOCATION '${disk.dir}'`);
    await client.query(`ALTER TABLE feedback SET TABLESPACE ${tablespace}`);
  });
  afterAll(async () => {
    await client?.query(`ALTER TABLE feedback SET TABLESPACE pg_default`);
    await client?.query(`DROP TABLESPACE ${tablespace}`);
    await client?.end();
    await t?.close();
    await disk?.unmount();
  });

  it('answers storageFull, and works again once there is room', async () => {
    const token = await registerUser(t, 'writer');
    const body = { title: 'Full', type: 'systemBug', description: 'The database is full' };
    await disk.fill();
    const refused = await t.call('POST', '/api/feedback/add', { token, body });
    expect(refused).toMatchObject({ status: 507, data: { key: 'storageFull' } });
    await disk.free();
    expect((await t.call('POST', '/api/feedback/add', { token, body })).status).toBe(200);
  });
});
