import { titleText } from '@yidu/shared/contents';
import type { SearchHit, SearchStats } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { BookRow } from '../../db/schema.ts';
import { rankPassages, type RankedPassage } from './search-rank.ts';
import { analyseQuery, tsQueryOf } from './search-text.ts';
import { SearchRepo } from './search.repo.ts';

/** Hits listed for the reader; the AI answer reads the best few of them. */
const MAX_HITS = 30;
/**
 * Paragraphs ranked at most. A question made only of words found everywhere in a very long book
 * would otherwise bring the whole book over; past this the first ones in book order are ranked.
 */
const MAX_CANDIDATES = 3000;

export interface PassageSearchResult {
  hits: SearchHit[];
  stats: SearchStats;
  /** The ranked passages behind the hits, best first (their full texts, for the AI's context). */
  passages: RankedPassage[];
}

/**
 * Finds the passages of a book that a question is about: PostgreSQL's full-text index picks the
 * paragraphs holding any of its words (original or translation into `language`), BM25 orders
 * them, and each hit carries its counts and the ranges to highlight.
 */
export class PassageSearch {
  private readonly repo: SearchRepo;
  constructor(db: Db) {
    this.repo = new SearchRepo(db);
  }

  async find(book: BookRow, language: string, query: string): Promise<PassageSearchResult> {
    const languages = [book.original_language ?? 'en', language];
    const analysed = analyseQuery(query, languages);
    const stats: SearchStats = {
      passages: 0,
      occurrences: 0,
      keywords: analysed.keywords.map((keyword) => ({ keyword, passages: 0, occurrences: 0 })),
      ignored: analysed.ignored,
      truncated: false,
    };
    if (analysed.terms.length === 0) return { hits: [], stats, passages: [] };

    const { total, rows } = await this.repo.candidates(book.id, language, tsQueryOf(analysed.terms), MAX_CANDIDATES);
    const ranking = rankPassages(
      rows.map((r) => ({
        seq: r.seq,
        blockId: r.block_id,
        page: r.page,
        chapterTitle: titleText(r.chapter_title, r.chapter_generated, language),
        text: r.text,
        translation: r.translation,
      })),
      analysed.terms,
      analysed.keywords,
      book.block_count,
    );
    const truncated = total > rows.length;
    return {
      hits: ranking.passages.slice(0, MAX_HITS).map((p) => ({
        blockId: p.candidate.blockId,
        page: p.candidate.page,
        chapterTitle: p.candidate.chapterTitle,
        position: p.candidate.seq,
        snippet: p.snippet,
        highlights: p.highlights.map(([start, end]) => ({ start, end })),
        occurrences: p.occurrences,
        inTranslation: p.inTranslation,
      })),
      stats: {
        ...stats,
        passages: truncated ? total : ranking.matchedPassages,
        occurrences: ranking.occurrences,
        keywords: ranking.keywords,
        truncated,
      },
      passages: ranking.passages,
    };
  }
}
