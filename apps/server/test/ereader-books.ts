import { createHash, randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { BookBlocksTable, BookChaptersTable } from '../src/db/schema.ts';
import { md5Hex } from '../src/modules/devices/device-keys.ts';
import { BooksRepo } from '../src/modules/books/books.repo.ts';
import { partialMd5 } from '../src/lib/partial-md5.ts';
import type { TestApp } from './helpers.ts';
import { writeReadyBook } from './seed-book.ts';

/**
 * A ready book written straight into the database (seed-book.ts) with its original file stored as an
 * upload's would be: a plain text of its paragraphs. Returns its code.
 */
export async function bookWithFile(
  t: TestApp,
  owner: string,
  book: { title: string; pages: string[][]; visibility?: 0 | 1; language?: string },
): Promise<string> {
  const paragraphs = book.pages.flatMap((texts, p) => texts.map((text) => ({ text, page: p + 1 })));
  const code = await writeReadyBook(t, owner, {
    title: book.title,
    author: 'Test Author',
    language: book.language ?? 'en',
    visibility: book.visibility ?? 1,
    chapterTitle: book.title,
    blocks: [{ text: book.title, page: 1, heading: true }, ...paragraphs],
  });
  const data = Buffer.from([book.title, ...paragraphs.map((p) => p.text)].join('\n\n') + '\n');
  const sha256 = createHash('sha256').update(data).digest('hex');
  const key = `uploads/${sha256.slice(0, 2)}/${sha256}.txt`;
  await t.running.infra.storage.put(key, data);
  const name = `${book.title}.txt`;
  const repo = new BooksRepo(t.running.infra.db);
  const file = await repo.insertFile({
    id: `f${randomBytes(12).toString('hex')}`,
    sha256,
    size: String(data.length),
    format: 'txt',
    storage_key: key,
    original_name: name,
    created_by: null,
    partial_md5: partialMd5(data),
    name_md5: md5Hex(name),
  });
  await t.running.infra.db.updateTable('books').set({ file_id: file.id }).where('code', '=', code).execute();
  return code;
}

/** Opens pages of a book in a language as the web reader does, until each is translated (and charged). */
export async function readPages(t: TestApp, token: string, code: string, language: string, pages: number[]) {
  for (const page of pages) {
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

/**
 * A ready book of several chapters, each of whole pages of paragraphs (a heading first), written
 * straight into the database with its text as the stored original. Returns its code.
 */
export async function chapteredBook(
  t: TestApp,
  owner: string,
  book: { title: string; chapters: { title: string; pages: string[][] }[]; visibility?: 0 | 1; cover?: Buffer },
): Promise<string> {
  const db = t.running.infra.db;
  const repo = new BooksRepo(db);
  const code = await bookWithFile(t, owner, { title: book.title, pages: [[book.title]], visibility: book.visibility });
  const row = (await repo.findBookByCode(code))!;
  let seq = 0;
  let page = 0;
  const blocks: Insertable<BookBlocksTable>[] = [];
  const chapters: Insertable<BookChaptersTable>[] = [];
  for (const [c, chapter] of book.chapters.entries()) {
    const idx = c + 1;
    chapters.push({
      book_id: row.id,
      idx,
      title: chapter.title,
      level: 1,
      first_page: page + 1,
      first_seq: seq + 1,
      block_count: 1 + chapter.pages.flat().length,
    });
    let n = 0;
    for (const [p, texts] of chapter.pages.entries()) {
      page += 1;
      const lines =
        p === 0
          ? [{ text: chapter.title, heading: true }, ...texts.map((text) => ({ text, heading: false }))]
          : texts.map((text) => ({ text, heading: false }));
      for (const line of lines) {
        seq += 1;
        n += 1;
        blocks.push({
          book_id: row.id,
          seq,
          block_id: `c${idx}-b${n}`,
          chapter_idx: idx,
          page,
          type: line.heading ? 'heading' : 'paragraph',
          text: line.text,
          html: null,
          level: line.heading ? 1 : null,
          image_id: null,
          note_label: null,
          note_refs: null,
          referenced_by: null,
          pdf_page: null,
        });
      }
    }
  }
  await repo.replaceContent(row.id, {
    blockBatches: [blocks],
    images: [],
    finish: () => ({
      chapters,
      stats: {
        chapter_count: chapters.length,
        block_count: blocks.length,
        char_count: blocks.reduce((sum, b) => sum + b.text.length, 0),
        page_count: page,
        source_pages: null,
      },
    }),
  });
  if (book.cover) {
    const key = await t.running.services.books.storeCover(book.cover);
    await repo.updateBook(row.id, { cover_key: key });
  }
  return code;
}
