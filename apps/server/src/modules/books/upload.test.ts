import { readFile } from 'node:fs/promises';
import path from 'node:path';
import iconv from 'iconv-lite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKS_PER_MESSAGE } from '../../engines/parsers/isolated/protocol.ts';
import { epubOfDocuments } from '../../engines/parsers/testing/hostile-files.ts';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { CORPUS, pollStage, registerUser, startTestApp, uploadFile, type TestApp } from '../../../test/helpers.ts';

const corpus = (file: string) => readFile(path.join(CORPUS, file));
const OPEN = { REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' };

describe('uploading files', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ ...OPEN, UPLOAD_MAX_MB: '1', UPLOADS_PER_DAY: '4', UPLOADS_PER_MONTH: '50' });
    token = await registerUser(t, 'uploader');
  });
  afterAll(async () => t?.close());

  it('refuses a request without a file', async () => {
    const res = await uploadFile(t, '/api/book/upload', undefined, token, { note: 'x' });
    expect(res.data.key).toBe('fileMissing');
    expect((await t.call('POST', '/api/book/upload', { token, body: {} })).data.key).toBe('fileMissing');
  });

  it('checks the type by content, not by name', async () => {
    const png = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'scan.pdf', data: await corpus('bad/png-image-named-as.pdf') },
      token,
      {},
      '10.0.0.1',
    );
    expect(png.status).toBe(415);
    expect(png.data.key).toBe('unsupportedFileType');
    const exe = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'tool.exe', data: Buffer.from('MZ just text') },
      token,
      {},
      '10.0.0.1',
    );
    expect(exe.data.key).toBe('unsupportedFileType');
    const empty = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'empty.txt', data: await corpus('bad/empty.txt') },
      token,
      {},
      '10.0.0.1',
    );
    expect(empty.data.key).toBe('emptyFile');
    // Word for Windows 2.0 wrote no compound file: its FIB starts the file.
    const word2 = Buffer.alloc(2048);
    word2.writeUInt16LE(0xa5db, 0);
    word2.writeUInt16LE(45, 2);
    const old = await uploadFile(t, '/api/book/upload', { name: 'old.doc', data: word2 }, token, {}, '10.0.0.1');
    expect(old.data.key).toBe('formatTooOld');
  });

  it('refuses a file over the size limit with 413 fileTooLarge', async () => {
    const res = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'big.txt', data: Buffer.alloc(1024 * 1024 + 10, 'a') },
      token,
      {},
      '10.0.0.2',
    );
    expect(res.status).toBe(413);
    expect(res.data.key).toBe('fileTooLarge');
  });

  it('stores the same file once and counts uploads per IP address', async () => {
    const data = await corpus('docx/zh-mixed-short.docx');
    const one = await uploadFile(t, '/api/book/upload', { name: 'a.docx', data }, token, {}, '10.0.0.3');
    const two = await uploadFile(t, '/api/book/upload', { name: 'b.docx', data }, token, {}, '10.0.0.3');
    expect(one.code).toBe(0);
    expect(one.data.format).toBe('docx');
    expect(two.data.fileId).toBe(one.data.fileId);
    const rows = await t.running.infra.db.selectFrom('files').select('id').where('id', '=', one.data.fileId).execute();
    expect(rows).toHaveLength(1);

    const count = await t.call('GET', '/api/book/upload/count', { token, ip: '10.0.0.3' });
    expect(count.data).toMatchObject({ today: 2, thisMonth: 2, dailyLimit: 4, monthlyLimit: 50, maxFileMb: 1 });
  });

  it('answers uploadLimitReached with the counts once the daily limit is used', async () => {
    const data = await corpus('txt/en-subtitle-utf16le-bom.txt');
    for (let i = 0; i < 4; i++)
      expect((await uploadFile(t, '/api/book/upload', { name: 's.txt', data }, token, {}, '10.0.0.4')).code).toBe(0);
    const over = await uploadFile(t, '/api/book/upload', { name: 's.txt', data }, token, {}, '10.0.0.4');
    expect(over.status).toBe(429);
    expect(over.data).toMatchObject({ key: 'uploadLimitReached', today: 4, dailyLimit: 4, monthlyLimit: 50 });
  });
});

describe('the staged pipeline (Path B)', () => {
  let t: TestApp;
  let token: string;
  let other: string;
  beforeAll(async () => {
    t = await startTestApp(OPEN);
    token = await registerUser(t, 'reader');
    other = await registerUser(t, 'stranger');
  });
  afterAll(async () => t?.close());

  it('turns an EPUB into a book, stage by stage, and puts it in the personal library', async () => {
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'kusamakura.epub', data: await corpus('epub/ja-kusamakura-epub3-vertical.epub') },
      token,
    );
    expect(upload.data.format).toBe('epub');
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: {
        fileId: upload.data.fileId,
        bookName: 'kusamakura',
        bookAuthor: '',
        bookDescribe: '草枕',
        bookStatus: 1,
        language: 'zh',
      },
    });
    expect(saved.code).toBe(0);
    const requestId = saved.data.requestId;

    const early = await t.call('GET', `/api/book/languageDetection?requestId=${requestId}`, { token });
    expect(early.status).toBe(409);
    expect(early.data.key).toBe('stageNotReady');
    expect((await t.call('GET', `/api/book/analysis?requestId=${requestId}`, { token: other })).data.key).toBe(
      'notFound',
    );

    const parsed = await pollStage(t, `/api/book/analysis?requestId=${requestId}`, token);
    expect(parsed.data).toMatchObject({ stage: 'parsingFile', status: 'done' });
    expect(parsed.data.result.chapters).toBeGreaterThanOrEqual(13);
    expect(parsed.data.result.metadataTitle).toBe('草枕');
    // Asking again does not start anything new.
    expect((await t.call('GET', `/api/book/analysis?requestId=${requestId}`, { token })).data.status).toBe('done');

    const language = await pollStage(t, `/api/book/languageDetection?requestId=${requestId}`, token);
    expect(language.data).toMatchObject({ stage: 'detectingLanguage', status: 'done', result: { language: 'jp' } });

    // No translation engine yet: the stage fails clearly, and saving may go on with the original title.
    const title = await pollStage(
      t,
      `/api/book/translationBookName?requestId=${requestId}&userLanguage=Chinese`,
      token,
    );
    expect(title.data).toMatchObject({
      stage: 'translatingTitle',
      status: 'failed',
      message: "Failed to translate book's title",
      errorKey: 'translationUnavailable',
    });

    const done = await pollStage(
      t,
      `/api/book/saveBookById?requestId=${requestId}&bookName=${encodeURIComponent('草枕')}`,
      token,
    );
    expect(done.data).toMatchObject({ stage: 'saving', status: 'done' });
    const bookCode = done.data.result.bookCode;
    expect(bookCode).toMatch(/^[a-z2-9]{12}$/);

    const library = await t.call('GET', '/api/book/user/library', { token });
    expect(library.data.total).toBe(1);
    expect(library.data.items[0]).toMatchObject({
      bookCode,
      bookName: '草枕',
      bookAuthor: '夏目 漱石',
      bookDescribe: '草枕',
      bookStatus: 1,
      originalLanguage: 'jp',
      readLanguage: 'zh',
      isOwner: true,
      inLibrary: true,
      format: 'epub',
    });

    const detail = await t.call('GET', `/api/book/user/getBookByCode?bookCode=${bookCode}&readLanguage=English`, {
      token,
    });
    expect(detail.data.contents.length).toBeGreaterThanOrEqual(13);
    expect(detail.data.readLanguage).toBe('en');

    // A public book is in the public library for everyone.
    const publicLib = await t.call('GET', '/api/book/library?section=new', { token: other });
    expect(publicLib.data.items.map((b: { bookCode: string }) => b.bookCode)).toContain(bookCode);
  });

  it('fails the parse stage of a broken file with its reason, and Retry runs it again', async () => {
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'moby.epub', data: await corpus('bad/truncated-moby-dick.epub') },
      token,
    );
    expect(upload.code).toBe(0);
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: 'Moby', bookStatus: 0 },
    });
    const url = `/api/book/analysis?requestId=${saved.data.requestId}`;
    const failed = await pollStage(t, url, token);
    expect(failed.data).toMatchObject({
      stage: 'parsingFile',
      status: 'failed',
      message: 'Failed to parse the file',
      errorKey: 'fileCorrupted',
    });
    const retried = await t.call('POST', `/api/book/upload/retry?requestId=${saved.data.requestId}`, { token });
    expect(retried.data.status).toBe('running');
    expect((await pollStage(t, url, token)).data.status).toBe('failed');
  });

  it('stores a book taken from its parse process piece by piece: a chapter longer than a piece stays one', async () => {
    // 2.5 pieces of paragraphs in chapter 1 (BLOCKS_PER_MESSAGE each), a short chapter 2.
    const paragraphs = (n: number, word: string) =>
      Array.from({ length: n }, (_, i) => `<p>${word} ${i}.</p>`).join('');
    const epub = epubOfDocuments([
      `<h1>Chapter 1</h1>${paragraphs(BLOCKS_PER_MESSAGE * 2.5, 'Alpha')}`,
      `<h1>Chapter 2</h1>${paragraphs(3, 'Omega')}`,
    ]);
    const upload = await uploadFile(t, '/api/book/upload', { name: 'long.epub', data: epub }, token, {}, '10.0.0.9');
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: 'long', bookStatus: 0 },
    });
    const parsed = await pollStage(t, `/api/book/analysis?requestId=${saved.data.requestId}`, token);
    expect(parsed.data.status).toBe('done');
    const rows = await new pg.Client({ connectionString: t.databaseUrl });
    await rows.connect();
    try {
      const { bookCode } = parsed.data.result;
      const chapters = await rows.query(
        `SELECT c.idx, c.title, c.block_count, c.first_seq FROM book_chapters c JOIN books b ON b.id = c.book_id
         WHERE b.code = $1 ORDER BY c.idx`,
        [bookCode],
      );
      expect(chapters.rows.map((c) => [c.idx, c.title, c.block_count, c.first_seq])).toEqual([
        [1, 'Chapter 1', BLOCKS_PER_MESSAGE * 2.5 + 1, 1],
        [2, 'Chapter 2', 4, BLOCKS_PER_MESSAGE * 2.5 + 2],
      ]);
      const blocks = await rows.query(
        `SELECT count(*)::int AS n, max(seq) AS last, count(DISTINCT seq)::int AS seqs,
           bool_and(chapter_idx = CASE WHEN seq <= $2 THEN 1 ELSE 2 END) AS in_chapters
         FROM book_blocks k JOIN books b ON b.id = k.book_id WHERE b.code = $1`,
        [bookCode, BLOCKS_PER_MESSAGE * 2.5 + 1],
      );
      expect(blocks.rows[0]).toEqual({
        n: BLOCKS_PER_MESSAGE * 2.5 + 5,
        last: BLOCKS_PER_MESSAGE * 2.5 + 5,
        seqs: BLOCKS_PER_MESSAGE * 2.5 + 5,
        in_chapters: true,
      });
    } finally {
      await rows.end();
    }
  });

  it('validates the saved information', async () => {
    expect(
      (await t.call('POST', '/api/book/saveNew', { token, body: { fileId: 'nope', bookName: 'x' } })).data.key,
    ).toBe('fileMissing');
    expect(
      (await t.call('POST', '/api/book/saveNew', { token, body: { fileId: 'nope', bookName: '' } })).data.key,
    ).toBe('badRequest');
    expect(
      (await t.call('POST', '/api/book/saveNew', { token, body: { fileId: 'nope', bookName: 'x', bookStatus: 7 } }))
        .data.key,
    ).toBe('badRequest');
  });
});

describe('one-shot processing (Path A) and durability', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(OPEN);
    token = await registerUser(t, 'patha');
  });
  afterAll(async () => t?.close());

  it('runs every stage after /book/save/{id} and tolerates the missing title translation', async () => {
    const upload = await uploadFile(
      t,
      '/api/book/upload2',
      { name: 'pride.txt', data: await corpus('txt/en-pride-and-prejudice-cp1252-crlf.txt') },
      token,
    );
    expect(upload.data.id).toBe(upload.data.fileId);
    const saved = await uploadFile(t, `/api/book/save/${upload.data.id}`, undefined, token, {
      data: JSON.stringify({
        bookName: 'Pride and Prejudice',
        bookAuthor: 'Jane Austen',
        bookStatus: 0,
        language: 'zh',
      }),
    });
    expect(saved.code).toBe(0);
    const deadline = Date.now() + 60_000;
    let state;
    do {
      await new Promise((r) => setTimeout(r, 250));
      state = (await t.call('GET', `/api/book/upload/status?requestId=${saved.data.requestId}`, { token })).data;
    } while (state.stage !== 'completed' && state.status !== 'failed' && Date.now() < deadline);
    expect(state).toMatchObject({ stage: 'completed', status: 'done' });

    const list = await t.call('GET', '/api/book/user/list', { token });
    expect(list.data[0]).toMatchObject({
      bookName: 'Pride and Prejudice',
      bookAuthor: 'Jane Austen',
      bookStatus: 0,
      originalLanguage: 'en',
    });
    expect(list.data[0].chapterCount).toBeGreaterThanOrEqual(61);
    expect(list.data[0].pageCount).toBeGreaterThan(list.data[0].chapterCount);
  });
});

describe('paid processing at upload', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(OPEN);
    token = await registerUser(t, 'payer');
  });
  afterAll(async () => t?.close());

  const uploadWithFootnotes = async () => {
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'tracemonkey.pdf', data: await corpus('pdf/en-tracemonkey-two-column-footnotes.pdf') },
      token,
    );
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: 'Trace trees', bookStatus: 0, autoSplitFootnote: true },
    });
    return pollStage(t, `/api/book/analysis?requestId=${saved.data.requestId}`, token);
  };
  const spending = async () =>
    (await t.call('GET', '/api/integral/record/list?type=expenditure', { token })).data.items as {
      points: number;
      reason: string;
      detail: Record<string, unknown>;
    }[];

  it('charges footnote splitting once, after the parse succeeded', async () => {
    const parsed = await uploadWithFootnotes();
    expect(parsed.data).toMatchObject({ status: 'done', result: { pointsCharged: 10 } });
    const [charge, ...others] = await spending();
    expect(others).toEqual([]);
    expect(charge).toMatchObject({
      points: 10,
      reason: 'bookProcessing',
      detail: { footnoteSplit: true, ocrPages: 0 },
    });
  }, 120_000);

  it('fails the parse with insufficientPoints and keeps nothing when the balance cannot pay', async () => {
    await t.running.infra.db.updateTable('users').set({ points_balance: '5' }).where('account', '=', 'payer').execute();
    const failed = await uploadWithFootnotes();
    expect(failed.data).toMatchObject({ stage: 'parsingFile', status: 'failed', errorKey: 'insufficientPoints' });
    expect(await spending()).toHaveLength(1);
    const books = await t.running.infra.db
      .selectFrom('books')
      .innerJoin('users', 'users.id', 'books.owner_id')
      .select('books.id')
      .where('users.account', '=', 'payer')
      .execute();
    expect(books).toHaveLength(1);
    const info = await t.call('GET', '/api/user/getUserinfo', { token });
    expect(info.data.points).toBe(5);
  }, 120_000);
});

describe('a book in a language outside the 26', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let token: string;
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({ ...OPEN, MICROSOFT_TRANSLATOR_ENDPOINT: fake.url });
    token = await registerUser(t, 'hebrew');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('keeps the detected language (Hebrew from a windows-1255 TXT) and translates from it', async () => {
    const paragraphs = [
      'ירושלים היא עיר עתיקה השוכנת בהרי יהודה, ובה רחובות צרים, שווקים ובתי כנסת רבים.',
      'בבוקר יוצאים האנשים לעבודה, והילדים הולכים לבית הספר עם תיקים כבדים על הגב.',
      'בערב השמש שוקעת מעל הגבעות, והאבנים הלבנות של הבתים מאדימות באור האחרון של היום.',
      'בשבת העיר שקטה, החנויות סגורות, ומשפחות יושבות יחד סביב השולחן ומספרות סיפורים.',
    ];
    const text = Array.from({ length: 6 }, () => paragraphs.join('\r\n\r\n')).join('\r\n\r\n');
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'jerusalem.txt', data: iconv.encode(text, 'windows1255') },
      token,
    );
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: 'ירושלים', bookStatus: 0, language: 'zh' },
    });
    const id = saved.data.requestId;
    await pollStage(t, `/api/book/analysis?requestId=${id}`, token);
    const language = await pollStage(t, `/api/book/languageDetection?requestId=${id}`, token);
    expect(language.data).toMatchObject({ status: 'done', result: { language: 'he', source: 'detected' } });
    const title = await pollStage(t, `/api/book/translationBookName?requestId=${id}&userLanguage=Chinese`, token);
    expect(title.data).toMatchObject({ status: 'done', result: { from: 'he', to: 'zh' } });
    const done = await pollStage(t, `/api/book/saveBookById?requestId=${id}`, token);
    const bookCode = done.data.result.bookCode;

    const detail = await t.call('GET', `/api/book/user/getBookByCode?bookCode=${bookCode}`, { token });
    expect(detail.data.originalLanguage).toBe('he');

    const url = `/api/reader/getPageData?bookCode=${bookCode}&language=zh&page=1`;
    const deadline = Date.now() + 30_000;
    let page = await t.call('GET', url, { token });
    while (page.data.blocks?.some((b: { status: string }) => b.status === 'pending') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 150));
      page = await t.call('GET', url, { token });
    }
    expect(page.data.translated).toBe(true);
    expect(page.data.blocks[0]).toMatchObject({ status: 'done' });
    expect(page.data.blocks[0].translation).toContain('ירושלים');
    const translations = fake.calls.filter((c) => c.path === '/translate');
    expect(translations.length).toBeGreaterThanOrEqual(2);
    for (const call of translations) expect(call.query).toMatchObject({ from: 'he', to: 'zh-Hans' });
  });
});
