import {
  findLanguage,
  type Glossary,
  type GlossaryEntry,
  type GlossarySuggestion,
  type RetranslationQuote,
} from '@yidu/shared';
import type { BookRow, UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import type { PointsService } from '../points/points.service.ts';
import { escapeText, glossaryKeyOf } from './translation.service.ts';
import type { GlossaryRepo } from './glossary.repo.ts';
import { type EntryRow, type ParagraphRow, type SuggestionRow } from './glossary.repo.ts';

export const MAX_ENTRIES = 500;
/** Pending suggestions one reader may have on a book at a time. */
const MAX_PENDING_SUGGESTIONS = 50;

/** What is sent to the engines for a paragraph (as the page translator sends it), hence what its key is made of. */
export const paragraphSource = (p: Pick<ParagraphRow, 'html' | 'text'>) => p.html ?? escapeText(p.text);

/** A paragraph whose translation was made with other glossary entries than it holds today. */
export interface StaleParagraph {
  seq: number;
  page: number;
  chars: number;
}

/**
 * Per-book glossaries, one per target language: how the book's names and terms are rendered. The
 * owner (or an admin) edits them; other readers suggest entries, which the owner accepts or
 * rejects. Machine translation keeps the terms (each engine in its own way) and the LLM and the AI
 * aids read them in their prompts. A paragraph's translation is remembered with the entries it holds,
 * so a change leaves exactly the paragraphs holding the changed terms out of date, until their
 * owner has them retranslated (retranslation.ts).
 */
export class GlossaryService {
  readonly repo: GlossaryRepo;
  private readonly d: { books: BooksService; points: PointsService; logger: Logger };
  constructor(deps: { repo: GlossaryRepo; books: BooksService; points: PointsService; logger: Logger }) {
    this.d = deps;
    this.repo = deps.repo;
  }

  language(code: string): string {
    const language = findLanguage(code);
    if (!language) throw fail('noSuchLanguage');
    return language.code;
  }

  /** The entries used for translating a book into a language. */
  async entries(bookId: number, lang: string): Promise<{ source: string; target: string }[]> {
    return this.repo.entries(bookId, lang);
  }

  private static canEdit(user: UserRow, book: BookRow): boolean {
    return book.owner_id === user.id || user.role === 'admin';
  }

  /** The book, for someone allowed to change its glossary (the uploader or an admin). */
  async editable(user: UserRow, code: string): Promise<BookRow> {
    const { book } = await this.d.books.view(user, code);
    if (!GlossaryService.canEdit(user, book)) throw fail('insufficientPermissions');
    return book;
  }

  async get(user: UserRow, code: string, language: string): Promise<Glossary> {
    const { book } = await this.d.books.view(user, code);
    const lang = this.language(language);
    const editable = GlossaryService.canEdit(user, book);
    const [entries, suggestions] = await Promise.all([
      this.repo.entries(book.id, lang),
      this.repo.suggestions(book.id, lang, editable ? 'pending' : { userId: user.id }),
    ]);
    return {
      entries,
      version: book.glossary_version,
      editable,
      canSuggest: !editable,
      suggestions: suggestions.map(presentSuggestion),
      retranslation: editable ? await this.quote(book, lang, entries) : null,
    };
  }

  /** Replaces the glossary of a language (uploader or admin). Entries keep their origin when unchanged. */
  async save(user: UserRow, code: string, language: string, entries: GlossaryEntry[]): Promise<Glossary> {
    const book = await this.editable(user, code);
    const lang = this.language(language);
    const unique = new Map(entries.map((e) => [e.source, e]));
    if (unique.size > MAX_ENTRIES) throw fail('badRequest', { reason: 'tooManyEntries', max: MAX_ENTRIES });
    const before = new Map((await this.repo.entries(book.id, lang)).map((e) => [e.source, e]));
    await this.repo.replace(
      book.id,
      lang,
      [...unique.values()].map((e) => {
        const old = before.get(e.source);
        const same = old && old.target === e.target && (old.note ?? null) === (e.note ?? null);
        return { source: e.source, target: e.target, note: e.note ?? null, origin: same ? old.origin : 'owner' };
      }),
    );
    return this.get(user, code, language);
  }

  /** A reader proposes an entry; the owner decides. The owner edits instead of suggesting. */
  async suggest(user: UserRow, code: string, language: string, entry: GlossaryEntry): Promise<Glossary> {
    const { book } = await this.d.books.view(user, code);
    if (GlossaryService.canEdit(user, book)) throw fail('badRequest', { reason: 'ownerEdits' });
    const lang = this.language(language);
    if ((await this.repo.pendingCount(book.id, user.id)) >= MAX_PENDING_SUGGESTIONS)
      throw fail('tooManyRequests', { reason: 'pendingSuggestions', max: MAX_PENDING_SUGGESTIONS });
    await this.repo.suggest({
      bookId: book.id,
      lang,
      userId: user.id,
      source: entry.source,
      target: entry.target,
      note: entry.note ?? null,
    });
    return this.get(user, code, language);
  }

  /** The owner accepts (the entry is set, replacing one of the same source) or rejects a suggestion. */
  async decide(user: UserRow, code: string, id: number, accept: boolean): Promise<Glossary> {
    const book = await this.editable(user, code);
    const suggestion = await this.repo.findSuggestion(id);
    if (!suggestion || suggestion.book_id !== book.id) throw fail('notFound');
    if (!(await this.repo.decide(id, accept ? 'accepted' : 'rejected'))) throw fail('notFound', { reason: 'decided' });
    if (accept) {
      await this.repo.put(book.id, suggestion.target_lang, {
        source: suggestion.source,
        target: suggestion.target,
        note: suggestion.note,
        origin: 'suggested',
      });
    }
    return this.get(user, code, suggestion.target_lang);
  }

  /**
   * Paragraphs of the book already translated into the language whose translation was made with
   * other entries than they hold now (`running`: sent back and not translated again yet).
   */
  async staleParagraphs(
    bookId: number,
    lang: string,
    entries?: EntryRow[],
  ): Promise<{ stale: StaleParagraph[]; running: number }> {
    const glossary = entries ?? (await this.repo.entries(bookId, lang));
    const rows = await this.repo.paragraphs(
      bookId,
      lang,
      glossary.map((e) => e.source),
    );
    const stale: StaleParagraph[] = [];
    let running = 0;
    for (const row of rows) {
      if (glossaryKeyOf(paragraphSource(row), glossary) === (row.glossary_key ?? '')) continue;
      if (row.status === 'pending') running++;
      else stale.push({ seq: row.seq, page: row.page, chars: row.text.length });
    }
    return { stale, running };
  }

  /** The retranslation quote: stale paragraphs priced as engine work. */
  async quote(book: BookRow, lang: string, entries?: EntryRow[]): Promise<RetranslationQuote> {
    const { stale, running } = await this.staleParagraphs(book.id, lang, entries);
    const characters = stale.reduce((n, p) => n + p.chars, 0);
    const prices = await this.d.points.prices();
    return {
      paragraphs: stale.length,
      characters,
      points: Math.ceil((characters * prices.translation) / 1000),
      running,
    };
  }
}

const presentSuggestion = (s: SuggestionRow): GlossarySuggestion => ({
  id: Number(s.id),
  source: s.source,
  target: s.target,
  note: s.note,
  status: s.status,
  by: s.nickname,
  createdAt: s.created_at.toISOString(),
});
