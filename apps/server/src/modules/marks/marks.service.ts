import {
  findLanguage,
  type AnnotationBody,
  type BookmarkBody,
  type HighlightBody,
  type Mark,
  type MarkKind,
  type Position,
} from '@yidu/shared';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookRow, ReaderMarksTable, UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { BooksService } from '../books/books.service.ts';

type MarkRow = Selectable<ReaderMarksTable>;

/**
 * Annotations, highlights, underlines and bookmarks, each anchored to a block and character offsets;
 * reading positions. A user sees and changes only their own.
 */
export class MarksService {
  private readonly db: Db;
  private readonly books: BooksService;
  constructor(deps: { db: Db; books: BooksService }) {
    this.db = deps.db;
    this.books = deps.books;
  }

  private present(row: MarkRow, bookCode: string): Mark {
    return {
      id: Number(row.id),
      kind: row.kind,
      bookCode,
      blockId: row.block_id,
      page: row.page,
      start: row.start_offset,
      end: row.end_offset,
      inTranslation: row.in_translation,
      language: row.language,
      quote: row.quote,
      content: row.content,
      color: row.color,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    };
  }

  /** The block's page, checking that the block exists and the offsets fit in its text. */
  private async anchor(book: BookRow, blockId: string, start?: number | null, end?: number | null): Promise<number> {
    const block = await this.db
      .selectFrom('book_blocks')
      .select(['page', 'text'])
      .where('book_id', '=', book.id)
      .where('block_id', '=', blockId)
      .executeTakeFirst();
    if (!block) throw fail('notFound', { blockId });
    if ((start ?? null) !== null && (end ?? null) !== null && start! > end!)
      throw fail('badRequest', { reason: 'startAfterEnd' });
    return block.page;
  }

  private language(code: string | null | undefined): string | null {
    if (!code) return null;
    const language = findLanguage(code);
    if (!language) throw fail('noSuchLanguage');
    return language.code;
  }

  async addAnnotation(user: UserRow, body: AnnotationBody): Promise<Mark> {
    if (!body.content.trim()) throw fail('annotationEmpty');
    const { book } = await this.books.view(user, body.bookCode);
    const page = await this.anchor(book, body.blockId, body.start, body.end);
    return this.insert(user, book, 'annotation', page, body, { content: body.content.trim() });
  }

  async editAnnotation(user: UserRow, id: number, content: string): Promise<Mark> {
    if (!content.trim()) throw fail('annotationEmpty');
    const row = await this.db
      .updateTable('reader_marks')
      .set({ content: content.trim(), updated_at: new Date() })
      .where('id', '=', String(id))
      .where('user_id', '=', user.id)
      .where('kind', '=', 'annotation')
      .returningAll()
      .executeTakeFirst();
    if (!row) throw fail('notFound');
    return this.present(row, await this.codeOf(row.book_id));
  }

  async addHighlight(user: UserRow, body: HighlightBody): Promise<Mark> {
    const { book } = await this.books.view(user, body.bookCode);
    const page = await this.anchor(book, body.blockId, body.start, body.end);
    return this.insert(user, book, body.style, page, body, { color: body.style === 'highlight' ? body.color : null });
  }

  async addBookmark(user: UserRow, body: BookmarkBody): Promise<Mark> {
    const { book } = await this.books.view(user, body.bookCode);
    if (body.page > book.page_count) throw fail('notFound', { page: body.page });
    const blockId =
      body.blockId ??
      (
        await this.db
          .selectFrom('book_blocks')
          .select('block_id')
          .where('book_id', '=', book.id)
          .where('page', '=', body.page)
          .orderBy('seq')
          .executeTakeFirst()
      )?.block_id;
    if (!blockId) throw fail('notFound', { page: body.page });
    const row = await this.db
      .insertInto('reader_marks')
      .values({
        user_id: user.id,
        book_id: book.id,
        kind: 'bookmark',
        block_id: blockId,
        page: body.page,
        start_offset: null,
        end_offset: null,
        content: body.note?.trim() || null,
        color: null,
        language: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.present(row, book.code);
  }

  private async insert(
    user: UserRow,
    book: BookRow,
    kind: MarkKind,
    page: number,
    body: {
      blockId: string;
      start?: number | null | undefined;
      end?: number | null | undefined;
      quote: string;
      inTranslation: boolean;
      language?: string | null | undefined;
    },
    extra: { content?: string; color?: string | null },
  ): Promise<Mark> {
    const row = await this.db
      .insertInto('reader_marks')
      .values({
        user_id: user.id,
        book_id: book.id,
        kind,
        block_id: body.blockId,
        page,
        start_offset: body.start ?? null,
        end_offset: body.end ?? null,
        in_translation: body.inTranslation,
        language: this.language(body.language),
        quote: body.quote,
        content: extra.content ?? null,
        color: extra.color ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.present(row, book.code);
  }

  /** Deletes one of the user's marks, of the given kinds. */
  async remove(user: UserRow, id: number, kinds: MarkKind[]): Promise<void> {
    const result = await this.db
      .deleteFrom('reader_marks')
      .where('id', '=', String(id))
      .where('user_id', '=', user.id)
      .where('kind', 'in', kinds)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw fail('notFound');
  }

  async list(user: UserRow, code: string, kind?: MarkKind): Promise<Mark[]> {
    const { book } = await this.books.view(user, code);
    let query = this.db
      .selectFrom('reader_marks')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('book_id', '=', book.id);
    if (kind) query = query.where('kind', '=', kind);
    const rows = await query.orderBy('page').orderBy('block_id').orderBy('start_offset').orderBy('id').execute();
    return rows.map((r) => this.present(r, book.code));
  }

  /** All notes of a book as Markdown, chapter by chapter. */
  async exportMarkdown(user: UserRow, code: string): Promise<{ filename: string; markdown: string }> {
    const view = await this.books.view(user, code);
    const rows = await sql<MarkRow & { chapter_title: string; seq: number }>`
      SELECT m.*, c.title AS chapter_title, b.seq
      FROM reader_marks m
      JOIN book_blocks b ON b.book_id = m.book_id AND b.block_id = m.block_id
      JOIN book_chapters c ON c.book_id = b.book_id AND c.idx = b.chapter_idx
      WHERE m.user_id = ${user.id} AND m.book_id = ${view.book.id}
      ORDER BY b.seq, m.start_offset NULLS FIRST, m.id`.execute(this.db);
    const title = view.copy?.title ?? view.book.title;
    const author = view.copy?.author ?? view.book.author;
    const lines = [`# ${title}`, '', `*${author}*`, ''];
    let chapter = '';
    for (const row of rows.rows) {
      if (row.chapter_title !== chapter) {
        chapter = row.chapter_title;
        lines.push(`## ${chapter}`, '');
      }
      const quote = row.quote.trim().replace(/\n+/g, ' ');
      if (row.kind === 'bookmark') lines.push(`- 🔖 p. ${row.page}${row.content ? ` — ${row.content}` : ''}`);
      else {
        if (quote) lines.push(`> ${quote}`);
        lines.push(`— ${row.kind}${row.color ? ` (${row.color})` : ''}, p. ${row.page}`);
        if (row.content) lines.push('', row.content);
      }
      lines.push('');
    }
    const filename = `${
      title
        .replace(/[^\p{L}\p{N} _-]+/gu, '')
        .trim()
        .slice(0, 80) || 'notes'
    }.md`;
    return { filename, markdown: lines.join('\n') };
  }

  // ---------- reading positions ----------

  async savePosition(
    user: UserRow,
    body: { bookCode: string; page: number; blockId?: string | null | undefined; language: string },
  ): Promise<Position> {
    const view = await this.books.view(user, body.bookCode);
    const language = this.language(body.language)!;
    const page = Math.min(body.page, Math.max(1, view.book.page_count));
    const row = await this.db
      .insertInto('reading_positions')
      .values({ user_id: user.id, book_id: view.book.id, page, block_id: body.blockId ?? null, language })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'book_id'])
          .doUpdateSet({ page, block_id: body.blockId ?? null, language, updated_at: new Date() }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    if (view.copy)
      await this.db
        .updateTable('user_books')
        .set({ last_read_at: new Date() })
        .where('id', '=', view.copy.id)
        .execute();
    return {
      bookCode: view.book.code,
      page: row.page,
      blockId: row.block_id,
      language: row.language,
      updatedAt: row.updated_at.toISOString(),
    };
  }

  async position(user: UserRow, code: string): Promise<Position | null> {
    const { book } = await this.books.view(user, code);
    const row = await this.db
      .selectFrom('reading_positions')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('book_id', '=', book.id)
      .executeTakeFirst();
    return row
      ? {
          bookCode: book.code,
          page: row.page,
          blockId: row.block_id,
          language: row.language,
          updatedAt: row.updated_at.toISOString(),
        }
      : null;
  }

  /** The books the user read last, with where they stopped (the New Tab's "continue reading"). */
  async recent(user: UserRow, limit = 12): Promise<(Position & { bookName: string; pageCount: number })[]> {
    const rows = await this.db
      .selectFrom('reading_positions as p')
      .innerJoin('books as b', 'b.id', 'p.book_id')
      .leftJoin('user_books as ub', (j) => j.onRef('ub.book_id', '=', 'p.book_id').on('ub.user_id', '=', user.id))
      .select([
        'b.code',
        'b.title',
        'b.page_count',
        'ub.title as copy_title',
        'p.page',
        'p.block_id',
        'p.language',
        'p.updated_at',
      ])
      .where('p.user_id', '=', user.id)
      .where('ub.id', 'is not', null)
      .orderBy('p.updated_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      bookCode: r.code,
      bookName: r.copy_title ?? r.title,
      pageCount: r.page_count,
      page: r.page,
      blockId: r.block_id,
      language: r.language,
      updatedAt: r.updated_at.toISOString(),
    }));
  }

  private async codeOf(bookId: number): Promise<string> {
    return (await this.db.selectFrom('books').select('code').where('id', '=', bookId).executeTakeFirstOrThrow()).code;
  }
}
