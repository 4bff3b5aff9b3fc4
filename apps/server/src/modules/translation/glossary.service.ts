import { findLanguage, type Glossary, type GlossaryEntry } from '@yidu/shared';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import type { LlmClient } from '../../engines/llm/types.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import { languageName } from '../ai/prompts.ts';

const MAX_ENTRIES = 500;
const EXTRACTED = z.object({
  terms: z.array(z.object({ source: z.string(), target: z.string(), note: z.string().nullable().optional() })),
});

/**
 * Per-book glossaries. The LLM translation engine is given the entries that occur in each batch, so
 * that names and terms stay the same across the whole book; editing a glossary bumps the book's
 * glossary version, which is part of the translation-memory key.
 */
export class GlossaryService {
  private readonly d: { db: Db; books: BooksService; logger: Logger; llm: () => LlmClient | undefined };
  /** `llm`: the explanation model as configured now (admins change it at run time). */
  constructor(deps: { db: Db; books: BooksService; logger: Logger; llm: () => LlmClient | undefined }) {
    this.d = deps;
  }

  private language(code: string): string {
    const language = findLanguage(code);
    if (!language) throw fail('noSuchLanguage');
    return language.code;
  }

  /** The entries used for translating a book into a language. */
  async entries(bookId: number, lang: string): Promise<{ source: string; target: string }[]> {
    return this.d.db
      .selectFrom('book_glossary')
      .select(['source', 'target'])
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .execute();
  }

  async get(user: UserRow, code: string, language: string): Promise<Glossary> {
    const { book } = await this.d.books.view(user, code);
    const lang = this.language(language);
    const entries = await this.d.db
      .selectFrom('book_glossary')
      .select(['source', 'target', 'note'])
      .where('book_id', '=', book.id)
      .where('target_lang', '=', lang)
      .orderBy('source')
      .execute();
    return { entries, version: book.glossary_version, editable: book.owner_id === user.id || user.role === 'admin' };
  }

  /** Replaces the glossary of a language (uploader or admin). */
  async save(user: UserRow, code: string, language: string, entries: GlossaryEntry[]): Promise<Glossary> {
    const { book } = await this.d.books.view(user, code);
    if (book.owner_id !== user.id && user.role !== 'admin') throw fail('insufficientPermissions');
    const lang = this.language(language);
    const unique = new Map(entries.map((e) => [e.source, e]));
    if (unique.size > MAX_ENTRIES) throw fail('badRequest', { reason: 'tooManyEntries', max: MAX_ENTRIES });
    await this.d.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('book_glossary').where('book_id', '=', book.id).where('target_lang', '=', lang).execute();
      if (unique.size > 0) {
        await trx
          .insertInto('book_glossary')
          .values(
            [...unique.values()].map((e) => ({
              book_id: book.id,
              target_lang: lang,
              source: e.source,
              target: e.target,
              note: e.note,
            })),
          )
          .execute();
      }
      await trx
        .updateTable('books')
        .set({ glossary_version: sql`glossary_version + 1` })
        .where('id', '=', book.id)
        .execute();
    });
    return this.get(user, code, language);
  }

  /** Asks the LLM for the book's names and terms with renderings; existing entries are kept as they are. */
  async extract(user: UserRow, code: string, language: string): Promise<Glossary> {
    const llm = this.d.llm();
    if (!llm) throw fail('aiNotConfigured');
    const { book } = await this.d.books.view(user, code);
    if (book.owner_id !== user.id && user.role !== 'admin') throw fail('insufficientPermissions');
    const lang = this.language(language);
    const sample = await this.d.books.repo.sampleText(book.id, 40);
    let answer;
    try {
      answer = await llm.complete(
        [
          {
            role: 'system',
            content:
              `From passages of the book "${book.title}" (${languageName(book.original_language)}), list the names of people, places and organisations and the recurring special terms, ` +
              `each with one consistent rendering in ${languageName(lang)} (use the established translation when there is one). At most 60. ` +
              'Answer JSON only: {"terms":[{"source":"...","target":"...","note":"person|place|organisation|term"}]}',
          },
          { role: 'user', content: sample.join('\n\n').slice(0, 12_000) },
        ],
        { responseFormat: 'json', maxTokens: 2500, temperature: 0.1 },
      );
    } catch (error) {
      if (error instanceof EngineError) throw fail('aiUnavailable', { reason: error.kind });
      throw error;
    }
    const json = answer.text.slice(answer.text.indexOf('{'), answer.text.lastIndexOf('}') + 1);
    let parsed;
    try {
      parsed = EXTRACTED.safeParse(JSON.parse(json));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) throw fail('aiUnavailable', { reason: 'badResponse' });
    const current = await this.get(user, code, language);
    const merged = new Map(current.entries.map((e) => [e.source, e]));
    for (const term of parsed.data.terms) {
      const source = term.source.trim().slice(0, 200);
      const target = term.target.trim().slice(0, 200);
      if (source && target && !merged.has(source))
        merged.set(source, { source, target, note: term.note?.slice(0, 500) ?? null });
    }
    return this.save(user, code, language, [...merged.values()].slice(0, MAX_ENTRIES));
  }
}
