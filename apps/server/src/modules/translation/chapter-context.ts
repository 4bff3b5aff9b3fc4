import type { LanguageCode } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { BookRow } from '../../db/schema.ts';
import { relevantTerms } from '../../engines/translation/llm-segments.ts';
import { languageName } from '../../engines/translation/llm-segments.ts';
import type { GlossaryTerm } from '../../engines/translation/types.ts';
import type { ChatMessage, LlmClient } from '../../engines/llm/types.ts';
import type { Logger } from '../../lib/logger.ts';
import { ChapterSummariesRepo } from './chapter-summaries.repo.ts';
import type { TranslationService } from './translation.service.ts';

/** The text a summary is made of: the end of what came since the last summary (older text is in that one). */
const SOURCE_CHARS = 4_000;
/** A summary is a few sentences: it is read by every later batch of the chapter. */
const SUMMARY_MAX_TOKENS = 160;
const TERMS_IN_PROMPT = 24;
/**
 * A summary up to this many pages old still tells the chapter so far, near enough for a translator:
 * made every other page, the summaries cost half as much (bench/translate-context.ts).
 */
export const SUMMARY_STALE_PAGES = 2;

/** The prompt that folds the next part of a chapter into its running summary. */
export function summaryPrompt(input: {
  bookTitle: string;
  language: string;
  previous: string | undefined;
  text: string;
  terms: GlossaryTerm[];
}): ChatMessage[] {
  const lines = [
    `You keep the running summary of a chapter of the book "${input.bookTitle}" for its translator.`,
    `Write it in ${languageName(input.language as LanguageCode)}, at most 70 words: who is there, what has happened, the tone. Only the summary.`,
  ];
  if (input.terms.length)
    lines.push(`Render names as: ${input.terms.map((t) => `${t.source} = ${t.target}`).join('; ')}`);
  const user = `${input.previous ? `Summary so far: ${input.previous}\n\n` : ''}Next part of the chapter:\n${input.text}`;
  return [
    { role: 'system', content: lines.join('\n') },
    { role: 'user', content: user },
  ];
}

/**
 * "The chapter so far" for LLM translation: a short summary per book, chapter and target language,
 * made from the previous summary and the text since (at most 4,000 characters), one model call every
 * other page an LLM engine translates (never for pages served from the memory, nor for other
 * engines, which cannot use it).
 */
export class ChapterContext {
  private readonly repo: ChapterSummariesRepo;
  private readonly d: { translation: TranslationService; llm: () => LlmClient | undefined; logger: Logger };
  /** `llm`: the model that writes the summaries, as configured now (admins change it at run time). */
  constructor(deps: { db: Db; translation: TranslationService; llm: () => LlmClient | undefined; logger: Logger }) {
    this.d = deps;
    this.repo = new ChapterSummariesRepo(deps.db);
  }

  /** Whether the engine that will translate uses a summary (an LLM engine first in the chain). */
  private wanted(preferred: string | null | undefined): boolean {
    return !!this.d.llm() && this.d.translation.chainFor(preferred).engines[0]?.name === 'llm';
  }

  /**
   * The summary of the chapter up to the page before this one (undefined on a chapter's first page,
   * for engines that cannot use it, or when the model fails: translation goes on without it).
   */
  async summaryBefore(
    book: BookRow,
    lang: string,
    page: number,
    preferred: string | null | undefined,
    glossary: GlossaryTerm[] = [],
  ): Promise<string | undefined> {
    if (!this.wanted(preferred)) return undefined;
    const chapter = await this.repo.chapterOfPage(book.id, page);
    if (!chapter || page <= chapter.firstPage) return undefined;
    const latest = await this.repo.latestBefore(book.id, lang, chapter.idx, page);
    if (latest && latest.page >= page - SUMMARY_STALE_PAGES) return latest.summary;
    const from = latest ? latest.page + 1 : chapter.firstPage;
    try {
      const text = (await this.repo.pagesText(book.id, from, page - 1)).join('\n').slice(-SOURCE_CHARS);
      const llm = this.d.llm();
      if (!llm) return undefined;
      const answer = await llm.complete(
        summaryPrompt({
          bookTitle: book.title,
          language: lang,
          previous: latest?.summary,
          text,
          terms: relevantTerms(glossary, [text]).slice(0, TERMS_IN_PROMPT),
        }),
        { maxTokens: SUMMARY_MAX_TOKENS, temperature: 0.2 },
      );
      const summary = answer.text.replace(/\s+/g, ' ').trim();
      if (!summary) return latest?.summary;
      await this.repo.save(book.id, lang, chapter.idx, page - 1, summary);
      return summary;
    } catch (error) {
      this.d.logger.warn({ bookId: book.id, lang, page, err: error }, 'no chapter summary: translating without it');
      return latest?.summary;
    }
  }
}
