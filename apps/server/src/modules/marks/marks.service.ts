import {
  FALLBACK_UI_LANGUAGE,
  findLanguage,
  isUiLanguage,
  type UiLanguage,
  type AnnotationBody,
  type BookmarkBody,
  type HighlightBody,
  type Mark,
  type MarkKind,
  type Position,
} from '@yidu/shared';
import type { BookRow, UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { BooksService } from '../books/books.service.ts';
import { markdownText } from '../../lib/markdown-text.ts';
import type { ClientWrites } from '../offline/client-writes.repo.ts';
import { MarksRepo, type MarkRow, type NewMark } from './marks.repo.ts';
import { exportLabels } from './notes-export-wording.ts';

/**
 * Annotations, highlights, underlines and bookmarks, each anchored to a block and character offsets;
 * reading positions. A user sees and changes only their own.
 */
export class MarksService {
  private readonly repo: MarksRepo;
  private readonly books: BooksService;
  private readonly writes: ClientWrites | undefined;
  private readonly onWritten: (userId: number) => void;
  constructor(deps: {
    repo: MarksRepo;
    books: BooksService;
    /** Client ids: a mark sent again (an offline queue) is made once. */
    writes?: ClientWrites;
    /** A highlight or note was made or changed (Readwise pushes it). */
    onWritten?: (userId: number) => void;
  }) {
    this.repo = deps.repo;
    this.books = deps.books;
    this.writes = deps.writes;
    this.onWritten = deps.onWritten ?? (() => {});
  }

  /**
   * Stores a new mark; with a client id, once: a repeat answers the mark the first request made, and
   * a mark deleted since stays deleted (`alreadyDeleted`).
   */
  private async create(user: UserRow, clientId: string | undefined, mark: NewMark): Promise<MarkRow> {
    if (!clientId || !this.writes) return this.repo.insert(mark);
    const { id } = await this.writes.once(
      user.id,
      clientId,
      'mark',
      async (db) => (await new MarksRepo(db).insert(mark)).id,
    );
    const row = await this.repo.find(user.id, id);
    if (!row) throw fail('alreadyDeleted');
    return row;
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
    const block = await this.repo.block(book.id, blockId);
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
    const row = await this.repo.editAnnotation(user.id, id, content.trim());
    if (!row) throw fail('notFound');
    this.onWritten(user.id);
    return this.present(row, await this.repo.bookCode(row.book_id));
  }

  async addHighlight(user: UserRow, body: HighlightBody): Promise<Mark> {
    const { book } = await this.books.view(user, body.bookCode);
    const page = await this.anchor(book, body.blockId, body.start, body.end);
    return this.insert(user, book, body.style, page, body, { color: body.style === 'highlight' ? body.color : null });
  }

  async addBookmark(user: UserRow, body: BookmarkBody): Promise<Mark> {
    const { book } = await this.books.view(user, body.bookCode);
    if (body.page > book.page_count) throw fail('notFound', { page: body.page });
    const blockId = body.blockId ?? (await this.repo.firstBlockOfPage(book.id, body.page));
    if (!blockId) throw fail('notFound', { page: body.page });
    const row = await this.create(user, body.clientId, {
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
    });
    return this.present(row, book.code);
  }

  private async insert(
    user: UserRow,
    book: BookRow,
    kind: MarkKind,
    page: number,
    body: {
      clientId?: string | undefined;
      blockId: string;
      start?: number | null | undefined;
      end?: number | null | undefined;
      quote: string;
      inTranslation: boolean;
      language?: string | null | undefined;
    },
    extra: { content?: string; color?: string | null },
  ): Promise<Mark> {
    const row = await this.create(user, body.clientId, {
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
    });
    this.onWritten(user.id);
    return this.present(row, book.code);
  }

  /** Deletes one of the user's marks, of the given kinds. */
  async remove(user: UserRow, id: number, kinds: MarkKind[]): Promise<void> {
    if (!(await this.repo.remove(user.id, id, kinds))) throw fail('notFound');
  }

  async list(user: UserRow, code: string, kind?: MarkKind): Promise<Mark[]> {
    const { book } = await this.books.view(user, code);
    const rows = await this.repo.list(user.id, book.id, kind);
    return rows.map((r) => this.present(r, book.code));
  }

  /**
   * All notes of a book as Markdown, chapter by chapter, labelled in the reader's interface language
   * (the one given, else the account's, else English). Book text and notes are written as text
   * (markdownText): an image or raw HTML in them would make a Markdown viewer fetch remote files.
   */
  async exportMarkdown(
    user: UserRow,
    code: string,
    uiLanguage?: string,
  ): Promise<{ filename: string; markdown: string }> {
    const language = [uiLanguage, user.ui_language].find((l): l is UiLanguage => !!l && isUiLanguage(l));
    const labels = exportLabels(language ?? FALLBACK_UI_LANGUAGE);
    const view = await this.books.view(user, code);
    const rows = await this.repo.forExport(user.id, view.book.id);
    const title = view.copy?.title ?? view.book.title;
    const author = view.copy?.author ?? view.book.author;
    const lines = [`# ${markdownText(title)}`, '', `*${markdownText(author)}*`, ''];
    let chapter = '';
    for (const row of rows) {
      if (row.chapter_title !== chapter) {
        chapter = row.chapter_title;
        lines.push(`## ${markdownText(chapter)}`, '');
      }
      const quote = markdownText(row.quote.trim().replace(/\n+/g, ' '));
      const content = markdownText(row.content ?? '');
      if (row.kind === 'bookmark') lines.push(`- 🔖 ${labels.page(row.page)}${content ? ` — ${content}` : ''}`);
      else {
        if (quote) lines.push(`> ${quote}`);
        lines.push(`— ${labels.mark(row.kind, row.color, row.page)}`);
        if (content) lines.push('', content);
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

  /**
   * Saves where the reader is. A paragraph the book has decides the page (another device opens the
   * page it is on); one it does not have is not kept, the page is.
   */
  async savePosition(
    user: UserRow,
    body: {
      bookCode: string;
      page: number;
      blockId?: string | null | undefined;
      blockOffset?: number | null | undefined;
      language: string;
    },
  ): Promise<Position> {
    const view = await this.books.view(user, body.bookCode);
    const language = this.language(body.language)!;
    const block = body.blockId ? await this.repo.block(view.book.id, body.blockId) : undefined;
    const page = block?.page ?? Math.min(body.page, Math.max(1, view.book.page_count));
    const row = await this.repo.savePosition(user.id, view.book.id, {
      page,
      blockId: block ? body.blockId! : null,
      blockOffset: block ? (body.blockOffset ?? null) : null,
      language,
    });
    if (view.copy) await this.repo.touchCopy(view.copy.id);
    return this.presentPosition(view.book.code, row);
  }

  async position(user: UserRow, code: string): Promise<Position | null> {
    const { book } = await this.books.view(user, code);
    const row = await this.repo.position(user.id, book.id);
    return row ? this.presentPosition(book.code, row) : null;
  }

  private presentPosition(
    bookCode: string,
    row: { page: number; block_id: string | null; block_offset: number | null; language: string; updated_at: Date },
  ): Position {
    return {
      bookCode,
      page: row.page,
      blockId: row.block_id,
      blockOffset: row.block_offset,
      language: row.language,
      updatedAt: row.updated_at.toISOString(),
    };
  }

  /** The books the user read last, with where they stopped (the New Tab's "continue reading"). */
  async recent(user: UserRow, limit = 12): Promise<(Position & { bookName: string; pageCount: number })[]> {
    const rows = await this.repo.recent(user.id, limit);
    return rows.map((r) => ({
      ...this.presentPosition(r.code, r),
      bookName: r.copy_title ?? r.title,
      pageCount: r.page_count,
    }));
  }
}
