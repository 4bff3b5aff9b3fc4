import {
  findLanguage,
  type AnkiWord,
  type ReviewResult,
  type SaveWordBody,
  type VocabularyPage,
  type VocabularyQuery,
  type VocabularyWord,
} from '@yidu/shared';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { BooksService } from '../books/books.service.ts';
import { ClientWrites } from '../offline/client-writes.repo.ts';
import { exportVocabulary, type ExportFormat } from './anki-export.ts';
import { sentenceTranslation, wordInSentence } from './anki-notes.ts';
import type { PointsService } from '../points/points.service.ts';
import { pageChargeKey } from '../reader/page-charges.ts';
import { nextReview } from './review-schedule.ts';
import { VocabularyRepo, type WordRow } from './vocabulary.repo.ts';

/** The same word however it was selected: spacing and letter case do not make another entry. */
export const wordKey = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

const present = (row: WordRow): VocabularyWord => ({
  id: Number(row.id),
  text: row.text,
  lemma: row.lemma,
  meaning: row.meaning,
  pronunciation: row.pronunciation,
  partOfSpeech: row.part_of_speech,
  usage: row.usage,
  note: row.note,
  sentence: row.sentence,
  sourceLanguage: row.source_lang,
  language: row.target_lang,
  bookCode: row.book_code ?? '',
  bookTitle: row.book_title,
  chapterTitle: row.chapter_title,
  blockId: row.block_id,
  page: row.page,
  start: row.start_offset,
  end: row.end_offset,
  box: row.box,
  dueAt: row.due_at.toISOString(),
  reviews: row.reviews,
  lapses: row.lapses,
  lastReviewedAt: row.last_reviewed_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  ankiSentAt: row.anki_sent_at?.toISOString() ?? null,
});

/**
 * The vocabulary book: words saved where they stand (book, chapter, block and sentence, so the reader
 * can jump back), reviewed on the Leitner schedule of review-schedule.ts, exported for Anki. Each
 * user sees and changes only their own words.
 */
export class VocabularyService {
  private readonly repo: VocabularyRepo;
  private readonly books: BooksService;
  private readonly now: () => Date;
  private readonly writes: ClientWrites;
  private readonly points: PointsService | undefined;
  constructor(deps: { db: Db; books: BooksService; points?: PointsService; now?: () => Date }) {
    this.points = deps.points;
    this.repo = new VocabularyRepo(deps.db);
    this.writes = new ClientWrites(deps.db);
    this.books = deps.books;
    this.now = deps.now ?? (() => new Date());
  }

  async save(user: UserRow, body: z.output<typeof SaveWordBody>): Promise<VocabularyWord> {
    const view = await this.books.view(user, body.bookCode);
    const language = findLanguage(body.language)?.code;
    if (!language) throw fail('noSuchLanguage');
    const place = await this.repo.blockPlace(view.book.id, body.blockId);
    if (!place) throw fail('notFound', { blockId: body.blockId });
    const start = body.start ?? null;
    const end = body.end ?? null;
    if (start !== null && end !== null && start > end) throw fail('badRequest', { reason: 'startAfterEnd' });
    const word = {
      user_id: user.id,
      book_id: view.book.id,
      book_title: view.copy?.title ?? view.book.title,
      chapter_title: place.chapterTitle,
      text: body.text.replace(/\s+/g, ' '),
      text_key: wordKey(body.text),
      lemma: body.lemma,
      meaning: body.meaning,
      pronunciation: body.pronunciation,
      part_of_speech: body.partOfSpeech,
      usage: body.usage,
      note: body.note,
      sentence: body.sentence,
      source_lang: view.book.original_language ?? 'en',
      target_lang: language,
      block_id: body.blockId,
      page: place.page,
      start_offset: start,
      end_offset: end,
      due_at: this.now(),
    };
    if (!body.clientId) return this.get(user, Number((await this.repo.insertOnce(word)).id));
    // Sent again by an offline queue: saved once; deleted since, it stays deleted.
    const { id } = await this.writes.once(
      user.id,
      body.clientId,
      'word',
      async (db) => (await new VocabularyRepo(db).insertOnce(word)).id,
    );
    const row = await this.repo.find(user.id, id);
    if (!row) throw fail('alreadyDeleted');
    return present(row);
  }

  async get(user: UserRow, id: number): Promise<VocabularyWord> {
    const row = await this.repo.find(user.id, id);
    if (!row) throw fail('notFound');
    return present(row);
  }

  async list(user: UserRow, query: z.output<typeof VocabularyQuery>): Promise<VocabularyPage> {
    const now = this.now();
    const filter = { bookCode: query.bookCode, dueBy: query.due ? now : undefined, search: query.q || undefined };
    const [page, due, books] = await Promise.all([
      this.repo.list(user.id, filter, { limit: query.pageSize, offset: (query.page - 1) * query.pageSize }),
      this.repo.countDue(user.id, now, query.bookCode),
      this.repo.books(user.id),
    ]);
    return {
      items: page.rows.map(present),
      total: page.total,
      due,
      books: books.map((b) => ({ bookCode: b.book_code ?? '', bookTitle: b.book_title, words: b.words })),
    };
  }

  async edit(
    user: UserRow,
    id: number,
    body: { meaning?: string | undefined; pronunciation?: string | undefined; note?: string | undefined },
  ): Promise<VocabularyWord> {
    const values = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    if (Object.keys(values).length > 0 && !(await this.repo.update(user.id, id, values))) throw fail('notFound');
    return this.get(user, id);
  }

  async remove(user: UserRow, id: number): Promise<void> {
    if (!(await this.repo.remove(user.id, id))) throw fail('notFound');
  }

  /** Records a review: the word moves between Leitner boxes and gets its next due time. */
  async review(user: UserRow, id: number, result: ReviewResult): Promise<VocabularyWord> {
    const row = await this.repo.find(user.id, id);
    if (!row) throw fail('notFound');
    const next = nextReview(row, result, this.now());
    await this.repo.update(user.id, id, {
      box: next.box,
      due_at: next.dueAt,
      reviews: next.reviews,
      lapses: next.lapses,
      last_reviewed_at: next.lastReviewedAt,
    });
    return this.get(user, id);
  }

  /**
   * Words as Anki notes take them (sent by the reader's browser through AnkiConnect): with the word's
   * place in its sentence and the sentence's translation — only where the reader may read the
   * paragraph's translation (its page paid for, or free), so a card never gives a translation away.
   */
  async ankiWords(
    user: UserRow,
    query: { bookCode?: string | undefined; unsent?: boolean | undefined; limit: number },
  ): Promise<AnkiWord[]> {
    const rows = await this.repo.withParagraphs(user.id, query);
    const key = (r: (typeof rows)[number]) => pageChargeKey(r.book_id ?? 0, r.target_lang, r.page);
    const [charged, prices] = this.points
      ? await Promise.all([this.points.chargedKeys(user.id, [...new Set(rows.map(key))]), this.points.prices()])
      : [new Set<string>(), { translation: 1, translationCached: 1 }];
    const free = prices.translation === 0 && prices.translationCached === 0;
    return rows.map((r) => {
      const readable = r.translation !== null && r.paragraph !== null && (free || charged.has(key(r)));
      const place = wordInSentence(r.sentence, r.text);
      return {
        id: Number(r.id),
        text: r.text,
        meaning: r.meaning,
        pronunciation: r.pronunciation,
        sentence: r.sentence,
        wordStart: place?.start ?? null,
        wordEnd: place?.end ?? null,
        sentenceTranslation: readable
          ? sentenceTranslation(r.paragraph!, r.translation!, r.sentence || r.paragraph!, {
              source: r.source_lang,
              target: r.target_lang,
            })
          : '',
        bookTitle: r.book_title,
        ankiSentAt: r.anki_sent_at?.toISOString() ?? null,
      };
    });
  }

  /** The reader's browser sent these words to Anki: every device now knows. */
  async markSentToAnki(user: UserRow, ids: number[]): Promise<{ marked: number }> {
    return { marked: await this.repo.markSentToAnki(user.id, ids) };
  }

  /** The words (of one book, or all) as a file Anki imports. */
  async export(
    user: UserRow,
    format: ExportFormat,
    bookCode?: string,
  ): Promise<{ filename: string; contentType: string; body: string }> {
    const rows = await this.repo.all(user.id, { bookCode });
    const body = exportVocabulary(
      rows.map((r) => ({
        text: r.text,
        lemma: r.lemma,
        meaning: r.meaning,
        pronunciation: r.pronunciation,
        partOfSpeech: r.part_of_speech,
        note: r.note,
        sentence: r.sentence,
        bookTitle: r.book_title,
        chapterTitle: r.chapter_title,
      })),
      format,
    );
    const title = bookCode ? rows[0]?.book_title : undefined;
    const name = title
      ? title
          .replace(/[^\p{L}\p{N} _-]+/gu, '')
          .trim()
          .slice(0, 80)
      : '';
    return {
      filename: `${name ? `${name} - ` : ''}vocabulary.${format}`,
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'text/tab-separated-values; charset=utf-8',
      body,
    };
  }
}
