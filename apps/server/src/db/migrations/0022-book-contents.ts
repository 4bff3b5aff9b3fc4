import { sql, type Kysely } from 'kysely';

/**
 * A book's contents as the book declares them, at every depth: entries in the book's order, each at
 * its level and leading to one block (`seq`). Chapters stay the coarse runs of blocks that pages and
 * translation context follow. Titles Yidu made ("Part 3", "Pages 11–20", "Cover", "Notes") are kept
 * as a marker (`generated`) that each reader sees in their own language, never as English words.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE book_chapters ADD COLUMN generated jsonb`.execute(db);
  await db.schema
    .createTable('book_contents')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('level', 'smallint', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('generated', 'jsonb')
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('book_contents_pk', ['book_id', 'idx'])
    .execute();

  // Books stored before: the English titles the parsers made become markers…
  await sql`
    UPDATE book_chapters c
       SET generated = jsonb_build_object('kind', 'part', 'n', substring(c.title FROM '^Part ([0-9]{1,6})$')::int),
           title = ''
      FROM books b
     WHERE b.id = c.book_id AND b.format IN ('txt', 'doc', 'docx') AND c.title ~ '^Part [0-9]{1,6}$'`.execute(db);
  await sql`
    UPDATE book_chapters c
       SET generated = jsonb_build_object('kind', 'pages',
             'from', substring(c.title FROM '^Pages ([0-9]{1,6})')::int,
             'to', substring(c.title FROM '([0-9]{1,6})$')::int),
           title = ''
      FROM books b
     WHERE b.id = c.book_id AND b.format = 'pdf' AND c.title ~ '^Pages [0-9]{1,6}–[0-9]{1,6}$'`.execute(db);
  await sql`
    UPDATE book_chapters c SET generated = '{"kind":"cover"}', title = ''
     WHERE c.idx = 1 AND c.title = 'Cover'
       AND NOT EXISTS (SELECT 1 FROM book_blocks b
                        WHERE b.book_id = c.book_id AND b.chapter_idx = c.idx AND b.type <> 'image')`.execute(db);
  await sql`
    UPDATE book_chapters c SET generated = '{"kind":"notes"}', title = ''
      FROM books b
     WHERE b.id = c.book_id AND b.format = 'doc' AND c.title = 'Notes'
       AND NOT EXISTS (SELECT 1 FROM book_blocks k
                        WHERE k.book_id = c.book_id AND k.chapter_idx = c.idx AND k.type <> 'footnote')`.execute(db);
  // …and their chapters are their contents, as they were shown.
  await sql`
    INSERT INTO book_contents (book_id, idx, level, title, generated, seq)
    SELECT book_id, idx, level, title, generated, first_seq FROM book_chapters`.execute(db);
}
