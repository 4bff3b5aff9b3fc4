import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { BooksRepo } from '../src/modules/books/books.repo.ts';
import type { TestApp } from './helpers.ts';

/** One paragraph of a seeded book: its page, and whether it is the chapter's heading. */
export interface SeedBlock {
  text: string;
  page: number;
  heading?: boolean;
}

/**
 * A ready book of one chapter written straight into the database (no upload, no parse), owned by
 * `owner` and in their library. Returns its code.
 */
export async function writeReadyBook(
  t: TestApp,
  owner: string,
  book: {
    title: string;
    author: string;
    language: string;
    chapterTitle: string;
    blocks: SeedBlock[];
    visibility?: 0 | 1;
    codePrefix?: string;
  },
): Promise<string> {
  const db = t.running.infra.db;
  const user = await db.selectFrom('users').select('id').where('account', '=', owner).executeTakeFirstOrThrow();
  const repo = new BooksRepo(db);
  const row = await repo.insertBook({
    code: `${book.codePrefix ?? 'seed'}${Math.random().toString(36).slice(2, 10)}`,
    file_id: null,
    owner_id: user.id,
    title: book.title,
    author: book.author,
    format: 'txt',
    visibility: book.visibility ?? 1,
    status: 'ready',
    cover_key: null,
    category: null,
    original_language: book.language,
    declared_language: null,
    source_pages: null,
  });
  const { blocks } = book;
  await repo.replaceContent(row.id, {
    blockBatches: [
      blocks.map((b, i) => ({
        book_id: row.id,
        seq: i + 1,
        block_id: `c1-b${i + 1}`,
        chapter_idx: 1,
        page: b.page,
        type: b.heading ? 'heading' : 'paragraph',
        text: b.text,
        html: null,
        level: b.heading ? 1 : null,
        image_id: null,
        note_label: null,
        note_refs: null,
        referenced_by: null,
        pdf_page: null,
      })),
    ],
    images: [],
    finish: () => ({
      chapters: [
        {
          book_id: row.id,
          idx: 1,
          title: book.chapterTitle,
          level: 1,
          first_page: 1,
          first_seq: 1,
          block_count: blocks.length,
        },
      ],
      contents: [{ book_id: row.id, idx: 1, level: 1, title: book.chapterTitle, seq: 1 }],
      stats: {
        chapter_count: 1,
        block_count: blocks.length,
        char_count: blocks.reduce((n, b) => n + b.text.length, 0),
        page_count: Math.max(1, ...blocks.map((b) => b.page)),
        source_pages: null,
      },
    }),
  });
  await repo.library.addCopy({
    user_id: user.id,
    book_id: row.id,
    title: row.title,
    author: row.author,
    source: 'upload',
  });
  return row.code;
}

/**
 * A ready book of one chapter whose pages are given paragraph by paragraph (the first paragraph is the
 * chapter's heading), owned by `owner` and in their library. Returns its code.
 */
export async function seedBook(
  t: TestApp,
  owner: string,
  book: { title: string; language: string; pages: string[][]; visibility?: 0 | 1 },
): Promise<string> {
  const blocks = book.pages.flatMap((texts, p) => texts.map((text) => ({ text, page: p + 1 })));
  return writeReadyBook(t, owner, {
    title: book.title,
    author: 'Anonymous',
    language: book.language,
    visibility: book.visibility,
    chapterTitle: blocks[0]!.text,
    blocks: blocks.map((b, i) => ({ ...b, heading: i === 0 })),
  });
}

/**
 * Makes a seeded book a PDF book: `pdf` is stored as its original file (as an upload would store it)
 * and its blocks are placed on PDF pages 1, 2, 3… in order.
 */
export async function attachPdfFile(t: TestApp, code: string, pdf: Buffer): Promise<void> {
  const db = t.running.infra.db;
  const book = await db
    .selectFrom('books')
    .select(['id', 'owner_id'])
    .where('code', '=', code)
    .executeTakeFirstOrThrow();
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const key = `uploads/${sha256.slice(0, 2)}/${sha256}.pdf`;
  await t.running.infra.storage.put(key, pdf);
  const file = await new BooksRepo(db).insertFile({
    id: `f${sha256.slice(0, 24)}`,
    sha256,
    size: String(pdf.length),
    format: 'pdf',
    storage_key: key,
    original_name: 'seeded.pdf',
    created_by: book.owner_id,
  });
  await db.updateTable('books').set({ format: 'pdf', file_id: file.id }).where('id', '=', book.id).execute();
  await db
    .updateTable('book_blocks')
    .set({ pdf_page: sql<number>`seq` })
    .where('book_id', '=', book.id)
    .execute();
}
