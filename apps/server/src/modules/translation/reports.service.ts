import type { AdminTranslationReportPage, LanguageCode, TranslationReport } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import { LlmTranslationEngine } from '../../engines/translation/llm.ts';
import { TranslationChain } from '../../engines/translation/resilient.ts';
import type { TranslationEngine } from '../../engines/translation/types.ts';
import type { LlmClient } from '../../engines/llm/types.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { notify } from '../../lib/notifier.ts';
import type { BooksService } from '../books/books.service.ts';
import { PAGES_TOPIC, translationTopic } from '../reader/page-translator.ts';
import type { GlossaryService } from './glossary.service.ts';
import { paragraphSource } from './glossary.service.ts';
import { ReportsRepo, type ReportRow } from './reports.repo.ts';
import { translateByLines } from '../../engines/translation/lines.ts';
import { cleanTranslation, glossaryKeyOf, sourceHash, type TranslationService } from './translation.service.ts';

const present = (row: ReportRow, blockId: string): TranslationReport => ({
  id: Number(row.id),
  blockId,
  original: { translation: row.original_translation, engine: row.original_engine, model: row.original_model },
  alternative: {
    translation: row.alternative_translation ?? '',
    engine: row.alternative_engine,
    model: row.alternative_model,
  },
  status: row.status,
});

/**
 * "This translation is wrong": a reader marks a paragraph, Yidu translates it again with another
 * engine or model (the next enabled engine, else the AI model) and shows both; the one the reader
 * keeps becomes the paragraph's translation for every reader of the book and is served first from
 * the memory wherever the same text appears. Admins see every report with its outcome.
 */
export class TranslationReports {
  private readonly repo: ReportsRepo;
  private readonly d: {
    db: Db;
    books: BooksService;
    glossary: GlossaryService;
    translation: TranslationService;
    /** The explanation model as configured now (admins change it at run time). */
    llm: () => LlmClient | undefined;
    logger: Logger;
  };
  constructor(deps: TranslationReports['d']) {
    this.d = deps;
    this.repo = new ReportsRepo(deps.db);
  }

  /** Another engine than the one that made the translation: an enabled one, else the AI model. */
  private alternativeTo(engine: string | null, model: string | null, from: string, to: string) {
    const same = (e: TranslationEngine) => e.name === engine && e.model === model;
    const enabled = this.d.translation
      .chainFor(null)
      .enginesFor({ from, to: to as LanguageCode })
      .find((e) => !same(e));
    if (enabled) return enabled;
    const llm = this.d.llm();
    if (llm && !(engine === 'llm' && model === llm.model)) return new LlmTranslationEngine({ client: llm });
    return undefined;
  }

  async report(user: UserRow, code: string, language: string, blockId: string): Promise<TranslationReport> {
    const { book } = await this.d.books.view(user, code);
    const lang = this.d.glossary.language(language);
    const paragraph = await this.repo.paragraph(book.id, lang, blockId);
    if (!paragraph || paragraph.status !== 'done' || !paragraph.translation) throw fail('notFound', { blockId });
    const from = book.original_language ?? 'auto';
    const engine = this.alternativeTo(paragraph.engine, paragraph.model, from, lang);
    if (!engine) throw fail('translationUnavailable', { reason: 'noOtherEngine' });
    const source = paragraphSource(paragraph);
    let translation: string;
    try {
      // Verse goes line by line, as everywhere (lines.ts).
      const out = await translateByLines(new TranslationChain([engine], { logger: this.d.logger }), {
        texts: [source],
        from,
        to: lang as LanguageCode,
        glossary: await this.d.glossary.entries(book.id, lang),
      });
      translation = cleanTranslation(out.texts[0] ?? '');
    } catch (error) {
      if (error instanceof EngineError)
        throw fail('translationUnavailable', { engine: error.engine, reason: error.kind });
      throw error;
    }
    if (!translation) throw fail('translationUnavailable', { reason: 'empty' });
    const row = await this.repo.insert({
      book_id: book.id,
      target_lang: lang,
      seq: paragraph.seq,
      user_id: user.id,
      original_translation: paragraph.translation,
      original_engine: paragraph.engine,
      original_model: paragraph.model,
      alternative_translation: translation,
      alternative_engine: engine.name,
      alternative_model: engine.model,
    });
    return present(row, blockId);
  }

  /** The reader who reported keeps one of the two; the alternative replaces the translation for everyone. */
  async choose(user: UserRow, id: number, choice: 'original' | 'alternative'): Promise<TranslationReport> {
    const report = await this.repo.find(id);
    if (!report || report.user_id !== user.id) throw fail('notFound');
    const book = await this.d.books.repo.findBookById(report.book_id);
    if (!book) throw fail('notFound');
    if (!(await this.repo.decide(id, choice === 'original' ? 'keptOriginal' : 'choseAlternative')))
      throw fail('notFound', { reason: 'decided' });
    const block = await this.repo.block(book.id, report.seq);
    if (choice === 'alternative' && report.alternative_translation && block) {
      const source = paragraphSource(block);
      const glossaryKey = glossaryKeyOf(source, await this.d.glossary.entries(book.id, report.target_lang));
      const chosen = {
        translation: report.alternative_translation,
        engine: report.alternative_engine ?? 'unknown',
        model: report.alternative_model ?? 'unknown',
        glossaryKey,
      };
      await this.repo.rememberChosen({
        sourceHash: sourceHash(source),
        from: book.original_language ?? 'auto',
        to: report.target_lang,
        sourceChars: source.length,
        ...chosen,
      });
      await this.repo.replaceTranslation(book.id, report.target_lang, report.seq, chosen);
      await notify(this.d.db, translationTopic(book.id, report.target_lang), { page: block.page, seqs: [report.seq] });
      await notify(this.d.db, PAGES_TOPIC, { bookId: book.id, lang: report.target_lang, page: block.page });
    }
    return present((await this.repo.find(id))!, block?.block_id ?? '');
  }

  async list(page: number, pageSize: number): Promise<AdminTranslationReportPage> {
    const { rows, total } = await this.repo.list(page, pageSize);
    return {
      items: rows.map((r) => ({
        ...present(r, r.block_id),
        bookCode: r.book_code,
        bookTitle: r.book_title,
        language: r.target_lang,
        page: r.page,
        text: r.text.slice(0, 1000),
        reporter: r.reporter,
        createdAt: r.created_at.toISOString(),
        decidedAt: r.decided_at?.toISOString() ?? null,
      })),
      total,
      page,
      pageSize,
    };
  }
}
