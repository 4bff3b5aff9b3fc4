import { CJK_STOP_WORDS, KOREAN_ENDINGS, KOREAN_STOP_WORDS, STOP_WORDS } from './stop-words.ts';

/**
 * How search reads text: the words of a question, and where they occur in a passage. It mirrors
 * what PostgreSQL indexes (migration 0014, `yidu_search_vector`): words folded to lower case without
 * accents, and each Chinese, Japanese or Korean character a word of its own. The database finds the
 * candidate passages; this module decides exactly what matched, for ranking, counts and highlights.
 */

/** The characters indexed one by one: kana, Han (with its extensions) and Hangul syllables. */
const CJK_CLASS =
  '\\u3040-\\u30ff\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\u{20000}-\\u{3134f}';
const TOKEN = new RegExp(`([${CJK_CLASS}])|((?:(?![${CJK_CLASS}])[\\p{L}\\p{M}\\p{N}])+)`, 'gu');
const HANGUL = /^[\uac00-\ud7af]/;

export interface Token {
  start: number;
  end: number;
  /** As written (one character for CJK). */
  text: string;
  /** Folded: lower case, accents off (CJK characters as written). */
  norm: string;
  cjk: boolean;
}

const SPECIAL_FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ı: 'i', þ: 'th' };

/** Lower case without accents, as PostgreSQL's `unaccent` and `simple` dictionaries make a word. */
export function fold(word: string): string {
  if (!/[^\p{ASCII}]/u.test(word)) return word.toLowerCase();
  return word
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .replace(/[ßæœøłđıþ]/g, (c) => SPECIAL_FOLDS[c]!);
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const cjk = m[1] !== undefined;
    tokens.push({ start: m.index, end: m.index + m[0].length, text: m[0], norm: cjk ? m[0] : fold(m[0]), cjk });
  }
  return tokens;
}

/** Inflections cut off a Latin-script word before it is matched as a prefix (whales → whal*). */
const SUFFIXES = ['ingly', 'edly', 'ing', 'ed', 'es', 'ly', 's', 'e'];
const MIN_PREFIX = 4;

/** A cheap stem for Latin-script words, as a prefix shared by a word's forms; other words are kept. */
export function lightStem(word: string): string {
  if (!/^[a-z]+$/.test(word) || word.length <= MIN_PREFIX) return word;
  for (const suffix of SUFFIXES) {
    if (!word.endsWith(suffix)) continue;
    if (suffix === 's' && /(ss|us|is)$/.test(word)) continue;
    const stem = word.slice(0, -suffix.length);
    if (stem.length >= MIN_PREFIX - 1) return stem;
  }
  return word;
}

/** One thing looked for: a whole word (or a word beginning with its stem), or one or two CJK characters. */
export type Term =
  | { kind: 'word'; word: string; stem: string; prefix: boolean; keyword: number }
  | { kind: 'cjk'; chars: string; keyword: number };

export interface AnalysedQuery {
  /** The words the question is about, as typed (a CJK keyword is looked for by its bigrams). */
  keywords: string[];
  terms: Term[];
  /** Words left out as too common to tell passages apart ("who", "is", "是谁"). */
  ignored: string[];
}

const MAX_KEYWORDS = 8;
const MAX_TERMS = 16;

function stopWordsOf(languages: Iterable<string>): Set<string> {
  const found = new Set<string>();
  for (const code of languages) {
    for (const word of (STOP_WORDS[code.split('-')[0]!] ?? '').split(/\s+/)) if (word) found.add(fold(word));
  }
  return found;
}

/** Cuts a run of Chinese or Japanese characters at its function and question words. */
function cutCjkRun(run: string, ignored: string[]): string[] {
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < run.length;) {
    const stop = CJK_STOP_WORDS.find((word) => run.startsWith(word, i));
    if (stop) {
      if (current) segments.push(current);
      current = '';
      ignored.push(stop);
      i += stop.length;
    } else {
      const char = String.fromCodePoint(run.codePointAt(i)!);
      current += char;
      i += char.length;
    }
  }
  if (current) segments.push(current);
  return segments;
}

/** A Korean word without the particle or ending stuck to it (퀴퀘그는 → 퀴퀘그). */
function koreanStem(word: string): string {
  const ending = KOREAN_ENDINGS.find((e) => word.endsWith(e) && [...word].length - [...e].length >= 2);
  return ending ? word.slice(0, -ending.length) : word;
}

/**
 * The keywords and terms of a question. Stop words of the given languages (the book's, the
 * reader's) are left out, unless nothing else is left: "to be or not to be" is still searched.
 */
export function analyseQuery(query: string, languages: Iterable<string>): AnalysedQuery {
  const stop = stopWordsOf(languages);
  const ignored: string[] = [];
  const units: { text: string; cjk: boolean }[] = [];
  const tokens = tokenize(query);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.cjk) {
      units.push({ text: token.norm, cjk: false });
      continue;
    }
    let run = token.text;
    while (tokens[i + 1]?.cjk && tokens[i + 1]!.start === tokens[i]!.end) run += tokens[++i]!.text;
    units.push({ text: run, cjk: true });
  }

  const keywords: string[] = [];
  for (const unit of units) {
    if (!unit.cjk) {
      if (stop.has(unit.text)) ignored.push(unit.text);
      else keywords.push(unit.text);
    } else if (HANGUL.test(unit.text)) {
      const word = koreanStem(unit.text);
      if (KOREAN_STOP_WORDS.has(word)) ignored.push(unit.text);
      else keywords.push(word);
    } else {
      keywords.push(...cutCjkRun(unit.text, ignored));
    }
  }
  // Only common words: search them all.
  const chosen = keywords.length > 0 ? keywords : units.map((u) => u.text);
  const unique = [...new Set(chosen)].slice(0, MAX_KEYWORDS);

  const terms: Term[] = [];
  const seen = new Set<string>();
  unique.forEach((keyword, index) => {
    const chars = [...keyword];
    const isCjk = new RegExp(`^[${CJK_CLASS}]`, 'u').test(keyword);
    const parts = !isCjk ? [keyword] : chars.length === 1 ? chars : chars.slice(1).map((c, i) => chars[i] + c);
    for (const part of parts) {
      if (seen.has(part)) continue;
      seen.add(part);
      if (!isCjk) {
        const stem = lightStem(part);
        terms.push({ kind: 'word', word: part, stem, prefix: stem.length >= MIN_PREFIX, keyword: index });
      } else terms.push({ kind: 'cjk', chars: part, keyword: index });
    }
  });
  return {
    keywords: unique,
    terms: terms.slice(0, MAX_TERMS),
    ignored: keywords.length > 0 ? [...new Set(ignored)] : [],
  };
}

const quote = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The query for PostgreSQL's index (any term matches); its lexemes are folded again by `yidu_search`.
 * A CJK pair asks for both characters, not for them side by side ('诸' & '葛', not '诸' <-> '葛'):
 * the index answers that alone, where a phrase would make PostgreSQL index every candidate row again
 * to check positions (170 µs a row, measured); findMatches keeps only the true pairs.
 */
export function tsQueryOf(terms: Term[]): string {
  return terms
    .map((term) => {
      if (term.kind === 'cjk') return [...term.chars].map(quote).join(' & ');
      if (term.prefix) return `${quote(term.stem)}:*`;
      return term.stem === term.word ? quote(term.word) : `${quote(term.word)} | ${quote(term.stem)}`;
    })
    .map((part) => `(${part})`)
    .join(' | ');
}

export interface Match {
  start: number;
  end: number;
  term: number;
  /** 1 for the word itself, less for another form of it (whales for whale) or a longer word (whaleboat). */
  weight: number;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const HAS_CJK = new RegExp(`[${CJK_CLASS}]`, 'u');

/** How well a word of the text matches a word term: 0 when it does not. */
function wordWeight(norm: string, term: Extract<Term, { kind: 'word' }>): number {
  if (norm === term.word) return 1;
  if (!norm.startsWith(term.stem)) return 0;
  if (norm === term.stem || lightStem(norm) === term.stem) return 0.8;
  return term.prefix ? 0.5 : 0;
}

/** Every place in the text where a term matches, in order. */
export function findMatches(text: string, terms: Term[]): Match[] {
  const matches: Match[] = [];
  const wordTerms = terms.flatMap((term, t) => (term.kind === 'word' ? [{ term, t }] : []));
  if (wordTerms.length > 0) {
    for (const m of text.matchAll(WORD)) {
      // A run of letters mixing CJK and other scripts (rare) is cut as the index cuts it.
      const words = HAS_CJK.test(m[0])
        ? tokenize(m[0])
            .filter((token) => !token.cjk)
            .map((token) => ({ ...token, start: token.start + m.index }))
        : [{ start: m.index, end: m.index + m[0].length, norm: fold(m[0]) }];
      for (const word of words) {
        for (const { term, t } of wordTerms) {
          const weight = wordWeight(word.norm, term);
          if (weight > 0) matches.push({ start: word.start, end: word.end, term: t, weight });
        }
      }
    }
  }
  // CJK terms are the characters side by side, as written.
  terms.forEach((term, t) => {
    if (term.kind !== 'cjk') return;
    for (let at = text.indexOf(term.chars); at >= 0; at = text.indexOf(term.chars, at + 1)) {
      matches.push({ start: at, end: at + term.chars.length, term: t, weight: 1 });
    }
  });
  return matches.sort((a, b) => a.start - b.start || a.term - b.term);
}

/** Overlapping matches as single ranges (贾宝 + 宝玉 → 贾宝玉); words side by side stay apart. */
export function mergeRanges(matches: { start: number; end: number }[]): [number, number][] {
  const sorted = [...matches].sort((a, b) => a.start - b.start || a.end - b.end);
  const ranges: [number, number][] = [];
  for (const m of sorted) {
    const last = ranges.at(-1);
    if (last && m.start < last[1]) last[1] = Math.max(last[1], m.end);
    else ranges.push([m.start, m.end]);
  }
  return ranges;
}

const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'gu');

/** Words of a text as search counts them (about: a CJK character is one), for the length of a passage. */
export const lengthOf = (text: string) => (text.match(WORD)?.length ?? 0) + (text.match(CJK_CHAR)?.length ?? 0);
