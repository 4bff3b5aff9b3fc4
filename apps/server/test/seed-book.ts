import { BooksRepo } from '../src/modules/books/books.repo.ts';
import type { TestApp } from './helpers.ts';

/**
 * A ready book of one chapter whose pages are given paragraph by paragraph (the first paragraph is the
 * chapter's heading), owned by `owner` and in their library. Returns its code.
 */
export async function seedBook(
  t: TestApp,
  owner: string,
  book: { title: string; language: string; pages: string[][]; visibility?: 0 | 1 },
): Promise<string> {
  const db = t.running.infra.db;
  const user = await db.selectFrom('users').select('id').where('account', '=', owner).executeTakeFirstOrThrow();
  const repo = new BooksRepo(db);
  const row = await repo.insertBook({
    code: `seed${Math.random().toString(36).slice(2, 10)}`,
    file_id: null,
    owner_id: user.id,
    title: book.title,
    author: 'Anonymous',
    format: 'txt',
    visibility: book.visibility ?? 1,
    status: 'ready',
    cover_key: null,
    category: null,
    original_language: book.language,
    declared_language: null,
    source_pages: null,
  });
  const blocks = book.pages.flatMap((texts, p) => texts.map((text) => ({ text, page: p + 1 })));
  await repo.replaceContent(row.id, {
    blockBatches: [
      blocks.map((b, i) => ({
        book_id: row.id,
        seq: i + 1,
        block_id: `c1-b${i + 1}`,
        chapter_idx: 1,
        page: b.page,
        type: i === 0 ? 'heading' : 'paragraph',
        text: b.text,
        html: null,
        level: i === 0 ? 1 : null,
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
          title: blocks[0]!.text,
          level: 1,
          first_page: 1,
          first_seq: 1,
          block_count: blocks.length,
        },
      ],
      stats: {
        chapter_count: 1,
        block_count: blocks.length,
        char_count: blocks.reduce((n, b) => n + b.text.length, 0),
        page_count: book.pages.length,
        source_pages: null,
      },
    }),
  });
  await repo.addCopy({ user_id: user.id, book_id: row.id, title: row.title, author: row.author, source: 'upload' });
  return row.code;
}
