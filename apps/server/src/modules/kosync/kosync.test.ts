import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { partialMd5, PartialMd5Stream } from '../../lib/partial-md5.ts';
import { CORPUS, registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { kosyncHeaders, md5, newDevicePassword } from '../../../test/device-helpers.ts';
import { chapteredBook, readPages } from '../../../test/ereader-books.ts';
import { uploadBook } from '../../../test/export-helpers.ts';

/**
 * KOReader's partial MD5, written again from its Lua (frontend/util.lua) in Python, apart from the
 * product's code: LuaJIT's bit.lshift masks the count to 5 bits and wraps at 32 bits.
 */
const PYTHON_PARTIAL_MD5 = `
import hashlib, sys
def lshift(x, n):
    return (x << (n & 31)) & 0xFFFFFFFF
for name in sys.argv[1:]:
    h = hashlib.md5()
    with open(name, 'rb') as f:
        for i in range(-1, 11):
            f.seek(lshift(1024, 2 * i))
            sample = f.read(1024)
            if not sample:
                break
            h.update(sample)
    print(h.hexdigest())
`;

function pythonPartialMd5(files: string[]): string[] {
  return execFileSync('python3', ['-c', PYTHON_PARTIAL_MD5, ...files], { encoding: 'utf8' })
    .trim()
    .split('\n');
}

/** The partial MD5 through the product's stream, the bytes coming in pieces of awkward sizes. */
async function streamedPartialMd5(data: Buffer): Promise<string> {
  let digest = '';
  const pieces: Buffer[] = [];
  for (let at = 0, n = 0; at < data.length; n += 1) {
    const size = [1, 1023, 4097, 65_537, 333_333][n % 5]!;
    pieces.push(data.subarray(at, at + size));
    at += size;
  }
  await pipeline(Readable.from(pieces), new PartialMd5Stream((d) => (digest = d.partialMd5)), async function* (source) {
    for await (const _ of source) yield;
  });
  return digest;
}

type KosyncAnswer = { status: number; body: Record<string, unknown> };

describe('KOReader progress sync (kosync)', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let token: string;
  let device: { username: string; password: string };
  let pdfCode: string;
  let pdfBytes: Buffer;
  let bookCode: string;
  const tmp: string[] = [];

  /** A request exactly as KOReader's kosync plugin makes it (KOSyncClient.lua with its Spore spec, api.json). */
  const koreader = async (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = kosyncHeaders(device.username, device.password),
  ): Promise<KosyncAnswer> => {
    const res = await t.app.inject({
      method,
      url: `/kosync${url}`,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['cache-control']).toBe('no-store');
    return { status: res.statusCode, body: res.json() };
  };
  const push = (document: string, progress: string, percentage: number, device_id = 'kobo-1') =>
    koreader('PUT', '/syncs/progress', { document, progress, percentage, device: 'Kobo_spaBW', device_id });
  const pull = (document: string) => koreader('GET', `/syncs/progress/${document}`);
  const webPosition = async (code: string) =>
    (await t.call('GET', `/api/reader/position?bookCode=${code}`, { token })).data as { page: number; blockId: string };
  const moveWebReader = (code: string, page: number, language = 'zh') =>
    t.call('PUT', '/api/reader/position', { token, body: { bookCode: code, page, language } });

  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      STARTING_POINTS: '1000000',
    });
    token = await registerUser(t, 'reader');
    device = await newDevicePassword(t, token, 'KOReader');
    pdfCode = await uploadBook(t, token, 'pdf/en-tracemonkey-two-column-footnotes.pdf', 0);
    pdfBytes = await readFile(path.join(CORPUS, 'pdf/en-tracemonkey-two-column-footnotes.pdf'));
    // Three chapters, the second longer than one content document (20 pages), and a cover.
    const canvas = createCanvas(60, 90);
    canvas.getContext('2d').fillRect(0, 0, 60, 90);
    const pages = (chapter: number, count: number) =>
      Array.from({ length: count }, (_, p) => [
        `Chapter ${chapter}, page ${p + 1}: the first paragraph of this page.`,
        `Chapter ${chapter}, page ${p + 1}: the second paragraph of this page.`,
      ]);
    bookCode = await chapteredBook(t, 'reader', {
      title: 'Three Chapters',
      chapters: [
        { title: 'One', pages: pages(1, 2) },
        { title: 'Two', pages: pages(2, 23) },
        { title: 'Three', pages: pages(3, 3) },
      ],
      cover: await canvas.encode('png'),
    });
    await readPages(
      t,
      token,
      bookCode,
      'zh',
      Array.from({ length: 28 }, (_, i) => i + 1),
    );
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await Promise.all(tmp.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('names documents as KOReader does: the partial MD5 of corpus files and of exports matches KOReader’s algorithm written again in Python', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-kosync-'));
    tmp.push(dir);
    const files = [
      'epub/en-dante-vision-of-hell-epub2-images.epub',
      'epub/en-moby-dick-epub3.epub',
      'pdf/en-free-culture-book.pdf',
      'pdf/broken-header-then-eof.pdf',
      'txt/ja-wagahai-neko-utf8-bom.txt',
    ].map((f) => path.join(CORPUS, f));
    // The edges: nothing, exactly one sample, one byte past it, a sample ending the file.
    for (const size of [0, 1024, 1025, 4096, 5120, 70_000]) {
      const file = path.join(dir, `edge-${size}.bin`);
      await writeFile(file, Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + 3) % 256)));
      files.push(file);
    }
    // An export as a device downloads it (the bilingual EPUB of the three-chapter book).
    const exported = await t.app.inject({
      url: `/api/book/export?bookCode=${bookCode}&language=zh&mode=bilingual`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(exported.statusCode).toBe(200);
    files.push(path.join(dir, 'export.epub'));
    await writeFile(files.at(-1)!, exported.rawPayload);

    const expected = pythonPartialMd5(files);
    for (const [i, file] of files.entries()) {
      const data = await readFile(file);
      expect(partialMd5(data), file).toBe(expected[i]);
      expect(await streamedPartialMd5(data), file).toBe(expected[i]);
    }
    // The stored original carries its digest, and the served export was recorded under its own.
    const stored = await t.running.infra.db
      .selectFrom('files')
      .select('partial_md5')
      .where('sha256', '=', createHash('sha256').update(pdfBytes).digest('hex'))
      .executeTakeFirstOrThrow();
    expect(stored.partial_md5).toBe(
      pythonPartialMd5([path.join(CORPUS, 'pdf/en-tracemonkey-two-column-footnotes.pdf')])[0],
    );
    const served = await t.running.infra.db
      .selectFrom('served_documents')
      .select(['digest', 'size'])
      .where('method', '=', 'binary')
      .execute();
    expect(served).toContainEqual({ digest: expected.at(-1), size: String(exported.rawPayload.length) });
  });

  it('answers KOReader’s own calls: health, refused sign-up, login, and the codes it acts on', async () => {
    expect(await koreader('GET', '/healthcheck', undefined, { accept: 'application/vnd.koreader.v1+json' })).toEqual({
      status: 200,
      body: { state: 'OK' },
    });
    // Register (KOSync:doRegister sends md5 of the password): refused as the reference server does
    // when sign-up is off; KOReader shows the message.
    const register = await koreader(
      'POST',
      '/users/create',
      { username: 'newcomer', password: md5('secret') },
      { accept: 'application/vnd.koreader.v1+json' },
    );
    expect(register.status).toBe(402);
    expect(register.body).toMatchObject({ code: 2005 });
    expect(register.body.message).toContain('device password');
    // Login: 200 {authorized: "OK"}; a wrong key 401 (KOReader shows the message, and does not keep a push for later).
    expect(await koreader('GET', '/users/auth')).toEqual({ status: 200, body: { authorized: 'OK' } });
    expect(await koreader('GET', '/users/auth', undefined, kosyncHeaders('reader', 'not the password'))).toEqual({
      status: 401,
      body: { code: 2001, message: 'Unauthorized' },
    });
    const stranger = await koreader('PUT', '/syncs/progress', { nonsense: true }, kosyncHeaders('reader', 'nope'));
    expect(stranger.status).toBe(401);
    // Bodies KOReader would never send are refused with the reference server's codes.
    expect(
      (await koreader('PUT', '/syncs/progress', { progress: '1', percentage: 0.1, device: 'x' })).body,
    ).toMatchObject({ code: 2004 });
    expect((await push('doc', '1', Number.NaN)).status).toBe(403);
    expect(
      (await koreader('PUT', '/syncs/progress', { document: 'doc', progress: '1', percentage: 'lots', device: 'x' }))
        .body,
    ).toMatchObject({
      code: 2003,
    });
  });

  it('syncs a document Yidu does not know between devices, keeping the progress as it came', async () => {
    const document = md5('a book only the devices have');
    expect(await pull(document)).toEqual({ status: 200, body: {} });
    const xpointer = '/body/DocFragment[12]/body/div/p[7]/text().15';
    const pushed = await push(document, xpointer, 0.4321);
    expect(pushed.status).toBe(200);
    expect(pushed.body).toEqual({ document, timestamp: expect.any(Number) });
    expect(Math.abs((pushed.body.timestamp as number) - Date.now() / 1000)).toBeLessThan(60);
    expect((await pull(document)).body).toEqual({
      document,
      progress: xpointer,
      percentage: 0.4321,
      device: 'Kobo_spaBW',
      device_id: 'kobo-1',
      timestamp: pushed.body.timestamp,
    });
  });

  it('moves the web reader to a PDF’s page, and answers with the web reader’s page once it moved', async () => {
    const document = partialMd5(pdfBytes);
    const book = await t.running.infra.db
      .selectFrom('books')
      .select(['id', 'source_pages'])
      .where('code', '=', pdfCode)
      .executeTakeFirstOrThrow();
    const blocks = await t.running.infra.db
      .selectFrom('book_blocks')
      .select(['block_id', 'page', 'pdf_page'])
      .where('book_id', '=', book.id)
      .orderBy('seq')
      .execute();
    const firstOn = (pdfPage: number) => blocks.find((b) => (b.pdf_page ?? 0) >= pdfPage)!;
    expect((await push(document, '9', 9 / book.source_pages!)).status).toBe(200);
    expect(await webPosition(pdfCode)).toMatchObject({ page: firstOn(9).page, blockId: firstOn(9).block_id });
    // The device asks again: its own place (the web reader did not move since).
    expect((await pull(document)).body).toMatchObject({ progress: '9', device: 'Kobo_spaBW' });
    // The reader goes on in the browser: the device is told the web reader's page.
    const later = blocks.find((b) => b.page > firstOn(9).page + 1 && b.pdf_page !== null)!;
    await moveWebReader(pdfCode, later.page, 'zh');
    const answer = await pull(document);
    expect(answer.body).toMatchObject({
      progress: String(later.pdf_page),
      device: 'Yidu',
      device_id: 'yidu-web-reader',
    });
    expect(answer.body.percentage).toBeCloseTo(later.pdf_page! / book.source_pages!, 4);
    // By file name too (KOReader's other mode): the name the file was uploaded under.
    const byName = await pull(md5('en-tracemonkey-two-column-footnotes.pdf'));
    expect(byName.body).toMatchObject({ progress: String(later.pdf_page), device: 'Yidu' });
  });

  it('moves the web reader to the place at the device’s percentage of an exported EPUB, and gives the device the web reader’s place as an XPointer into that very file', async () => {
    for (const mode of ['bilingual', 'translated'] as const) {
      const download = await t.app.inject({
        url: `/api/book/export?bookCode=${bookCode}&language=zh&mode=${mode}`,
        headers: { authorization: `Bearer ${token}` },
      });
      const epub = download.rawPayload;
      const document = partialMd5(epub);
      // Recorded when the download ended.
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        const known = await t.running.infra.db
          .selectFrom('served_documents')
          .select('digest')
          .where('digest', '=', document)
          .executeTakeFirst();
        if (known) break;
        await new Promise((r) => setTimeout(r, 50));
      }

      // The device stopped at 47%: the web reader opens at the block where 47% of the text is behind.
      const book = await t.running.infra.db
        .selectFrom('books')
        .select('id')
        .where('code', '=', bookCode)
        .executeTakeFirstOrThrow();
      const blocks = await t.running.infra.db
        .selectFrom('book_blocks')
        .select(['block_id', 'page', 'text'])
        .where('book_id', '=', book.id)
        .orderBy('seq')
        .execute();
      const total = blocks.reduce((n, b) => n + b.text.length, 0);
      let before = 0;
      let expected = blocks[0]!;
      for (const block of blocks) {
        if (before > 0.47 * total) break;
        expected = block;
        before += block.text.length;
      }
      expect((await push(document, '/body/DocFragment[9]/body/p[3]/text().0', 0.47, `kobo-${mode}`)).status).toBe(200);
      expect(await webPosition(bookCode)).toMatchObject({ page: expected.page, blockId: expected.block_id });

      // The reader moves on in the browser to page 26 (chapter three): the device gets an XPointer to it.
      await moveWebReader(bookCode, 26);
      const answer = await pull(document);
      expect(answer.body).toMatchObject({ device: 'Yidu', device_id: 'yidu-web-reader' });
      const pointer = /^\/body\/DocFragment\[(\d+)\]\/body\/(\w+)\[(\d+)\]$/.exec(answer.body.progress as string)!;
      expect(pointer, String(answer.body.progress)).not.toBeNull();
      // Follow it in the EPUB the device holds: the n-th document of the reading order, the k-th such element of its body.
      const zip = await JSZip.loadAsync(epub);
      const opf = await zip.file('OEBPS/content.opf')!.async('string');
      const ids = [...opf.matchAll(/<itemref idref="([^"]+)"/g)].map((m) => m[1]!);
      const href = new RegExp(`<item id="${ids[Number(pointer[1]) - 1]}" href="([^"]+)"`).exec(opf)![1]!;
      const xhtml = await zip.file(`OEBPS/${href}`)!.async('string');
      const body = xhtml.slice(xhtml.indexOf('<body>') + 6, xhtml.indexOf('</body>'));
      const elements = body
        .split('\n')
        .map((line) => /^<(\w+)\b[^>]*\bid="([^"]+)"/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .filter((m) => m[1] === pointer[2]);
      const target = elements[Number(pointer[3]) - 1]!;
      const firstOfPage26 = blocks.find((b) => b.page === 26)!;
      expect(target[2]).toBe(firstOfPage26.block_id);
      expect(answer.body.percentage).toBeGreaterThan(0.85);
      expect(answer.body.percentage).toBeLessThan(1);
    }
  });
});
