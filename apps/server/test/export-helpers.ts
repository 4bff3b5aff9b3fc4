import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseBook } from '../src/engines/parsers/registry.ts';
import { normalise } from '../src/modules/translation/translation.service.ts';
import { CORPUS, pollStage, uploadFile, type TestApp } from './helpers.ts';

/** Uploads a corpus file through the pipeline and returns its book code. */
export async function uploadBook(t: TestApp, token: string, file: string, bookStatus: 0 | 1): Promise<string> {
  return uploadBytes(t, token, path.basename(file), await readFile(path.join(CORPUS, file)), bookStatus);
}

/** Uploads a file made by a test (a fixture builder) through the pipeline and returns its book code. */
export async function uploadBytes(
  t: TestApp,
  token: string,
  name: string,
  data: Buffer,
  bookStatus: 0 | 1,
): Promise<string> {
  const upload = await uploadFile(t, '/api/book/upload', { name, data }, token);
  const saved = await t.call('POST', '/api/book/saveNew', {
    token,
    body: { fileId: upload.data.fileId, bookName: name, bookStatus, language: 'zh' },
  });
  const id = saved.data.requestId;
  for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
    const res = await pollStage(t, `/api/book/${stage}?requestId=${id}`, token);
    if (res.data.status !== 'done') throw new Error(`${stage}: ${JSON.stringify(res.data)}`);
    if (stage === 'saveBookById') return res.data.result.bookCode;
  }
  throw new Error('unreachable');
}

/** Opens every page of a book in a language as a reader would, until each is translated (and charged). */
export async function readEveryPage(t: TestApp, token: string, code: string, language: string): Promise<void> {
  const first = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=${language}&page=1`, { token });
  for (let page = 1; page <= first.data.pageCount; page += 1) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=${language}&page=${page}`, {
        token,
      });
      if (res.code !== 0) throw new Error(`page ${page}: ${JSON.stringify(res.data)}`);
      if (res.data.blocks.every((b: { status: string }) => b.status === 'done')) break;
      if (Date.now() > deadline) throw new Error(`page ${page} still pending`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** GET /api/book/export as raw bytes (or the error envelope). */
export async function exportBook(t: TestApp, token: string, query: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/book/export?${query}`,
    headers: { authorization: `Bearer ${token}` },
  });
  const type = String(response.headers['content-type'] ?? '');
  return {
    status: response.statusCode,
    type,
    disposition: String(response.headers['content-disposition'] ?? ''),
    body: response.rawPayload,
    error: type.includes('json') ? response.json().data : undefined,
  };
}

/** Every text block of the stored book with its translation, in reading order. */
export async function storedTexts(t: TestApp, code: string, language: string) {
  const db = t.running.infra.db;
  const book = await db.selectFrom('books').select('id').where('code', '=', code).executeTakeFirstOrThrow();
  return db
    .selectFrom('book_blocks as b')
    .leftJoin('book_translations as t', (j) =>
      j.onRef('t.book_id', '=', 'b.book_id').onRef('t.seq', '=', 'b.seq').on('t.target_lang', '=', language),
    )
    .select(['b.block_id', 'b.type', 'b.text', 't.translation'])
    .where('b.book_id', '=', book.id)
    .orderBy('b.seq')
    .execute();
}

/** The text a reader sees of inline markup: tags dropped, entities read, white space collapsed. */
export const visible = (html: string) =>
  normalise(
    html
      .replace(/<rt>[\s\S]*?<\/rt>|<rp>[\s\S]*?<\/rp>/g, '')
      .replace(/<[^>]*>/g, '')
      .replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) =>
        e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
      ),
  );

/** All the text of an EPUB as the project's own parser reads it back, white space collapsed. */
export async function textOfEpub(epub: Buffer): Promise<string> {
  const parsed = await parseBook(epub);
  return normalise(parsed.chapters.flatMap((c) => [c.title, ...c.blocks.map((b) => b.text)]).join('\n'));
}

/**
 * An EPUB read back by the project's parser, to look texts up in: a text is there when it is one of
 * the book's blocks, or inside one (a note with its label and back link around it).
 */
export async function readBack(epub: Buffer): Promise<{ has(text: string): boolean }> {
  const parsed = await parseBook(epub);
  const texts = parsed.chapters.flatMap((c) => [c.title, ...c.blocks.map((b) => b.text)]).map(normalise);
  const blocks = new Set(texts);
  const all = texts.join('\n');
  return { has: (text) => blocks.has(text) || all.includes(text) };
}
