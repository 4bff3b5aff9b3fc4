/**
 * Text that a PDF's fonts turn into garbage. A font without a usable Unicode map gives pdf.js its
 * glyph ids or character codes as text: control characters (glyph 3 is the space of most TrueType
 * fonts, read as U+0003), private-use code points and U+FFFD, random letters of every script, or
 * plausible-looking Latin ("3HQČåQt SURVWĜHGN" for "Peněžní prostředky"); an OCR layer made with
 * the wrong language gives Latin garbage too ("Cl>opMa no KHA" for "Форма по КНД"). Such text is
 * worse than none: it would be translated, read aloud and searched as if it were the book.
 *
 * Text statistics say when a page is garbage for sure (control characters in a share no text has),
 * and when it is only doubtful (words no language writes, in a share a code listing may reach):
 * then what pdf.js tells about the page's fonts decides (pdf-fonts.ts).
 */
import type { PdfLine } from './pdf-layout.ts';

/** Counts of some text. */
export interface TextQuality {
  /** Non-space characters. */
  chars: number;
  /** Control (other than tab and line breaks), private-use (not a lone symbol) and U+FFFD characters. */
  bad: number;
  /** Tokens with a letter. */
  words: number;
  /** Of those, tokens no language writes: case, digits, symbols or alphabets mixed inside a word. */
  oddWords: number;
  /** Latin letters, and of those vowels: codes of a custom encoding taken for letters have few. */
  latin: number;
  vowels: number;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_OR_REPLACEMENT = /[\0-\x08\x0b-\x1f\x7f-\x9f\ufffd]/g;
/** Private-use characters in a run: a lone one is an icon or a bullet of a symbol font. */
const PRIVATE_USE_RUN = /[\ue000-\uf8ff]{2,}/g;
const LETTER = /\p{L}/u;
/**
 * Inside a word: a lower-case letter followed by two capitals ("HaCTOHIJ", which camelCase does not
 * write); letters, a digit, letters ("Hanoroo6nO", "KoppeKn1p"; formulas of capitals, "H2O", aside);
 * a symbol between letters that neither prose nor code writes there ("Cl>op", "npo~eHH").
 */
const ODD_INSIDE = /\p{Ll}\p{Lu}{2}|\p{Ll}\p{N}+\p{L}|\p{L}\p{N}+\p{Ll}|\p{L}[<>~]+\p{L}/u;
const ADDRESS = /^(?:https?:|www\.)|@\w+\./i;
const LATIN_LETTERS = /\p{Script=Latin}/gu;
const SOME_LATIN = /[A-Za-z\u00c0-\u024f\u1e00-\u1eff]/;
const LATIN_VOWELS = /[aeiouyAEIOUYÀ-ÆÈ-ÏÒ-ÖØ-Ýà-æè-ïò-öø-ýÿĀ-ąĒ-ěĨ-ıŌ-œŨ-ų]/g;
/** Letters of alphabets other than Latin (Greek to Ethiopic), short of the CJK blocks. */
const OTHER_ALPHABET = /[\u0370-\u1fff]/;
const ALPHABETS: [RegExp, string][] = [
  [/\p{Script=Latin}/u, 'Latin'],
  [/\p{Script=Greek}/u, 'Greek'],
  [/\p{Script=Cyrillic}/u, 'Cyrillic'],
  [/\p{Script=Arabic}/u, 'Arabic'],
  [/\p{Script=Hebrew}/u, 'Hebrew'],
  [/\p{Script=Armenian}/u, 'Armenian'],
  [/[\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}]/u, 'Indic'],
  [/[\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Gujarati}\p{Script=Gurmukhi}\p{Script=Oriya}]/u, 'Indic'],
  [/[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tibetan}]/u, 'Southeast Asian'],
  [/[\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u, 'other'],
  [/[\p{Script=Georgian}\p{Script=Ethiopic}\p{Script=Cherokee}\p{Script=Runic}\p{Script=Ogham}]/u, 'other'],
];

function alphabetOf(ch: string): string | undefined {
  const code = ch.charCodeAt(0);
  // ASCII letters are Latin; Chinese, Japanese and Korean (from U+2E80) count for no alphabet.
  if (code < 0x80) return /[A-Za-z]/.test(ch) ? 'Latin' : undefined;
  if (code >= 0x2e80) return undefined;
  for (const [re, name] of ALPHABETS) if (re.test(ch)) return name;
  return undefined;
}

/**
 * Letters of more than one alphabet in a word. Chinese, Japanese and Korean are left out: they are
 * written without spaces, so their "words" run into the Latin words and numbers beside them.
 */
function mixesAlphabets(word: string): boolean {
  if (!OTHER_ALPHABET.test(word)) return false;
  let first: string | undefined;
  for (const ch of word) {
    const alphabet = alphabetOf(ch);
    if (alphabet === undefined) continue;
    if (first === undefined) first = alphabet;
    else if (alphabet !== first) return true;
  }
  return false;
}

export function emptyQuality(): TextQuality {
  return { chars: 0, bad: 0, words: 0, oddWords: 0, latin: 0, vowels: 0 };
}

/** Characters of a text as pdf.js gave it (before control characters become spaces) that are no text. */
export function countBadChars(text: string): number {
  let bad = text.match(CONTROL_OR_REPLACEMENT)?.length ?? 0;
  for (const run of text.match(PRIVATE_USE_RUN) ?? []) bad += run.length;
  return bad;
}

/** Whether a word (a run of non-spaces) is one no language writes. */
export function isOddWord(token: string): boolean {
  if (!LETTER.test(token) || ADDRESS.test(token)) return false;
  return ODD_INSIDE.test(token) || mixesAlphabets(token);
}

const ASCII_WORD = /^[\x21-\x7e]+$/;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const VOWEL = new Set([0x61, 0x65, 0x69, 0x6f, 0x75, 0x79]);

/**
 * measureWords for a word of ASCII (most words of most books), in one pass over its codes: the
 * same counts as the regular expressions give, without their cost on every word of a book.
 */
function measureAsciiWord(token: string, into: TextQuality): void {
  let letters = 0;
  let vowels = 0;
  let odd = false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    const lower = isLower(c);
    if (lower || isUpper(c)) {
      letters++;
      if (VOWEL.has(c | 0x20)) vowels++;
    }
    if (odd || !lower) continue;
    // After a lower-case letter: two capitals, digits then a letter, or <>~ then a letter.
    const next = token.charCodeAt(i + 1);
    if (isUpper(next) && isUpper(token.charCodeAt(i + 2))) odd = true;
    let k = i + 1;
    while (isDigit(token.charCodeAt(k))) k++;
    if (k > i + 1 && (isLower(token.charCodeAt(k)) || isUpper(token.charCodeAt(k)))) odd = true;
    k = i + 1;
    while (token[k] === '<' || token[k] === '>' || token[k] === '~') k++;
    if (k > i + 1 && (isLower(token.charCodeAt(k)) || isUpper(token.charCodeAt(k)))) odd = true;
  }
  // Capital or digit first: "A3b", "X<y" (a letter, digits or symbols, then a lower-case letter).
  if (!odd) odd = /[A-Z]\d+[a-z]|[A-Z][<>~]+[A-Za-z]/.test(token);
  if (!letters) return;
  into.words++;
  if (odd && !ADDRESS.test(token)) into.oddWords++;
  into.latin += letters;
  into.vowels += vowels;
}

/** Adds the characters and words of `text` to `into` (bad characters are counted on pdf.js's text). */
export function measureWords(text: string, into: TextQuality = emptyQuality()): TextQuality {
  for (const token of text.split(/\s+/)) {
    if (!token) continue;
    into.chars += token.length;
    if (ASCII_WORD.test(token)) {
      measureAsciiWord(token, into);
      continue;
    }
    if (!LETTER.test(token)) continue;
    into.words++;
    if (isOddWord(token)) into.oddWords++;
    const latin = SOME_LATIN.test(token) ? (token.match(LATIN_LETTERS)?.length ?? 0) : 0;
    if (latin) {
      into.latin += latin;
      into.vowels += token.match(LATIN_VOWELS)?.length ?? 0;
    }
  }
  return into;
}

/** How sure the counts make us that a text is garbage. */
export type Verdict = 'clean' | 'doubtful' | 'garbage';

/**
 * Control and private-use characters in a share no text has (pdfTeX maths leaves a few, symbol
 * fonts a bullet here and there) are garbage. Odd words are only doubtful, whatever their share: a
 * page of LaTeX or C++ has many; so are a few bad characters, and Latin letters with few vowels (a
 * table of acronyms). The fonts decide those.
 */
export function judgeText(q: TextQuality): Verdict {
  if (q.chars === 0) return 'clean';
  const badShare = q.bad / q.chars;
  if (q.bad >= 3 && badShare >= 0.08) return 'garbage';
  if (q.bad >= 2 && badShare >= 0.02) return 'doubtful';
  if (q.oddWords >= 3 && q.oddWords >= q.words * 0.15) return 'doubtful';
  // Every language written in Latin letters has a third or more vowels; shifted codes have a sixth.
  if (q.latin >= 60 && q.latin >= q.chars * 0.5 && q.vowels < q.latin * 0.22) return 'doubtful';
  return 'clean';
}

/** What pdf.js tells about the fonts of a page (pdf-fonts.ts). */
export interface PageFontEvidence {
  /** The text is drawn invisibly over an image: an OCR layer, as good as the OCR that made it. */
  hiddenText: boolean;
  /** Share of the page's characters drawn in fonts without a usable Unicode map. */
  unmappedShare: number;
}

/** A page's lines and the quality of its text, as the parser has them. */
export interface MeasuredPage {
  page: number;
  lines: PdfLine[];
  quality: TextQuality;
}

/** Pages to inspect through their fonts, at most: their verdict stands for the other doubtful pages. */
const MAX_INSPECTED_PAGES = 24;

export interface GarbageReport {
  /** Pages whose text is garbage (read them by OCR, or drop their text). */
  pages: Set<number>;
  /** Lines of garbage on pages whose other text is good. */
  lines: Set<PdfLine>;
}

/**
 * Finds the pages (and lines) of garbage. Doubtful pages are decided by their fonts: text drawn in
 * fonts without a Unicode map, or an invisible OCR layer, that reads as garbage is garbage.
 */
export async function findGarbage(
  pages: MeasuredPage[],
  inspect: (pages: number[]) => Promise<Map<number, PageFontEvidence>>,
): Promise<GarbageReport> {
  const report: GarbageReport = { pages: new Set(), lines: new Set() };
  const doubtful: MeasuredPage[] = [];
  for (const p of pages) {
    const verdict = judgeText(p.quality);
    if (verdict === 'garbage') report.pages.add(p.page);
    else if (verdict === 'doubtful') doubtful.push(p);
  }
  if (!doubtful.length) return report;
  const step = Math.max(1, doubtful.length / MAX_INSPECTED_PAGES);
  const sample = Array.from(
    { length: Math.min(doubtful.length, MAX_INSPECTED_PAGES) },
    (_, i) => doubtful[Math.floor(i * step)]!,
  );
  const evidence = await inspect(sample.map((p) => p.page));
  let garbageVotes = 0;
  const garbageBy = (e: PageFontEvidence) => e.hiddenText || e.unmappedShare >= 0.5;
  for (const e of evidence.values()) if (garbageBy(e)) garbageVotes++;
  const majority = garbageVotes * 2 > evidence.size;
  for (const p of doubtful) {
    const e = evidence.get(p.page);
    if (e ? garbageBy(e) : majority) report.pages.add(p.page);
    else if (e && e.unmappedShare > 0) {
      // Some lines in an unmapped font among good text: those that read as garbage go.
      for (const line of p.lines) if (judgeLine(line) !== 'clean') report.lines.add(line);
    }
  }
  return report;
}

/** A line read on its own: half its words odd, or control characters among its letters. */
function judgeLine(line: PdfLine): Verdict {
  const q = measureWords(line.text);
  q.bad = line.badChars ?? 0;
  if (q.bad >= 2 && q.bad >= q.chars * 0.08) return 'garbage';
  return q.words > 0 && q.oddWords * 2 >= q.words ? 'garbage' : 'clean';
}
