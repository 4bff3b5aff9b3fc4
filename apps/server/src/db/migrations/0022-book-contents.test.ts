/**
 * Migration 0022 on books stored before it: their chapters become their contents, and the English
 * titles the parsers used to make ("Part 3", "Pages 11–20", "Cover", "Notes") become markers, while a
 * book's own titles stay words.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.ts';
import { migrateToLatest } from '../migrate.ts';

describe('migration 0022: contents of the books stored before it', () => {
  let db: Kysely<unknown>;
  beforeAll(async () => {
    db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: await createTestDatabase(), max: 2 }) }),
    });
    // The database as it was before 0022.
    await sql`DROP TABLE book_contents`.execute(db);
    await sql`ALTER TABLE book_chapters DROP COLUMN generated`.execute(db);
    await sql`DELETE FROM yidu_migrations WHERE name = '0022-book-contents'`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('lists each chapter as an entry and turns generated English titles into markers', async () => {
    const books: [string, string, string[][]][] = [
      // format, code, chapters (title, block types…)
      [
        'txt',
        'txtbook',
        [
          ['', 'paragraph'],
          ['Part 2', 'paragraph'],
          ['Part 3', 'paragraph'],
        ],
      ],
      [
        'pdf',
        'pdfbook',
        [
          ['Pages 1–10', 'paragraph'],
          ['Pages 11–13', 'paragraph'],
        ],
      ],
      [
        'epub',
        'epubbook',
        [
          ['Cover', 'image'],
          ['Part 2', 'heading', 'paragraph'],
          ['Chapter 1', 'paragraph'],
        ],
      ],
      [
        'doc',
        'docbook',
        [
          ['Глава 1', 'paragraph'],
          ['Notes', 'footnote', 'footnote'],
        ],
      ],
    ];
    for (const [format, code, chapters] of books) {
      const { rows } = await sql<{ id: number }>`
        INSERT INTO books (code, title, format, status) VALUES (${code}, ${code}, ${format}, 'ready') RETURNING id`.execute(
        db,
      );
      const id = rows[0]!.id;
      let seq = 0;
      for (const [c, [title, ...types]] of chapters.entries()) {
        await sql`INSERT INTO book_chapters (book_id, idx, title, level, first_page, first_seq, block_count)
                  VALUES (${id}, ${c + 1}, ${title}, 1, ${c + 1}, ${seq + 1}, ${types.length})`.execute(db);
        for (const [b, type] of types.entries()) {
          seq += 1;
          await sql`INSERT INTO book_blocks (book_id, seq, block_id, chapter_idx, page, type, text)
                    VALUES (${id}, ${seq}, ${`c${c + 1}-b${b + 1}`}, ${c + 1}, ${c + 1}, ${type}, 'text')`.execute(db);
        }
      }
    }

    await migrateToLatest(db);

    const { rows } = await sql<{ code: string; idx: number; title: string; generated: unknown; seq: number }>`
      SELECT b.code, c.idx, c.title, c.generated, c.seq
        FROM book_contents c JOIN books b ON b.id = c.book_id
       ORDER BY b.code, c.idx`.execute(db);
    const of = (code: string) =>
      rows.filter((r) => r.code === code).map(({ title, generated, seq }) => [title, generated, seq]);
    expect(of('txtbook')).toEqual([
      ['', null, 1],
      ['', { kind: 'part', n: 2 }, 2],
      ['', { kind: 'part', n: 3 }, 3],
    ]);
    expect(of('pdfbook')).toEqual([
      ['', { kind: 'pages', from: 1, to: 10 }, 1],
      ['', { kind: 'pages', from: 11, to: 13 }, 2],
    ]);
    // An EPUB's "Part 2" is the book's own title; its picture-only first chapter was the generated cover.
    expect(of('epubbook')).toEqual([
      ['', { kind: 'cover' }, 1],
      ['Part 2', null, 2],
      ['Chapter 1', null, 4],
    ]);
    expect(of('docbook')).toEqual([
      ['Глава 1', null, 1],
      ['', { kind: 'notes' }, 2],
    ]);
    const chapters = await sql<{ generated: unknown }>`
      SELECT generated FROM book_chapters WHERE generated IS NOT NULL`.execute(db);
    expect(chapters.rows).toHaveLength(6);
  });
});
