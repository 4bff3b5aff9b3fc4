import { findMatches, lengthOf, mergeRanges, type Match, type Term } from './search-text.ts';

/**
 * Ranking of the passages the index found: Okapi BM25 over the book's paragraphs, each paragraph
 * scored on its original and on its translation (BM25 per field, the better one counts), so a question finds a
 * passage through whichever text it shares words with. Also the counts and the highlighted snippet
 * of each passage.
 */

export interface Candidate {
  seq: number;
  blockId: string;
  page: number;
  chapterTitle: string;
  text: string;
  /** The translation as stored (inline HTML), when there is one. */
  translation: string | null;
}

export interface RankedPassage {
  candidate: Candidate;
  /** The translation as plain text. */
  translationText: string | null;
  score: number;
  occurrences: number;
  /** Where the snippet comes from: the text the question matched best. */
  inTranslation: boolean;
  snippet: string;
  highlights: [number, number][];
}

export interface KeywordCount {
  keyword: string;
  passages: number;
  occurrences: number;
}

export interface Ranking {
  passages: RankedPassage[];
  /** Passages with at least one match, and the matches in them (overlapping bigrams counted once). */
  matchedPassages: number;
  occurrences: number;
  keywords: KeywordCount[];
}

// The usual constants: term frequency saturates around k1, length normalisation at strength b.
const K1 = 1.2;
const B = 0.75;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ', amp: '&' };

/** A translation's text as a reader sees it (the tags are inline formatting). */
export function plainOfHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|quot|#39|apos|nbsp|amp);/g, (_, name: string) => ENTITIES[name]!);
}

interface Field {
  text: string;
  length: number;
  matches: Match[];
}

function fieldOf(text: string, terms: Term[]): Field {
  return { text, length: lengthOf(text), matches: findMatches(text, terms) };
}

const termFrequencies = (field: Field, termCount: number) => {
  const tf = new Array<number>(termCount).fill(0);
  for (const m of field.matches) tf[m.term]! += m.weight;
  return tf;
};

/**
 * Ranks the candidates by BM25. `blockCount` is the number of paragraphs in the book (N of the
 * inverse document frequency); document frequencies are counted over the candidates, which hold
 * every paragraph that matches any term.
 */
export function rankPassages(candidates: Candidate[], terms: Term[], keywords: string[], blockCount: number): Ranking {
  const scored = candidates
    .map((candidate) => {
      const translationText = candidate.translation === null ? null : plainOfHtml(candidate.translation);
      return {
        candidate,
        translationText,
        original: fieldOf(candidate.text, terms),
        translated: translationText === null ? null : fieldOf(translationText, terms),
      };
    })
    .filter((s) => s.original.matches.length > 0 || (s.translated?.matches.length ?? 0) > 0);

  const documentFrequency = new Array<number>(terms.length).fill(0);
  for (const s of scored) {
    const seen = new Set([...s.original.matches, ...(s.translated?.matches ?? [])].map((m) => m.term));
    for (const t of seen) documentFrequency[t]!++;
  }
  const n = Math.max(blockCount, scored.length);
  const idf = documentFrequency.map((df) => Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  const average = (fields: Field[]) => Math.max(1, fields.reduce((sum, f) => sum + f.length, 0) / (fields.length || 1));
  const averageOriginal = average(scored.map((s) => s.original));
  const averageTranslated = average(scored.flatMap((s) => (s.translated ? [s.translated] : [])));
  const bm25 = (field: Field, averageLength: number) =>
    termFrequencies(field, terms.length).reduce(
      (sum, tf, t) =>
        sum + (tf === 0 ? 0 : (idf[t]! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * field.length) / averageLength))),
      0,
    );

  const keywordCounts = keywords.map((keyword) => ({ keyword, passages: 0, occurrences: 0 }));
  let occurrences = 0;
  const passages = scored.map((s): RankedPassage => {
    const fields = s.translated ? [s.original, s.translated] : [s.original];
    let passageOccurrences = 0;
    for (const field of fields) passageOccurrences += mergeRanges(field.matches).length;
    keywordCounts.forEach((count, k) => {
      let found = 0;
      for (const field of fields)
        found += mergeRanges(field.matches.filter((m) => terms[m.term]!.keyword === k)).length;
      if (found > 0) count.passages++;
      count.occurrences += found;
    });
    occurrences += passageOccurrences;
    const distinct = (field: Field) => new Set(field.matches.map((m) => m.term)).size;
    const inTranslation = s.translated !== null && distinct(s.translated) > distinct(s.original);
    const shown = inTranslation ? s.translated! : s.original;
    return {
      candidate: s.candidate,
      translationText: s.translationText,
      // The better of the two texts: a name kept in the translation is the same evidence twice, and
      // passages already translated must not outrank those that are not for it.
      score: Math.max(bm25(s.original, averageOriginal), s.translated ? bm25(s.translated, averageTranslated) : 0),
      occurrences: passageOccurrences,
      inTranslation,
      ...snippetOf(shown.text, shown.matches, idf),
    };
  });
  passages.sort((a, b) => b.score - a.score || a.candidate.seq - b.candidate.seq);
  return { passages, matchedPassages: passages.length, occurrences, keywords: keywordCounts };
}

const ELLIPSIS = '…';

/**
 * The part of a passage around its best matches (the whole passage when it is short), with the
 * matched ranges in the snippet's own offsets. The window shows the most telling words first (the
 * rarest terms, each counted once), then the most matches. A cut never splits a match or, in spaced
 * scripts, a word.
 */
export function snippetOf(
  text: string,
  matches: Match[],
  termValue: number[],
): { snippet: string; highlights: [number, number][] } {
  const ranges = mergeRanges(matches);
  const cjkShare = (text.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g)?.length ?? 0) / Math.max(1, text.length);
  const width = cjkShare > 0.3 ? 110 : 220;
  if (text.length <= width * 1.2) return { snippet: text, highlights: ranges };
  const lead = Math.round(width * 0.3);
  let bestStart = 0;
  let bestValue = -1;
  for (const match of matches) {
    const from = Math.max(0, match.start - lead);
    const inside = matches.filter((m) => m.start >= from && m.end <= from + width);
    const terms = new Set(inside.map((m) => m.term));
    const value = [...terms].reduce((sum, t) => sum + (termValue[t] ?? 1), 0) + inside.length * 0.01;
    if (value > bestValue) [bestStart, bestValue] = [from, value];
  }
  let start = bestStart;
  let end = Math.min(text.length, start + width);
  // Whole words at both ends (spaced scripts), and never half a match.
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    if (space >= 0 && start - space < 20) start = space + 1;
  }
  if (end < text.length) {
    const space = text.indexOf(' ', end);
    if (space >= 0 && space - end < 20) end = space;
  }
  for (const [s, e] of ranges) {
    if (s < start && e > start) start = s;
    if (s < end && e > end) end = e;
  }
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  const before = start > 0 ? ELLIPSIS : '';
  const snippet = before + text.slice(start, end) + (end < text.length ? ELLIPSIS : '');
  const highlights = ranges
    .filter(([s, e]) => s >= start && e <= end)
    .map(([s, e]): [number, number] => [s - start + before.length, e - start + before.length]);
  return { snippet, highlights };
}
