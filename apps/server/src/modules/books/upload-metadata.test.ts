import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, pollStage, registerUser, startTestApp, uploadFile, type TestApp } from '../../../test/helpers.ts';

const corpus = (file: string) => readFile(path.join(CORPUS, file));
const OPEN = { REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' };

describe("a book's title, author, description and cover from the file", () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(OPEN);
    token = await registerUser(t, 'metadata');
  });
  afterAll(async () => t?.close());

  /** Path A to the end; the new book as the personal list shows it. */
  async function pathA(file: string | Buffer, name: string, data: Record<string, unknown>) {
    const bytes = typeof file === 'string' ? await corpus(file) : file;
    const upload = await uploadFile(t, '/api/book/upload2', { name, data: bytes }, token);
    const saved = await uploadFile(t, `/api/book/save/${upload.data.id}`, undefined, token, {
      data: JSON.stringify({ bookStatus: 0, language: 'zh', ...data }),
    });
    expect(saved.code).toBe(0);
    for (let i = 0; i < 300; i++) {
      const state = (await t.call('GET', `/api/book/upload/status?requestId=${saved.data.requestId}`, { token })).data;
      if (state.stage === 'completed' || state.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const list = await t.call('GET', '/api/book/user/list', { token });
    return { upload, book: list.data[0] as Record<string, unknown> };
  }

  it('answers the upload with what the file declares, and a cover that can be fetched', async () => {
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'en-moby-dick-epub3.epub', data: await corpus('epub/en-moby-dick-epub3.epub') },
      token,
    );
    expect(upload.data).toMatchObject({
      format: 'epub',
      metadata: { title: 'Moby-Dick', author: 'Herman Melville', description: null },
    });
    const cover = await t.app.inject({ method: 'GET', url: upload.data.metadata.coverUrl });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/jpeg');

    const docx = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'z.docx', data: await corpus('docx/zh-mixed-short.docx') },
      token,
    );
    // Its only field is the author "pc": not an author.
    expect(docx.data.metadata).toEqual({ title: null, author: null, description: null, coverUrl: null });
  });

  it('gives a Path A book the title, author and cover of the file when the title is left out', async () => {
    const { upload, book } = await pathA('epub/en-moby-dick-epub3.epub', 'en-moby-dick-epub3.epub', {});
    expect(upload.data.metadata.title).toBe('Moby-Dick');
    expect(book).toMatchObject({ bookName: 'Moby-Dick', bookAuthor: 'Herman Melville' });
    expect(book.coverUrl).toEqual(expect.any(String));
  }, 120_000);

  it("takes a title left at the file name's default as no choice, in Path A as in the wizard", async () => {
    const { book } = await pathA('txt/en-sherlock-holmes-utf8-bom-crlf.txt', 'sherlock_holmes.txt', {
      bookName: 'sherlock holmes',
      bookDescribe: 'Stories',
    });
    expect(book).toMatchObject({
      bookName: 'The Adventures of Sherlock Holmes',
      bookAuthor: 'Arthur Conan Doyle',
      bookDescribe: 'Stories',
    });
  }, 120_000);

  it('reads a .doc that is really Rich Text: its title at upload, its text and chapters as a Word document', async () => {
    const chapter = (title: string) =>
      `\\pard\\s1 ${title}\\par\\pard ${'The sea was calm and the sky was grey over the harbour. '.repeat(3)}\\par\n`;
    const rtf = Buffer.from(
      '{\\rtf1\\ansi\\ansicpg1252{\\stylesheet{\\s1\\outlinelevel0 heading 1;}}' +
        '{\\info{\\title Harbour Days}{\\author Jane Roe}}\n' +
        chapter('Morning') +
        chapter('Evening') +
        '}',
      'latin1',
    );
    const upload = await uploadFile(t, '/api/book/upload', { name: 'harbour.doc', data: rtf }, token);
    expect(upload.data).toMatchObject({ format: 'doc', metadata: { title: 'Harbour Days', author: 'Jane Roe' } });
    const { book } = await pathA(rtf, 'harbour.doc', {});
    expect(book).toMatchObject({ bookName: 'Harbour Days', bookAuthor: 'Jane Roe', format: 'doc' });
    const toc = await t.call('GET', `/api/book/user/getBookByCode?bookCode=${String(book.bookCode)}`, { token });
    expect(toc.data.contents.map((entry: { title: string }) => entry.title)).toEqual(['Morning', 'Evening']);
  }, 120_000);

  it('keeps what the uploader chose, and the saved title is the one the title stage translated', async () => {
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'moby.epub', data: await corpus('epub/en-moby-dick-epub3.epub') },
      token,
    );
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: 'The Whale', bookAuthor: 'H. Melville', bookStatus: 0 },
    });
    const request = await t.running.infra.db
      .selectFrom('upload_requests')
      .select(['book_name', 'book_author', 'book_describe'])
      .where('id', '=', saved.data.requestId)
      .executeTakeFirstOrThrow();
    expect(request).toEqual({ book_name: 'The Whale', book_author: 'H. Melville', book_describe: '' });
  });

  it('does not take an account name for the author, whatever the parser found (Path B, author left empty)', async () => {
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'short.docx', data: await corpus('docx/zh-mixed-short.docx') },
      token,
    );
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: '短文', bookAuthor: '', bookStatus: 0 },
    });
    const id = saved.data.requestId;
    expect((await pollStage(t, `/api/book/analysis?requestId=${id}`, token)).data.status).toBe('done');
    expect((await pollStage(t, `/api/book/languageDetection?requestId=${id}`, token)).data.status).toBe('done');
    await pollStage(t, `/api/book/translationBookName?requestId=${id}&userLanguage=zh`, token);
    const done = await pollStage(t, `/api/book/saveBookById?requestId=${id}`, token);
    expect(done.data.status).toBe('done');
    const book = await t.call('GET', `/api/book/user/getBookByCode?bookCode=${done.data.result.bookCode}`, { token });
    expect(book.data).toMatchObject({ bookName: '短文', bookAuthor: 'Anonymous' });
  }, 120_000);

  it('reads the metadata of a file stored before it was read, when it is used', async () => {
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'kusamakura.epub', data: await corpus('epub/ja-kusamakura-epub3-vertical.epub') },
      token,
    );
    await t.running.infra.db
      .updateTable('files')
      .set({ metadata: null })
      .where('id', '=', upload.data.fileId)
      .execute();
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: 'kusamakura', bookStatus: 0 },
    });
    const request = await t.running.infra.db
      .selectFrom('upload_requests')
      .select(['book_name', 'book_author'])
      .where('id', '=', saved.data.requestId)
      .executeTakeFirstOrThrow();
    // "kusamakura" is the file-name default: the file's title wins.
    expect(request).toEqual({ book_name: '草枕', book_author: '夏目 漱石' });
    const row = await t.running.infra.db
      .selectFrom('files')
      .select('metadata')
      .where('id', '=', upload.data.fileId)
      .executeTakeFirstOrThrow();
    expect(row.metadata).toMatchObject({ title: '草枕' });
  });
});
