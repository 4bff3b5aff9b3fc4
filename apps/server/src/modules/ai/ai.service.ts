import { randomUUID } from 'node:crypto';
import {
  findLanguage,
  type AiAnnotation,
  type AiFeature,
  type AnnotateResult,
  type ExplainBody,
  type RestateBody,
  type SearchResult,
} from '@yidu/shared';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { BookRow, UserRow } from '../../db/schema.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import type { LlmClient } from '../../engines/llm/types.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import type { PointsService, PricedAction } from '../points/points.service.ts';
import { annotatePrompt, explainPrompt, restatePrompt, searchPrompt, type PassageContext } from './prompts.ts';

export type AiEvent = { delta: string } | { done: { text: string; charge: { points: number; charged: boolean } } };

interface Deps {
  db: Db;
  books: BooksService;
  points: PointsService;
  logger: Logger;
  llm: LlmClient | undefined;
}

const ANNOTATION_JSON = z.object({
  notes: z.array(z.object({ p: z.coerce.number(), term: z.string(), kind: z.string(), note: z.string() })),
});
const KINDS = new Set(['word', 'name', 'idiom', 'allusion', 'grammar', 'other']);
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);

/**
 * The AI reading aids: explanations, restatements, page annotations and intelligent search. Each is
 * priced; the price is checked before the model is asked and charged only when the answer is complete.
 */
export class AiService {
  private readonly d: Deps;
  constructor(deps: Deps) {
    this.d = deps;
  }

  private llm(): LlmClient {
    if (!this.d.llm) throw fail('aiNotConfigured');
    return this.d.llm;
  }

  /** Shared books carry only the features their links grant; the server refuses the others. */
  private async viewWith(user: UserRow, code: string, feature: AiFeature) {
    const view = await this.d.books.view(user, code);
    if (!view.features?.includes(feature)) throw fail('insufficientPermissions', { feature });
    return view;
  }

  private language(code: string): string {
    const language = findLanguage(code);
    if (!language) throw fail('noSuchLanguage');
    return language.code;
  }

  private async preflight(user: UserRow, action: PricedAction, confirm: boolean | undefined): Promise<number> {
    const price = (await this.d.points.prices())[action];
    this.d.points.assertCanPay(user, price, confirm ?? false, { action });
    return price;
  }

  private async charge(
    user: UserRow,
    action: PricedAction,
    points: number,
    key: string,
    detail: Record<string, unknown>,
  ) {
    try {
      const result = await this.d.points.spend(user.id, { points, reason: action, idempotencyKey: key, detail });
      return { points, charged: result.charged || (await this.d.points.charged(user.id, key)) };
    } catch (error) {
      this.d.logger.info({ userId: user.id, action, err: error }, 'AI charge failed');
      return { points, charged: false };
    }
  }

  /** The block and its neighbours, for context. */
  private async passage(book: BookRow, blockId: string): Promise<PassageContext & { seq: number; page: number }> {
    const block = await this.d.db
      .selectFrom('book_blocks')
      .selectAll()
      .where('book_id', '=', book.id)
      .where('block_id', '=', blockId)
      .executeTakeFirst();
    if (!block) throw fail('notFound', { blockId });
    const [around, chapter] = await Promise.all([
      this.d.db
        .selectFrom('book_blocks')
        .select(['seq', 'text'])
        .where('book_id', '=', book.id)
        .where('seq', 'in', [block.seq - 1, block.seq + 1])
        .execute(),
      this.d.db
        .selectFrom('book_chapters')
        .select('title')
        .where('book_id', '=', book.id)
        .where('idx', '=', block.chapter_idx)
        .executeTakeFirst(),
    ]);
    return {
      seq: block.seq,
      page: block.page,
      bookTitle: book.title,
      author: book.author,
      chapterTitle: chapter?.title ?? '',
      bookLanguage: book.original_language ?? 'en',
      paragraph: block.text,
      before: around.find((a) => a.seq === block.seq - 1)?.text,
      after: around.find((a) => a.seq === block.seq + 1)?.text,
    };
  }

  /** Streams an explanation (or an advanced one) of a selection, then charges it. */
  async *explain(user: UserRow, body: ExplainBody): AsyncGenerator<AiEvent> {
    const llm = this.llm();
    const action: PricedAction = body.advanced ? 'advancedExplanation' : 'explanation';
    const { book } = await this.viewWith(user, body.bookCode, action as AiFeature);
    const language = this.language(body.language);
    const ctx = await this.passage(book, body.blockId);
    const price = await this.preflight(user, action, body.confirm);
    const text = yield* this.streamAnswer(
      llm,
      explainPrompt(ctx, body.selection, language, body.advanced),
      body.advanced ? 900 : 400,
    );
    const charge = await this.charge(user, action, price, body.requestId ?? randomUUID(), {
      bookCode: body.bookCode,
      blockId: body.blockId,
    });
    yield { done: { text, charge } };
  }

  /** Streams a simpler rewording of a selection, in the selection's own language, then charges it. */
  async *restate(user: UserRow, body: RestateBody): AsyncGenerator<AiEvent> {
    const llm = this.llm();
    const { book } = await this.viewWith(user, body.bookCode, 'restatement');
    const language = this.language(body.language);
    const ctx = await this.passage(book, body.blockId);
    // A selection made in the original text is reworded in the book's language, one made in the translation in the reader's.
    const selectionLanguage = ctx.paragraph.includes(body.selection.slice(0, 40)) ? ctx.bookLanguage : language;
    const price = await this.preflight(user, 'restatement', body.confirm);
    const text = yield* this.streamAnswer(llm, restatePrompt(ctx, body.selection, selectionLanguage, body.level), 800);
    const charge = await this.charge(user, 'restatement', price, body.requestId ?? randomUUID(), {
      bookCode: body.bookCode,
      blockId: body.blockId,
      level: body.level,
    });
    yield { done: { text, charge } };
  }

  private async *streamAnswer(
    llm: LlmClient,
    messages: Parameters<LlmClient['stream']>[0],
    maxTokens: number,
  ): AsyncGenerator<AiEvent, string> {
    let text = '';
    try {
      for await (const event of llm.stream(messages, { maxTokens, temperature: 0.3 })) {
        if ('delta' in event) {
          text += event.delta;
          yield { delta: event.delta };
        }
      }
    } catch (error) {
      if (error instanceof EngineError) {
        this.d.logger.warn({ kind: error.kind, err: error.message }, 'AI request failed');
        throw fail('aiUnavailable', { reason: error.kind });
      }
      throw error;
    }
    return text.trim();
  }

  /** Notes for the hard words, names, idioms and allusions of a page, shared by all its readers. */
  async annotate(
    user: UserRow,
    body: { bookCode: string; language: string; page: number; confirm?: boolean | undefined },
  ): Promise<AnnotateResult> {
    const llm = this.llm();
    const { book } = await this.viewWith(user, body.bookCode, 'annotation');
    const language = this.language(body.language);
    const blocks = await this.d.db
      .selectFrom('book_blocks')
      .selectAll()
      .where('book_id', '=', book.id)
      .where('page', '=', body.page)
      .where('type', 'in', ['paragraph', 'quote', 'listItem', 'heading'])
      .orderBy('seq')
      .execute();
    if (blocks.length === 0) throw fail('notFound', { page: body.page });
    const key = `annotation:${book.id}:${language}:${body.page}`;
    const price = (await this.d.points.prices()).annotation;
    const alreadyPaid = await this.d.points.charged(user.id, key);
    if (!alreadyPaid) this.d.points.assertCanPay(user, price, body.confirm ?? false, { action: 'annotation' });

    const cached = await this.d.db
      .selectFrom('ai_annotations')
      .select('notes')
      .where('book_id', '=', book.id)
      .where('page', '=', body.page)
      .where('lang', '=', language)
      .where('model', '=', llm.model)
      .executeTakeFirst();
    let notes = cached?.notes as AiAnnotation[] | undefined;
    if (!notes) {
      const chapter = await this.d.db
        .selectFrom('book_chapters')
        .select('title')
        .where('book_id', '=', book.id)
        .where('idx', '=', blocks[0]!.chapter_idx)
        .executeTakeFirst();
      let answer;
      try {
        answer = await llm.complete(
          annotatePrompt(
            {
              bookTitle: book.title,
              author: book.author,
              chapterTitle: chapter?.title ?? '',
              bookLanguage: book.original_language ?? 'en',
            },
            blocks.map((b) => b.text),
            language,
          ),
          { responseFormat: 'json', maxTokens: 1500, temperature: 0.2 },
        );
      } catch (error) {
        if (error instanceof EngineError) throw fail('aiUnavailable', { reason: error.kind });
        throw error;
      }
      notes = parseAnnotations(answer.text, blocks);
      await this.d.db
        .insertInto('ai_annotations')
        .values({ book_id: book.id, page: body.page, lang: language, model: llm.model, notes: JSON.stringify(notes) })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    const charge = alreadyPaid
      ? { points: price, charged: true }
      : await this.charge(user, 'annotation', price, key, { bookCode: body.bookCode, page: body.page, language });
    return { annotations: notes, charge };
  }

  /** Keyword search over the book (original and translation, CJK included) and, optionally, a grounded AI answer. */
  async search(
    user: UserRow,
    body: { bookCode: string; language: string; query: string; ai: boolean; confirm?: boolean | undefined },
  ): Promise<SearchResult> {
    const { book } = await this.viewWith(user, body.bookCode, 'search');
    const language = this.language(body.language);
    let price = 0;
    if (body.ai) {
      this.llm();
      price = await this.preflight(user, 'search', body.confirm);
    }
    const terms = [...new Set(body.query.split(/\s+/).filter((t) => t.length > 0))].slice(0, 6);
    const patterns = terms.map((t) => `%${escapeLike(t.toLowerCase())}%`);
    const score = sql.join(
      patterns.map(
        (p) =>
          sql`(CASE WHEN lower(b.text) LIKE ${p} OR lower(coalesce(t.translation, '')) LIKE ${p} THEN 1 ELSE 0 END)`,
      ),
      sql` + `,
    );
    const rows = await sql<{
      block_id: string;
      page: number;
      text: string;
      translation: string | null;
      title: string;
      score: number;
    }>`
      SELECT b.block_id, b.page, b.text, t.translation, c.title, (${score}) AS score
      FROM book_blocks b
      JOIN book_chapters c ON c.book_id = b.book_id AND c.idx = b.chapter_idx
      LEFT JOIN book_translations t ON t.book_id = b.book_id AND t.seq = b.seq AND t.target_lang = ${language} AND t.status = 'done'
      WHERE b.book_id = ${book.id} AND (${score}) > 0
      ORDER BY score DESC, b.seq
      LIMIT 20`.execute(this.d.db);
    const hits = rows.rows.map((r) => {
      const inOriginal = patterns.some((_p, i) => r.text.toLowerCase().includes(terms[i]!.toLowerCase()));
      const source = inOriginal || !r.translation ? r.text : stripTags(r.translation);
      return {
        blockId: r.block_id,
        page: r.page,
        chapterTitle: r.title,
        snippet: snippet(source, terms),
        inTranslation: !inOriginal && r.translation !== null,
      };
    });
    if (!body.ai) return { hits, answer: null, charge: null };

    const passages = rows.rows.slice(0, 8);
    let answer;
    try {
      answer = await this.llm().complete(
        searchPrompt(
          book.title,
          body.query,
          passages.map((p) => p.text),
          language,
        ),
        { maxTokens: 700, temperature: 0.2 },
      );
    } catch (error) {
      if (error instanceof EngineError) throw fail('aiUnavailable', { reason: error.kind });
      throw error;
    }
    const cited = [...new Set([...answer.text.matchAll(/\[(\d{1,2})\]/g)].map((m) => Number(m[1])))].filter(
      (n) => n >= 1 && n <= passages.length,
    );
    const charge = await this.charge(user, 'search', price, randomUUID(), {
      bookCode: body.bookCode,
      query: body.query.slice(0, 100),
    });
    return {
      hits,
      answer: {
        text: answer.text.trim(),
        citations: cited.map((n) => ({ n, blockId: passages[n - 1]!.block_id, page: passages[n - 1]!.page })),
      },
      charge,
    };
  }
}

/** Model output → notes anchored to blocks; anything malformed is dropped, never trusted. */
export function parseAnnotations(text: string, blocks: { block_id: string; text: string }[]): AiAnnotation[] {
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let parsed;
  try {
    parsed = ANNOTATION_JSON.safeParse(JSON.parse(json));
  } catch {
    return [];
  }
  if (!parsed.success) return [];
  return parsed.data.notes.flatMap((n) => {
    const block = blocks[n.p - 1];
    if (!block || !n.term.trim() || !n.note.trim()) return [];
    const start = block.text.indexOf(n.term);
    return [
      {
        blockId: block.block_id,
        term: n.term.slice(0, 200),
        kind: (KINDS.has(n.kind) ? n.kind : 'other') as AiAnnotation['kind'],
        note: n.note.slice(0, 1000),
        start,
        end: start === -1 ? -1 : start + n.term.length,
      },
    ];
  });
}

const stripTags = (html: string) => html.replace(/<[^>]*>/g, '');

function snippet(text: string, terms: string[]): string {
  const lower = text.toLowerCase();
  const at = Math.max(
    0,
    Math.min(...terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0), text.length),
  );
  const start = Math.max(0, at - 80);
  const end = Math.min(text.length, at + 160);
  return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
}
