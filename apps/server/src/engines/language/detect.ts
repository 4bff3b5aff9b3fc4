/**
 * Detects the language a book is written in: one of the 26 reading-language codes (packages/shared
 * languages.ts) when it is one of them, else its ISO 639-1 code ('he', 'el', 'la'...), or 'und' when
 * the text is too short or too odd to tell.
 *
 * - Text is sampled in windows spread over the whole body, so a Gutenberg licence or an English
 *   front matter does not decide the language of a Chinese book.
 * - Only words count: runs of letters between spaces and punctuation. Numbers, identifiers and paths
 *   (`mssetup.dl_`, `C:\Temp\x.txt`, `Rich_text`) and symbols say nothing about the language, and
 *   some mislead the n-gram model (a single `|`, read as a Devanagari danda, made it answer Hindi).
 *   Text is NFKC-normalised first: Arabic presentation forms and full-width Latin become letters.
 * - The script with the bulk of the letters decides first: a Russian text quoting English, an English
 *   sampler with one line in each of many scripts, English fables with Japanese passages. Han and kana
 *   carry more per character than alphabets do (one Chinese character is about three English letters
 *   of the same text), so CJK characters weigh more.
 * - Within the script: Han/kana/Hangul by their proportions (kana → jp, Hangul → ko, else Chinese,
 *   Simplified or Traditional by which way opencc-js changes more characters); scripts used by one
 *   language map to it (Greek → el, Hebrew → he...); Arabic script and Devanagari by the letters and
 *   function words that tell their languages apart; Latin and Cyrillic by tinyld, restricted to the
 *   languages of the script and run on short chunks (a line or a few sentences) that vote by their
 *   letters. tinyld answers with certainty as soon as one n-gram it knows from a single language
 *   appears, so a long text given to it in one piece is decided by one odd word.
 * - Words that mix Cyrillic and Latin letters are Russian typed with Latin look-alikes ('Пёpлы').
 */
import { LANGUAGE_CODES } from '@yidu/shared';
import type { LanguageCode } from '@yidu/shared';
import * as OpenCC from 'opencc-js';
import { detectAll } from 'tinyld';

export interface LanguageDetection {
  /** The reading language to use: the detected one when it is among the 26, else the fallback. */
  code: LanguageCode;
  /**
   * What the text is written in, as an ISO 639-1 code (ours for the 26: 'jp', 'zh-TW'), whether or
   * not it is a reading language ('he', 'la'...); 'und' when nothing could be told.
   */
  detected: string;
  /** 0..1: the share of the text's letters that speak for the winner. */
  confidence: number;
  /** False when the result is the fallback or the evidence is thin. */
  reliable: boolean;
  /** Per-language shares of the letters (0..1), best first; for logs and debugging. */
  scores: { code: string; score: number }[];
}

export const FALLBACK_LANGUAGE: LanguageCode = 'en';

const SUPPORTED = new Set<string>(LANGUAGE_CODES);

type Script =
  | 'latin'
  | 'cyrillic'
  | 'greek'
  | 'armenian'
  | 'hebrew'
  | 'arabic'
  | 'devanagari'
  | 'bengali'
  | 'gurmukhi'
  | 'gujarati'
  | 'oriya'
  | 'tamil'
  | 'telugu'
  | 'kannada'
  | 'malayalam'
  | 'sinhala'
  | 'thai'
  | 'lao'
  | 'tibetan'
  | 'myanmar'
  | 'georgian'
  | 'ethiopic'
  | 'khmer'
  | 'han'
  | 'kana'
  | 'hangul';

/** Code point ranges of the scripts, sorted by start. */
const SCRIPT_RANGES: [number, number, Script][] = [
  [0x41, 0x5a, 'latin'],
  [0x61, 0x7a, 'latin'],
  [0xc0, 0x2af, 'latin'],
  [0x370, 0x3ff, 'greek'],
  [0x400, 0x52f, 'cyrillic'],
  [0x530, 0x58f, 'armenian'],
  [0x590, 0x5ff, 'hebrew'],
  [0x600, 0x6ff, 'arabic'],
  [0x750, 0x77f, 'arabic'],
  [0x8a0, 0x8ff, 'arabic'],
  [0x900, 0x97f, 'devanagari'],
  [0x980, 0x9ff, 'bengali'],
  [0xa00, 0xa7f, 'gurmukhi'],
  [0xa80, 0xaff, 'gujarati'],
  [0xb00, 0xb7f, 'oriya'],
  [0xb80, 0xbff, 'tamil'],
  [0xc00, 0xc7f, 'telugu'],
  [0xc80, 0xcff, 'kannada'],
  [0xd00, 0xd7f, 'malayalam'],
  [0xd80, 0xdff, 'sinhala'],
  [0xe00, 0xe7f, 'thai'],
  [0xe80, 0xeff, 'lao'],
  [0xf00, 0xfff, 'tibetan'],
  [0x1000, 0x109f, 'myanmar'],
  [0x10a0, 0x10ff, 'georgian'],
  [0x1100, 0x11ff, 'hangul'],
  [0x1200, 0x139f, 'ethiopic'],
  [0x1780, 0x17ff, 'khmer'],
  [0x1c80, 0x1c8f, 'cyrillic'],
  [0x1e00, 0x1eff, 'latin'],
  [0x1f00, 0x1fff, 'greek'],
  [0x2c60, 0x2c7f, 'latin'],
  [0x2de0, 0x2dff, 'cyrillic'],
  [0x3005, 0x3007, 'han'],
  [0x3040, 0x30ff, 'kana'],
  [0x3130, 0x318f, 'hangul'],
  [0x31f0, 0x31ff, 'kana'],
  [0x3400, 0x4dbf, 'han'],
  [0x4e00, 0x9fff, 'han'],
  [0xa640, 0xa69f, 'cyrillic'],
  [0xa720, 0xa7ff, 'latin'],
  [0xac00, 0xd7af, 'hangul'],
  [0xf900, 0xfaff, 'han'],
  [0xfb1d, 0xfb4f, 'hebrew'],
  [0xfb50, 0xfdff, 'arabic'],
  [0xfe70, 0xfeff, 'arabic'],
  [0x20000, 0x3134f, 'han'],
];

function scriptOf(codePoint: number): Script | undefined {
  let lo = 0;
  let hi = SCRIPT_RANGES.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [start, end, script] = SCRIPT_RANGES[mid]!;
    if (codePoint < start) hi = mid - 1;
    else if (codePoint > end) lo = mid + 1;
    else return script;
  }
  return undefined;
}

/** Scripts written by one language (for our purposes). */
const SCRIPT_LANGUAGE: Partial<Record<Script, string>> = {
  greek: 'el',
  armenian: 'hy',
  hebrew: 'he',
  bengali: 'bn',
  gurmukhi: 'pa',
  gujarati: 'gu',
  oriya: 'or',
  tamil: 'ta',
  telugu: 'te',
  kannada: 'kn',
  malayalam: 'ml',
  sinhala: 'si',
  thai: 'th',
  lao: 'lo',
  tibetan: 'bo',
  myanmar: 'my',
  georgian: 'ka',
  ethiopic: 'am',
  khmer: 'km',
};

/**
 * What one letter of a script is worth against one Latin letter: the same text takes about a third
 * as many characters in Chinese, and about half as many in Japanese kana or Korean syllables.
 */
const SCRIPT_WEIGHT: Partial<Record<Script, number>> = { han: 3, kana: 2, hangul: 2.5 };

/** The languages tinyld may answer for text in these scripts (its noise — Klingon, Volapük — left out). */
const TINYLD_CANDIDATES: Partial<Record<Script, string[]>> = {
  latin: [
    'en',
    'fr',
    'de',
    'es',
    'pt',
    'it',
    'nl',
    'da',
    'sv',
    'no',
    'is',
    'fi',
    'et',
    'lv',
    'lt',
    'pl',
    'cs',
    'sk',
    'hu',
    'ro',
    'tr',
    'ga',
    'la',
    'af',
    'id',
    'tl',
    'vi',
    'eo',
  ],
  cyrillic: ['ru', 'uk', 'be', 'bg', 'sr', 'mk', 'kk', 'mn', 'tt'],
};

/**
 * Function words of languages tinyld does not know (Swahili and Javanese are reading languages), and
 * of the languages written in Devanagari, which tinyld takes all for Hindi.
 */
const FUNCTION_WORDS: Record<string, Set<string>> = {
  sw: new Set(
    'na ya wa kwa katika ni za la cha kuwa hii huo hiyo yake wake lakini pia sana kama baada kabla watu mtu hakuna kwamba wakati'.split(
      ' ',
    ),
  ),
  jv: new Set(
    'lan ing kang iku karo ora sing menyang uga kanggo saka wis bisa ana dadi arep marang iki kuwi banjur amarga nanging'.split(
      ' ',
    ),
  ),
  hi: new Set('है हैं और के का की में से को यह था थी थे पर लिए भी नहीं एक'.split(' ')),
  mr: new Set('आहे आहेत आणि व या हे ही ते होते नाही मध्ये करून त्या म्हणून पण'.split(' ')),
  ne: new Set('छ छन् हो र मा गर्न भएको पनि थियो गरेको हुन्छ यो'.split(' ')),
};

/** Latin letters that look like Cyrillic ones, for words typed with both. */
const LOOKALIKE_TO_CYRILLIC: Record<string, string> = {
  a: 'а',
  c: 'с',
  e: 'е',
  o: 'о',
  p: 'р',
  x: 'х',
  y: 'у',
  k: 'к',
  m: 'м',
  t: 'т',
  b: 'в',
  h: 'н',
  i: 'і',
  A: 'А',
  B: 'В',
  C: 'С',
  E: 'Е',
  H: 'Н',
  K: 'К',
  M: 'М',
  O: 'О',
  P: 'Р',
  T: 'Т',
  X: 'Х',
  Y: 'У',
  I: 'І',
};

/** A chunk given to tinyld ends at the first line or sentence end after this many letters. */
const CHUNK_LETTERS = 60;
/** Fewer letters than this (Latin-letter equivalents) cannot be told apart: 'und'. */
const MIN_LETTERS = 20;
/** Nor fewer words than this in a script written with spaces ('Reduced test-case'). */
const MIN_WORDS = 4;

let toSimplified: ((text: string) => string) | undefined;
let toTraditional: ((text: string) => string) | undefined;

/**
 * Takes `windows` slices of about `size` characters spread evenly over the text (skipping the first
 * few percent, where licences and title pages live, when the text is long enough). Line breaks are
 * kept: a line is the natural chunk of a list, a table or a sampler.
 */
export function sampleText(text: string, windows = 16, size = 800): string[] {
  const clean = tidy(text);
  if (clean.length <= windows * size) return clean ? [clean] : [];
  const start = clean.length > windows * size * 4 ? Math.floor(clean.length * 0.05) : 0;
  const span = clean.length - start - size;
  const out: string[] = [];
  for (let i = 0; i < windows; i++) {
    const at = start + Math.floor((span * i) / Math.max(1, windows - 1));
    out.push(clean.slice(at, at + size));
  }
  return out;
}

/** Runs of spaces become one space and blank lines one line break. */
function tidy(text: string): string {
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

interface Word {
  text: string;
  script: Script;
  letters: number;
}

/** Whitespace-separated tokens, with what wraps words (quotes, brackets, punctuation) trimmed. */
const TOKEN = /\S+/g;
const WRAPPING = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
/** A word: letters (with their marks), apostrophes and hyphens inside. */
const WORD_SHAPE = /^\p{L}[\p{L}\p{M}]*(?:['’-][\p{L}\p{M}]+)*$/u;
/** camelCase and PascalCase names are code ('WndTitle', 'ViewerText'), not words of a language. */
const IDENTIFIER = /\p{Ll}\p{Lu}/u;
/** Scripts written without spaces: their runs hold many words, and any punctuation splits them. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}]/u;

/** The words of a piece of text, each with its script; chunks end at lines and sentences. */
function wordsOf(text: string): { words: Word[]; chunkEnds: Set<number> } {
  const words: Word[] = [];
  const chunkEnds = new Set<number>();
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    // snake_case names are words all the same ('plain_text_with_newlines').
    const pieces = UNSPACED.test(token)
      ? token.split(/[^\p{L}\p{M}]+/u)
      : token.replace(WRAPPING, '').split(/_+(?=\p{L})/u);
    for (const piece of pieces) {
      if (!piece || !WORD_SHAPE.test(piece) || IDENTIFIER.test(piece)) continue;
      const word = classify(piece);
      // A lone letter ('T' of '/T', 'a') says nothing, except in the scripts without spaces.
      if (word && (word.text.length > 1 || UNSPACED.test(word.text) || word.letters > 1)) words.push(word);
    }
    const next = text[match.index + token.length];
    if (next === '\n' || /[.!?。！？;:]$/.test(token)) chunkEnds.add(words.length);
  }
  return { words, chunkEnds };
}

function classify(piece: string): Word | undefined {
  const counts = new Map<Script, number>();
  for (const ch of piece) {
    const script = scriptOf(ch.codePointAt(0)!);
    if (script) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  if (counts.size === 0) return undefined;
  if (counts.has('cyrillic') && counts.has('latin')) {
    // Russian typed with Latin look-alikes: read as the Cyrillic it shows.
    const text = [...piece].map((ch) => LOOKALIKE_TO_CYRILLIC[ch] ?? ch).join('');
    return { text, script: 'cyrillic', letters: counts.get('cyrillic')! + counts.get('latin')! };
  }
  let script: Script = 'latin';
  let best = -1;
  for (const [s, n] of counts)
    if (n > best) {
      script = s;
      best = n;
    }
  let letters = 0;
  for (const [s, n] of counts) letters += n * (SCRIPT_WEIGHT[s] ?? 1);
  return { text: piece, script, letters };
}

/** Han, kana and Hangul decide together: Japanese is written with Han and kana. */
type ScriptGroup = Exclude<Script, 'han' | 'kana' | 'hangul'> | 'cjk';
const groupOf = (script: Script): ScriptGroup =>
  script === 'han' || script === 'kana' || script === 'hangul' ? 'cjk' : script;

function chineseVariant(han: string): { code: 'zh' | 'zh-TW'; confidence: number } {
  const simplify = (toSimplified ??= OpenCC.Converter({ from: 'tw', to: 'cn' }));
  const traditionalize = (toTraditional ??= OpenCC.Converter({ from: 'cn', to: 'tw' }));
  const sample = han.slice(0, 20000);
  const diff = (a: string, b: string) => {
    let n = 0;
    for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) n++;
    return n;
  };
  const traditionalChars = diff(sample, simplify(sample));
  const simplifiedChars = diff(sample, traditionalize(sample));
  const total = traditionalChars + simplifiedChars;
  if (traditionalChars > simplifiedChars * 1.5 && traditionalChars >= 3) {
    return { code: 'zh-TW', confidence: total ? traditionalChars / total : 0.5 };
  }
  return { code: 'zh', confidence: total ? Math.max(0.5, simplifiedChars / total) : 0.5 };
}

/** Han, kana, Hangul: shares of each language within the group. */
function cjkLanguages(words: Word[]): Map<string, number> {
  let han = '';
  let kana = 0;
  let hangul = 0;
  for (const w of words)
    for (const ch of w.text) {
      const script = scriptOf(ch.codePointAt(0)!);
      if (script === 'han') han += ch;
      else if (script === 'kana') kana++;
      else if (script === 'hangul') hangul++;
    }
  const total = han.length + kana + hangul;
  if (kana >= (han.length + kana) * 0.08 && kana >= 2) return new Map([['jp', 1]]);
  if (hangul >= total * 0.3) return new Map([['ko', 1]]);
  const variant = chineseVariant(han);
  return new Map([[variant.code, 1]]);
}

function arabicScriptLanguage(words: Word[]): string {
  let letters = 0;
  let urdu = 0;
  let persian = 0;
  let arabic = 0;
  for (const w of words)
    for (const ch of w.text) {
      letters++;
      if ('ٹڈڑںےھۓ'.includes(ch)) urdu++;
      else if ('پچژگیک'.includes(ch)) persian++;
      else if ('ةيىك'.includes(ch)) arabic++;
    }
  if (urdu >= letters * 0.01) return 'ur';
  return persian > arabic ? 'fa' : 'ar';
}

/** Counts the function words of each listed language among the words. */
function functionWordShares(words: Word[], languages: string[]): Map<string, number> {
  const shares = new Map<string, number>();
  for (const language of languages) {
    const list = FUNCTION_WORDS[language]!;
    let hits = 0;
    for (const w of words) if (list.has(w.text.toLowerCase())) hits++;
    shares.set(language, words.length ? hits / words.length : 0);
  }
  return shares;
}

/**
 * Latin or Cyrillic: tinyld on chunks of a few lines or sentences, each voting with its letters. A
 * chunk that tinyld is certain about because of one n-gram it knows from a single language ('ð' →
 * Icelandic, a Vietnamese tone letter) is split at the line or sentence nearest its middle and each
 * half votes on its own, so that one foreign line does not carry the English lines around it.
 */
function chunkVotes(words: Word[], ends: boolean[], candidates: string[]): Map<string, number> {
  const votes = new Map<string, number>();
  const vote = (from: number, to: number) => {
    const chunk = words.slice(from, to);
    const letters = chunk.reduce((n, w) => n + w.letters, 0);
    if (letters < 2) return;
    const [marked, share] = [...functionWordShares(chunk, ['sw', 'jv'])].sort((a, b) => b[1] - a[1])[0]!;
    let language: string | undefined;
    if (chunk.length >= 5 && share >= 0.15) language = marked;
    else {
      const [top] = detectAll(chunk.map((w) => w.text).join(' '), { only: candidates });
      if (top?.accuracy === 1) {
        let split = -1;
        for (let i = from; i < to - 1; i++)
          if (ends[i] && Math.abs(i + 1 - (from + to) / 2) < Math.abs(split - (from + to) / 2)) split = i + 1;
        if (split > from) {
          vote(from, split);
          vote(split, to);
          return;
        }
      }
      language = top?.lang;
    }
    if (language) votes.set(language, (votes.get(language) ?? 0) + letters);
  };
  let from = 0;
  let letters = 0;
  words.forEach((word, i) => {
    letters += word.letters;
    if ((ends[i] && letters >= CHUNK_LETTERS) || letters >= CHUNK_LETTERS * 4) {
      vote(from, i + 1);
      from = i + 1;
      letters = 0;
    }
  });
  if (from < words.length) vote(from, words.length);
  return votes;
}

function devanagariLanguage(words: Word[]): string {
  const shares = functionWordShares(words, ['hi', 'mr', 'ne']);
  const [best, share] = [...shares].sort((a, b) => b[1] - a[1])[0]!;
  return share > 0 ? best : 'hi';
}

function undetermined(scores: LanguageDetection['scores'] = []): LanguageDetection {
  return { code: FALLBACK_LANGUAGE, detected: 'und', confidence: 0, reliable: false, scores };
}

/** Detects the language of a text, or of samples taken from a text. Null-safe. */
export function detectLanguage(input: string | readonly string[] | null | undefined): LanguageDetection {
  if (input === null || input === undefined) return undetermined();
  const samples = typeof input === 'string' ? sampleText(input) : input.map((s) => tidy(s ?? '')).filter(Boolean);
  if (samples.length === 0) return undetermined();

  // 1. Words by script group, with where a chunk may end.
  const groups = new Map<ScriptGroup, { words: Word[]; ends: boolean[]; letters: number }>();
  for (const sample of samples) {
    const { words, chunkEnds } = wordsOf(sample.normalize('NFKC'));
    words.forEach((word, i) => {
      const key = groupOf(word.script);
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { words: [], ends: [], letters: 0 }));
      group.words.push(word);
      group.ends.push(chunkEnds.has(i + 1) || i === words.length - 1);
      group.letters += word.letters;
    });
  }
  const total = [...groups.values()].reduce((n, g) => n + g.letters, 0);
  const ranked = [...groups.entries()].sort((a, b) => b[1].letters - a[1].letters);
  const top = ranked[0];
  if (!top) return undetermined();
  const [script, group] = top;
  const spaced = script !== 'cjk' && !UNSPACED.test(group.words[0]!.text);
  if (group.letters < MIN_LETTERS || (spaced && group.words.length < MIN_WORDS)) return undetermined();

  // 2. The language within the script that has the bulk of the letters.
  let shares: Map<string, number>;
  if (script === 'cjk') shares = cjkLanguages(group.words);
  else if (SCRIPT_LANGUAGE[script]) shares = new Map([[SCRIPT_LANGUAGE[script], 1]]);
  else if (script === 'arabic') shares = new Map([[arabicScriptLanguage(group.words), 1]]);
  else if (script === 'devanagari') shares = new Map([[devanagariLanguage(group.words), 1]]);
  else {
    const votes = chunkVotes(group.words, group.ends, TINYLD_CANDIDATES[script] ?? []);
    const voted = [...votes.values()].reduce((a, b) => a + b, 0);
    shares = new Map([...votes].map(([code, n]) => [code, n / voted]));
    // Latin text in which no language has half the letters is not prose in one language: labels,
    // names and one-line samples of many languages (a Unicode sampler), which are English far more
    // often than not. tinyld has little to go on in such text and spreads its answers.
    const lead = Math.max(0, ...shares.values());
    if (script === 'latin' && lead < 0.5) shares = new Map([['en', lead]]);
  }
  const scriptShare = group.letters / total;
  const scores = [...shares]
    .map(([code, share]) => ({ code, score: share * scriptShare }))
    .sort((a, b) => b.score - a.score);
  const best = scores[0];
  if (!best) return undetermined();
  const supported = SUPPORTED.has(best.code);
  return {
    code: supported ? (best.code as LanguageCode) : FALLBACK_LANGUAGE,
    detected: best.code,
    confidence: best.score,
    reliable: supported && best.score >= 0.4 && group.letters >= 50,
    scores: scores.slice(0, 5),
  };
}

/**
 * Detects the language of a parsed book from its body text: headings, paragraphs, quotes, lists and
 * tables (a protocol laid out in tables is still English); code is left out.
 */
export function detectBookLanguage(book: {
  chapters: { blocks: { type: string; text: string }[] }[];
}): LanguageDetection {
  const texts: string[] = [];
  const starts: number[] = [];
  let total = 0;
  for (const c of book.chapters)
    for (const b of c.blocks) {
      if (b.type === 'code' || !b.text) continue;
      texts.push(b.text);
      starts.push(total);
      total += b.text.length + 1;
    }
  const windows = 16;
  const size = 800;
  if (total <= windows * size * 4) return detectLanguage(texts.join('\n'));
  // A long book: take sampleText's windows straight from the blocks. Joining and cleaning the whole
  // text first costs twice its size in memory (~700 MB for a 30 MB DOCX) for 13 KB of samples.
  const start = Math.floor(total * 0.05);
  const span = total - start - size * 2;
  const samples: string[] = [];
  for (let i = 0; i < windows; i++) {
    const at = start + Math.floor((span * i) / (windows - 1));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    let piece = texts[lo]!.slice(at - starts[lo]!);
    for (let k = lo + 1; k < texts.length && piece.length < size * 2; k++) piece += '\n' + texts[k];
    const clean = tidy(piece).slice(0, size);
    if (clean) samples.push(clean);
  }
  return detectLanguage(samples);
}
