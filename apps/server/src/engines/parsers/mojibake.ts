/**
 * Text of another code page read as Latin-1 or Windows-1252 ("mojibake"): Russian written in
 * Windows-1251 comes out as "Íå î÷åíü êðàòêîå" instead of "Не очень краткое" when a PDF font maps
 * its codes to Latin-1 (old LaTeX T2A setups, Word's Cyrillic fonts under a Western code page), or
 * when a text file was converted to UTF-8 from the wrong code page.
 *
 * Every byte has a meaning in every single-byte code page, so no decoding is ever "invalid": which
 * reading is right shows only in the text. As ftfy does for UTF-8 mojibake, a reading is scored by
 * what real text does not do (`weirdness`): letters of two scripts in one word, a capital after a
 * small letter, a symbol inside a word, control characters, and letters that no single language
 * writes together ('î÷åíü': French î, German ü, the division sign, Icelandic ð...). Text is repaired
 * only when it reads as weird and one code page takes nearly all of that away; real French, German
 * or Icelandic reads as it is and is never touched. ftfy leaves mix-ups between single-byte code
 * pages alone because a wrong guess is easy; here a guess is only taken on strong evidence, and the
 * callers decide per font (PDF) or per line, with a verdict made on a larger sample.
 */
import { LANGUAGE_ALPHABETS } from './alphabets.ts';

/**
 * The code pages text may really be in, the more common of two that read the same first: Cyrillic
 * (KOI8-U holds KOI8-R's letters and the Ukrainian ones), Greek, Central European, Turkish, Baltic,
 * Hebrew, Arabic.
 */
export const MOJIBAKE_CODE_PAGES = [
  'windows-1251',
  'koi8-u',
  'windows-1253',
  'iso-8859-7',
  'windows-1250',
  'iso-8859-2',
  'windows-1254',
  'windows-1257',
  'windows-1255',
  'windows-1256',
] as const;
export type MojibakeCodePage = (typeof MOJIBAKE_CODE_PAGES)[number];

/**
 * Characters a Latin-1 or Windows-1252 reading of bytes 0x80–0xFF gives (C1 controls for Latin-1),
 * but no space, soft hyphen or the quotes and dashes every text has.
 */
const SUSPECT =
  /[\x80-\x9f\xa1-\xac\xae-\xff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2020-\u2022\u2030\u2039\u203a\u20ac\u2122]/;

/** Whether `text` has a character that another code page would read differently. */
export function mayBeMojibake(text: string): boolean {
  return SUSPECT.test(text);
}

/** Per code page: what each character of a Latin-1 or Windows-1252 reading stands for (changed ones only). */
const charMaps = new Map<MojibakeCodePage, Map<number, string>>();

function charMapOf(codePage: MojibakeCodePage): Map<number, string> {
  let map = charMaps.get(codePage);
  if (map) return map;
  map = new Map();
  const target = new TextDecoder(codePage);
  const windows1252 = new TextDecoder('windows-1252');
  for (let byte = 0x80; byte <= 0xff; byte++) {
    const meant = target.decode(Uint8Array.of(byte));
    if (meant === '\ufffd') continue;
    // Latin-1 gives the byte's own code point (C1 controls for 0x80–0x9F), Windows-1252 its symbols.
    for (const read of [byte, windows1252.decode(Uint8Array.of(byte)).charCodeAt(0)]) {
      if (meant !== String.fromCharCode(read)) map.set(read, meant);
    }
  }
  charMaps.set(codePage, map);
  return map;
}

/** `text` with every character a Latin-1/Windows-1252 reading gave put back as `codePage` reads its byte. */
export function recode(text: string, codePage: MojibakeCodePage): string {
  const map = charMapOf(codePage);
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const meant = map.get(text.charCodeAt(i));
    if (meant === undefined) continue;
    out += text.slice(from, i) + meant;
    from = i + 1;
  }
  return from ? out + text.slice(from) : text;
}

/**
 * Letters `recode` makes inside words (beside another letter): how much of the text a code page
 * speaks for. Letters standing alone do not count: a symbol font read as WinAnsi gives single
 * letters between spaces ('x Î A' for 'x ∈ A'), which any alphabet can hold.
 */
function recodedLetters(text: string, recoded: string): number {
  const isLetterAt = (i: number) => i >= 0 && i < recoded.length && isLetterCode(recoded.charCodeAt(i));
  let letters = 0;
  for (let i = 0; i < text.length; i++) {
    if (recoded[i] !== text[i] && isLetterAt(i) && (isLetterAt(i - 1) || isLetterAt(i + 1))) letters++;
  }
  return letters;
}

const SPACE = 1;
const DIGIT = 2;
const PUNCTUATION = 3;
const SYMBOL = 4;
const CONTROL = 5;
const LOWER = 6;
const UPPER = 7;
const UNCASED = 8;
const MARK = 9;
/** Character classes of the BMP, filled in as characters are met (a regex per character is slow). */
const CLASSES = new Uint8Array(0x10000);

/** Apostrophes, hyphens and the Catalan middle dot stand inside words. */
const WORD_JOINERS = new Set([0x2019, 0x2bc, 0x2018, 0x2010, 0x2011, 0x2013, 0x2014, 0xb7, 0xad]);

function classOf(code: number): number {
  let cls = CLASSES[code]!;
  if (cls) return cls;
  const ch = String.fromCharCode(code);
  if (code < 0x80) {
    cls = /\s/.test(ch)
      ? SPACE
      : /[0-9]/.test(ch)
        ? DIGIT
        : /[a-z]/.test(ch)
          ? LOWER
          : /[A-Z]/.test(ch)
            ? UPPER
            : code < 0x20 || code === 0x7f
              ? CONTROL
              : PUNCTUATION;
  } else if ((code >= 0x80 && code <= 0x9f) || code === 0xfffd) cls = CONTROL;
  else if (/\s/u.test(ch)) cls = SPACE;
  else if (/\p{M}/u.test(ch)) cls = MARK;
  else if (/\p{L}/u.test(ch)) cls = ch !== ch.toUpperCase() ? LOWER : ch !== ch.toLowerCase() ? UPPER : UNCASED;
  else if (/\p{N}/u.test(ch)) cls = DIGIT;
  else if (WORD_JOINERS.has(code) || /\p{P}/u.test(ch)) cls = PUNCTUATION;
  else cls = SYMBOL;
  CLASSES[code] = cls;
  return cls;
}

const isLetterClass = (cls: number) => cls >= LOWER;
const isLetterCode = (code: number) => isLetterClass(classOf(code));

/** The script of a letter: a word is written in one. */
function scriptOf(code: number): number {
  if (code < 0x250 || (code >= 0x1e00 && code <= 0x1eff)) return 1; // Latin
  if ((code >= 0x370 && code <= 0x3ff) || (code >= 0x1f00 && code <= 0x1fff)) return 2; // Greek
  if (code >= 0x400 && code <= 0x52f) return 3; // Cyrillic
  if (code >= 0x590 && code <= 0x5ff) return 4; // Hebrew
  if ((code >= 0x600 && code <= 0x77f) || (code >= 0xfb50 && code <= 0xfeff)) return 5; // Arabic
  return code >> 7;
}

const ALPHABET_SETS = LANGUAGE_ALPHABETS.map((letters) => new Set(letters));

/**
 * How much of `text` real text would not do, counted per occurrence: control characters (what a
 * Latin-1 reading makes of Windows punctuation), letters of two scripts side by side, a capital after
 * a small letter beyond ASCII ('ÎáÙ'), a symbol between two letters ('î÷åíü'), and letters beyond
 * ASCII outside the one language's alphabet that holds most of them.
 */
export function weirdness(text: string): number {
  let cost = 0;
  const letters = new Map<string, number>();
  let previous = 0x20;
  let previousClass = SPACE;
  let previousScript = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const cls = classOf(code);
    if (cls === CONTROL && code >= 0x80) cost += 2;
    else if (cls === MARK) continue;
    else if (isLetterClass(cls)) {
      const script = scriptOf(code);
      if (isLetterClass(previousClass) && script !== previousScript) cost += 2;
      if (cls === UPPER && previousClass === LOWER && (code >= 0x80 || previous >= 0x80)) cost += 1;
      if (code >= 0x80) {
        let lower = cls === UPPER ? text[i]!.toLowerCase() : text[i]!;
        // 'İ' lowers to 'i' and a combining dot: an ASCII letter.
        if (lower.length > 1) lower = '';
        if (lower) letters.set(lower, (letters.get(lower) ?? 0) + 1);
      }
      previousScript = script;
    } else if (cls === SYMBOL && isLetterClass(previousClass) && i + 1 < text.length) {
      if (isLetterCode(text.charCodeAt(i + 1))) cost += 2;
    }
    previous = code;
    previousClass = cls;
  }
  let all = 0;
  for (const n of letters.values()) all += n;
  let best = 0;
  for (const alphabet of ALPHABET_SETS) {
    let covered = 0;
    for (const [letter, n] of letters) if (alphabet.has(letter)) covered += n;
    best = Math.max(best, covered);
  }
  return cost + all - best;
}

/**
 * The most frequent letters of each script (Latin, Cyrillic, Greek, Hebrew, Arabic): of two readings
 * that are both well-formed (Windows-1251 and KOI8 give the same letters in other places and cases,
 * and KOI8 reads Hebrew bytes as capitals), the one whose letters are the common ones is the text.
 */
const COMMON_LETTERS = new Set('eaitnorslu' + 'оеаинтсрвлі' + 'αοειτνσςυρηκ' + 'יוהאלמתרבנש' + 'اليمونهرتبة');

function commonShare(text: string): number {
  let letters = 0;
  let common = 0;
  for (const ch of text.toLowerCase()) {
    if (!isLetterCode(ch.charCodeAt(0))) continue;
    letters++;
    if (COMMON_LETTERS.has(ch)) common++;
  }
  return letters ? common / letters : 0;
}

export interface MojibakeVerdict {
  codePage: MojibakeCodePage;
  /** Weirdness of the text as read, and as the code page reads it. */
  before: number;
  after: number;
  /** Letters the code page gives the text. */
  letters: number;
}

/** Letters a code page must give for a verdict: a few words' worth. */
export const MIN_MOJIBAKE_LETTERS = 8;

/**
 * The code page `text` was really written in, when it reads as weird and that code page takes
 * nearly all of it away (to a third at most, and by a margin that grows with the text); undefined
 * for text that reads as it should, or that no code page reads clearly better.
 */
export function detectMojibake(text: string, minLetters = MIN_MOJIBAKE_LETTERS): MojibakeVerdict | undefined {
  if (!SUSPECT.test(text)) return undefined;
  const before = weirdness(text);
  if (before < 3) return undefined;
  let best: (MojibakeVerdict & { share?: number; text: string }) | undefined;
  for (const codePage of MOJIBAKE_CODE_PAGES) {
    const recoded = recode(text, codePage);
    const letters = recodedLetters(text, recoded);
    if (letters < minLetters) continue;
    const after = weirdness(recoded);
    if (best && (after > best.after || (after === best.after && letters < best.letters))) continue;
    if (best && after === best.after && letters === best.letters) {
      // Two well-formed readings with as many letters: the one made of the common letters.
      best.share ??= commonShare(best.text);
      const share = commonShare(recoded);
      if (share <= best.share) continue;
      best = { codePage, before, after, letters, share, text: recoded };
      continue;
    }
    best = { codePage, before, after, letters, text: recoded };
  }
  if (!best || best.after * 3 > before || before - best.after < Math.max(3, best.letters * 0.1)) return undefined;
  return { codePage: best.codePage, before, after: best.after, letters: best.letters };
}

/**
 * `text` read in `codePage` when that takes away most of its weirdness (to a third at most), for
 * text too short to decide on but whose code page a larger sample has told (the other pages of a
 * PDF, a whole file): 'Ãëàâà 1' is 'Глава 1' in a Windows-1251 book. Else the text unchanged: a line
 * of real text in several languages may read a little less oddly in another code page, not that much.
 */
export function repairIfBetter(text: string, codePage: MojibakeCodePage): string {
  if (!SUSPECT.test(text)) return text;
  const recoded = recode(text, codePage);
  if (recoded === text || recodedLetters(text, recoded) < 2) return text;
  const before = weirdness(text);
  return before > 0 && weirdness(recoded) * 3 <= before ? recoded : text;
}

/** Up to 64K characters of a long text, from its start and its middle: a licence at the head must not decide alone. */
function sampleOf(text: string): string {
  const window = 32 * 1024;
  if (text.length <= window * 2) return text;
  const middle = Math.floor(text.length / 2);
  return `${text.slice(0, window)}\n${text.slice(middle, middle + window)}`;
}

/**
 * A whole text (a text file, a Word document's 8-bit text) that is mojibake: the code page is told
 * from a sample of it, then each line is read in that code page where that reads better, so that a
 * line of real Latin-1 text in it stays as it is. Undefined when the text needs no repair.
 */
export function repairMojibakeText(text: string): { text: string; codePage: MojibakeCodePage } | undefined {
  if (!SUSPECT.test(text)) return undefined;
  const verdict = detectMojibake(sampleOf(text));
  if (!verdict) return undefined;
  return { text: repairLines(text, verdict.codePage), codePage: verdict.codePage };
}

/** Each line of `text` read in `codePage` where that reads better (`repairIfBetter`). */
export function repairLines(text: string, codePage: MojibakeCodePage): string {
  return text.replace(/[^\r\n]+/g, (line) => repairIfBetter(line, codePage));
}
