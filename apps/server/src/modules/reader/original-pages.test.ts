/**
 * The page view's server side, through HTTP: a signed URL of a PDF book's original file for whoever may
 * read the book, served by byte ranges (from the local disk and from S3), and where a PDF page is in
 * the reflowed book.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_URL_HOURS } from '../../lib/signing.ts';
import {
  CORPUS,
  pollStage,
  registerUser,
  seedChineseBook,
  startTestApp,
  uploadFile,
  type TestApp,
} from '../../../test/helpers.ts';

const PAPER = 'pdf/en-tracemonkey-two-column-footnotes.pdf';

/** Uploads a corpus file and runs its pipeline; returns the book code. */
async function uploadBook(t: TestApp, token: string, file: string, visibility: 0 | 1): Promise<string> {
  const data = await readFile(path.join(CORPUS, file));
  const upload = await uploadFile(t, '/api/book/upload', { name: path.basename(file), data }, token);
  expect(upload.code, JSON.stringify(upload.data)).toBe(0);
  const saved = await t.call('POST', '/api/book/saveNew', {
    token,
    body: { fileId: upload.data.fileId, bookName: path.basename(file), bookStatus: visibility },
  });
  let done;
  for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById'])
    done = await pollStage(t, `/api/book/${stage}?requestId=${saved.data.requestId}`, token, 120_000);
  expect(done!.data.status, JSON.stringify(done!.data)).toBe('done');
  return done!.data.result.bookCode as string;
}

/** Fetches a media URL as pdf.js and browsers do: no token, maybe a Range and validators. */
const fetchMedia = (t: TestApp, url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers });

/** The byte-range contract of one stored file, through the media route of `t`. */
async function checkRanges(t: TestApp, url: string, file: Buffer) {
  const size = file.length;
  const whole = await fetchMedia(t, url);
  expect(whole.statusCode).toBe(200);
  expect(whole.headers['content-type']).toBe('application/pdf');
  expect(whole.headers['accept-ranges']).toBe('bytes');
  expect(Number(whole.headers['content-length'])).toBe(size);
  expect(whole.rawPayload.equals(file)).toBe(true);
  const etag = String(whole.headers.etag);
  expect(etag).toMatch(/^".+"$/);

  const head = await fetchMedia(t, url, {}, 'HEAD');
  expect(head.statusCode).toBe(200);
  expect(Number(head.headers['content-length'])).toBe(size);
  expect(head.headers['accept-ranges']).toBe('bytes');
  expect(head.rawPayload.length).toBe(0);

  const ranged = async (range: string, extra: Record<string, string> = {}) => fetchMedia(t, url, { range, ...extra });
  const expectPart = async (range: string, start: number, end: number) => {
    const res = await ranged(range);
    expect(res.statusCode, range).toBe(206);
    expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
    expect(Number(res.headers['content-length']), range).toBe(end - start + 1);
    expect(res.rawPayload.equals(file.subarray(start, end + 1)), range).toBe(true);
  };
  await expectPart('bytes=0-99', 0, 99);
  await expectPart('bytes=0-0', 0, 0);
  await expectPart('bytes=1000-', 1000, size - 1);
  await expectPart('bytes=-500', size - 500, size - 1);
  await expectPart(`bytes=${size - 10}-${size + 5000}`, size - 10, size - 1);
  await expectPart(`bytes=-${size + 10}`, 0, size - 1);
  await expectPart('BYTES = 5-9', 5, 9);

  // Several ranges, unreadable ones and other units: the whole file.
  for (const range of [
    'bytes=0-9,20-29',
    'bytes=0-,0-,0-',
    'bytes=abc',
    'bytes=9-5',
    'items=0-5',
    'bytes=',
    'bytes=-',
  ]) {
    const res = await ranged(range);
    expect(res.statusCode, range).toBe(200);
    expect(res.rawPayload.length, range).toBe(size);
  }
  // Nothing of the file in the range: 416 with the size.
  for (const range of [`bytes=${size}-`, `bytes=${size + 100}-${size + 200}`, 'bytes=-0']) {
    const res = await ranged(range);
    expect(res.statusCode, range).toBe(416);
    expect(res.headers['content-range'], range).toBe(`bytes */${size}`);
    expect(res.json().data.key).toBe('rangeNotSatisfiable');
  }

  // If-Range: the range while the copy is current, else the whole (new) file.
  expect((await ranged('bytes=0-9', { 'if-range': etag })).statusCode).toBe(206);
  expect((await ranged('bytes=0-9', { 'if-range': '"something-else"' })).statusCode).toBe(200);
  expect((await ranged('bytes=0-9', { 'if-range': 'Wed, 21 Oct 2015 07:28:00 GMT' })).statusCode).toBe(200);
  expect((await fetchMedia(t, url, { 'if-none-match': etag })).statusCode).toBe(304);
  const headPart = await fetchMedia(t, url, { range: 'bytes=10-19' }, 'HEAD');
  expect(headPart.statusCode).toBe(206);
  expect(headPart.headers['content-range']).toBe(`bytes 10-19/${size}`);
  expect(headPart.rawPayload.length).toBe(0);

  // 50 readers' ranges at once, each its own bytes.
  const starts = Array.from({ length: 50 }, (_, i) => Math.floor((i * (size - 70_000)) / 50));
  const parts = await Promise.all(starts.map((s) => ranged(`bytes=${s}-${s + 65_535}`)));
  parts.forEach((res, i) => {
    expect(res.statusCode).toBe(206);
    expect(res.rawPayload.equals(file.subarray(starts[i], starts[i]! + 65_536))).toBe(true);
  });
}

describe('the original page view of a PDF book', () => {
  let t: TestApp;
  let owner: string;
  let other: string;
  let recipient: string;
  let paper: Buffer;
  let privateCode: string;

  const originalOf = (token: string, code: string) => t.call('GET', `/api/reader/original?bookCode=${code}`, { token });

  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
    owner = await registerUser(t, 'owner');
    other = await registerUser(t, 'other');
    recipient = await registerUser(t, 'recipient');
    paper = await readFile(path.join(CORPUS, PAPER));
    privateCode = await uploadBook(t, owner, PAPER, 0);
  }, 180_000);
  afterAll(async () => t?.close());

  it('gives the owner a URL of the stored file, living 6 to 7 hours, served by byte ranges', async () => {
    const res = await originalOf(owner, privateCode);
    expect(res.code, JSON.stringify(res.data)).toBe(0);
    expect(res.data.size).toBe(paper.length);
    expect(res.data.url).toMatch(/^\/api\/media\/uploads\/.+\.pdf\?exp=\d+&user=\d+&book=\d+&sig=/);
    const expires = Date.parse(res.data.expiresAt);
    expect(expires - Date.now()).toBeGreaterThan(MEDIA_URL_HOURS * 3600_000 - 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual((MEDIA_URL_HOURS + 1) * 3600_000);
    await checkRanges(t, res.data.url, paper);
  });

  it('refuses an expired, stretched or re-addressed URL, and other readers', async () => {
    const { url } = (await originalOf(owner, privateCode)).data;
    const pathname = url.split('?')[0]!;
    const grant = /user=(\d+)&book=(\d+)/.exec(url)!;
    const old = t.running.services.signer.sign(pathname, {
      grant: { userId: Number(grant[1]), bookId: Number(grant[2]) },
      now: Date.now() - (MEDIA_URL_HOURS + 1) * 3600_000,
    });
    expect((await fetchMedia(t, old, { range: 'bytes=0-99' })).statusCode).toBe(404);
    const stretched = old.replace(/exp=(\d+)/, (_m, exp: string) => `exp=${Number(exp) + 7200}`);
    expect((await fetchMedia(t, stretched, { range: 'bytes=0-99' })).statusCode).toBe(404);

    // Another user may not have the URL, nor turn the owner's into theirs.
    const refused = await originalOf(other, privateCode);
    expect(refused.status).toBe(404);
    expect(refused.data.key).toBe('bookNotFound');
    const otherId = (await t.call('GET', '/api/user/getUserinfo', { token: other })).data.id;
    expect((await fetchMedia(t, url.replace(/user=\d+/, `user=${otherId}`))).statusCode).toBe(404);
    expect((await t.call('GET', '/api/reader/original?bookCode=nothing-here', { token: owner })).status).toBe(404);
  });

  it('serves a share recipient until the share is revoked, at once, mid-reading', async () => {
    const share = await t.call('POST', '/api/book/share/create', {
      token: owner,
      body: { bookCode: privateCode, features: ['explanation'] },
    });
    expect((await originalOf(recipient, privateCode)).status).toBe(404);
    expect((await t.call('PUT', `/api/book/share/accept/${share.data.id}`, { token: recipient })).code).toBe(0);
    const res = await originalOf(recipient, privateCode);
    expect(res.code).toBe(0);
    expect(res.data.url).toMatch(/user=\d+&book=\d+/);
    const first = await fetchMedia(t, res.data.url, { range: 'bytes=0-1023' });
    expect(first.statusCode).toBe(206);
    // Granted media are kept briefly by the browser, so that a revoked share soon stops there too.
    expect(first.headers['cache-control']).toMatch(/max-age=([1-9]|[1-9]\d|[12]\d\d|300)$/);

    expect((await t.call('DELETE', `/api/book/share/${share.data.id}`, { token: owner })).code).toBe(0);
    expect((await fetchMedia(t, res.data.url, { range: 'bytes=1024-2047' })).statusCode).toBe(404);
    expect((await fetchMedia(t, res.data.url, {}, 'HEAD')).statusCode).toBe(404);
    expect((await originalOf(recipient, privateCode)).status).toBe(404);
    // The owner reads on.
    const own = (await originalOf(owner, privateCode)).data.url;
    expect((await fetchMedia(t, own, { range: 'bytes=1024-2047' })).statusCode).toBe(206);
  });

  it('lets anyone holding the URL of a book in the public library read it, and has no pages for other formats', async () => {
    const publicCode = await uploadBook(t, owner, PAPER, 1);
    const res = await originalOf(other, publicCode);
    expect(res.code).toBe(0);
    expect(res.data.url).not.toMatch(/[?&](user|book|share)=/);
    expect((await fetchMedia(t, res.data.url, { range: 'bytes=0-7' })).rawPayload.toString()).toBe('%PDF-1.4');

    const chinese = await seedChineseBook(t, 'owner');
    const notPdf = await originalOf(owner, chinese);
    expect(notPdf.status).toBe(404);
    expect(notPdf.data.key).toBe('noOriginalPages');
    const locate = await t.call('GET', `/api/reader/pdfLocate?bookCode=${chinese}&pdfPage=1`, { token: owner });
    expect(locate.data.key).toBe('noOriginalPages');
  });

  it('finds the reader page where each PDF page begins, and the paragraph under a point of a page', async () => {
    const db = t.running.infra.db;
    const book = await db.selectFrom('books').select(['id']).where('code', '=', privateCode).executeTakeFirstOrThrow();
    const blocks = await db
      .selectFrom('book_blocks')
      .select(['seq', 'page', 'block_id', 'pdf_page', 'pdf_regions'])
      .where('book_id', '=', book.id)
      .orderBy('seq')
      .execute();
    const pdfPages = [...new Set(blocks.map((b) => b.pdf_page!))].sort((a, b) => a - b);
    expect(pdfPages.length).toBeGreaterThan(10);
    const locate = (pdfPage: number, point = '') =>
      t.call('GET', `/api/reader/pdfLocate?bookCode=${privateCode}&pdfPage=${pdfPage}${point}`, { token: owner });
    for (const pdfPage of pdfPages) {
      const first = blocks.find((b) => b.pdf_page === pdfPage)!;
      const res = await locate(pdfPage);
      expect(res.data, `PDF page ${pdfPage}`).toEqual({
        page: first.page,
        blockId: first.block_id,
        pdfRegions: first.pdf_regions,
      });
    }
    // Past the last page: the last block of the book's last PDF page.
    const last = blocks.filter((b) => b.pdf_page === pdfPages.at(-1)).at(-1)!;
    expect((await locate(pdfPages.at(-1)! + 50)).data).toMatchObject({ page: last.page, blockId: last.block_id });
    expect((await locate(0)).status).toBe(400);
    expect((await locate(1, '&x=1.5&y=0.5')).status).toBe(400);
    expect(
      (await t.call('GET', `/api/reader/pdfLocate?bookCode=${privateCode}&pdfPage=1`, { token: other })).status,
    ).toBe(404);

    // A click in the middle of any piece of a paragraph finds that paragraph, on its reader page, with
    // every piece of it (a paragraph going on in the next column or on the next page has several).
    const withRegions = blocks.filter((b) => (b.pdf_regions?.length ?? 0) > 0);
    expect(withRegions.length).toBeGreaterThan(100);
    let pieces = 0;
    for (const block of withRegions.filter((_, i) => i % 3 === 0)) {
      for (const r of block.pdf_regions!) {
        const res = await locate(r.page, `&x=${r.x + r.w / 2}&y=${r.y + r.h / 2}`);
        expect(res.data, `${block.block_id} on PDF page ${r.page}`).toEqual({
          page: block.page,
          blockId: block.block_id,
          pdfRegions: block.pdf_regions,
        });
        pieces += 1;
      }
    }
    expect(pieces).toBeGreaterThan(40);
    expect(withRegions.some((b) => new Set(b.pdf_regions!.map((r) => r.page)).size > 1)).toBe(true);
    // In the margin: the nearest paragraph of that page.
    const onPage3 = withRegions.filter((b) => b.pdf_regions!.some((r) => r.page === 3));
    const leftmostTop = onPage3
      .flatMap((b) => b.pdf_regions!.filter((r) => r.page === 3).map((r) => ({ b, r })))
      .sort((a, b) => a.r.y - b.r.y || a.r.x - b.r.x)[0]!;
    const margin = await locate(3, `&x=${Math.max(0, leftmostTop.r.x - 0.05)}&y=${leftmostTop.r.y + 0.001}`);
    expect(margin.data.blockId).toBe(leftmostTop.b.block_id);
  });
});

describe('the original file from an S3-compatible store', () => {
  it('is served by byte ranges from the bucket', { timeout: 180_000 }, async () => {
    const { default: S3rver } = await import('s3rver');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-s3-pages-'));
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
      const code = await uploadBook(t, token, PAPER, 0);
      const res = await t.call('GET', `/api/reader/original?bookCode=${code}`, { token });
      expect(res.code).toBe(0);
      await checkRanges(t, res.data.url, await readFile(path.join(CORPUS, PAPER)));
    } finally {
      await t.close();
      await s3.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
