/**
 * The character encoding of a plain-text file.
 *
 * 1. A byte-order mark says it.
 * 2. NUL bytes: UTF-16 without a BOM (text in any 8-bit encoding has none), its byte order from the
 *    side the NULs fall on (the high byte of ASCII characters).
 * 3. ISO-2022-JP is 7-bit: its escape sequences (ESC $ B...) are the only sign, and UTF-8 would
 *    accept it as ASCII.
 * 4. Strict UTF-8: the common case, and decisive (legacy text is almost never valid UTF-8).
 * 5. Otherwise every legacy encoding chardet proposes, and the single-byte code pages of every script,
 *    decode a sample of the file and the most plausible text wins: letters that belong to one
 *    language's alphabet, no control characters or undecodable bytes, no symbol in the middle of a
 *    word, no capital after a small letter. chardet alone has no model for KOI8-U, the Mac code pages,
 *    windows-1257/1258 nor Greek 1253 against ISO-8859-7, and a file of a few hundred bytes gives its
 *    statistics little to go on; a wrong code page turns letters into symbols or into letters no
 *    language writes together ('Óñòàíîâêà' for 'Установка').
 */
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { LANGUAGE_ALPHABETS } from '../alphabets.ts';

export interface DecodedText {
  text: string;
  /** A WHATWG label ('windows-1251'), or 'x-mac-ce' (decoded by iconv-lite). */
  encoding: string;
}

/** chardet names → labels. GB18030 decodes GBK and GB2312 too (superset). */
const CHARDET_TO_LABEL: Record<string, string> = {
  'UTF-8': 'utf-8',
  GB18030: 'gb18030',
  GBK: 'gb18030',
  GB2312: 'gb18030',
  Big5: 'big5',
  Shift_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  'ISO-2022-JP': 'iso-2022-jp',
  'EUC-KR': 'euc-kr',
  'ISO-8859-1': 'windows-1252',
  'ISO-8859-2': 'iso-8859-2',
  'ISO-8859-5': 'iso-8859-5',
  'ISO-8859-6': 'windows-1256',
  'ISO-8859-7': 'iso-8859-7',
  // chardet's ISO-8859-8 is visual-order Hebrew; windows-1255 holds the same letters and the points.
  'ISO-8859-8': 'windows-1255',
  'ISO-8859-9': 'windows-1254',
  'windows-1250': 'windows-1250',
  'windows-1251': 'windows-1251',
  'windows-1252': 'windows-1252',
  'windows-1253': 'windows-1253',
  'windows-1254': 'windows-1254',
  'windows-1255': 'windows-1255',
  'windows-1256': 'windows-1256',
  'windows-1257': 'windows-1257',
  'windows-1258': 'windows-1258',
  'KOI8-R': 'koi8-r',
};

/**
 * Single-byte code pages tried for every legacy file; on a tie (the same text) the first is named, so
 * the more common or the larger of two comes first: Western, Central European, Baltic, Turkish, Vietnamese, Cyrillic, Greek, Hebrew, Arabic, Thai.
 */
const SINGLE_BYTE = [
  'windows-1252',
  'macintosh',
  'windows-1250',
  'iso-8859-2',
  'x-mac-ce',
  'iso-8859-16',
  'windows-1257',
  'windows-1254',
  'windows-1258',
  'windows-1251',
  'koi8-r',
  'koi8-u',
  'iso-8859-5',
  'x-mac-cyrillic',
  'ibm866',
  'windows-1253',
  'iso-8859-7',
  'windows-1255',
  'windows-1256',
  'windows-874',
];

/** The code pages of one script (or group of languages), for chardet's opinion. */
const FAMILY: Record<string, string> = {
  'windows-1252': 'western',
  macintosh: 'western',
  'windows-1250': 'central',
  'iso-8859-2': 'central',
  'x-mac-ce': 'central',
  'iso-8859-16': 'central',
  'windows-1251': 'cyrillic',
  'koi8-r': 'cyrillic',
  'koi8-u': 'cyrillic',
  'iso-8859-5': 'cyrillic',
  'x-mac-cyrillic': 'cyrillic',
  ibm866: 'cyrillic',
  'windows-1253': 'greek',
  'iso-8859-7': 'greek',
};
const MULTI_BYTE = new Set(['gb18030', 'big5', 'shift_jis', 'euc-jp', 'euc-kr']);
const UTF_16 = ['utf-16le', 'utf-16be'];

/** Code pages TextDecoder does not know, with their iconv-lite names. */
const ICONV_ONLY: Record<string, string> = { 'x-mac-ce': 'maccenteuro' };

const ALPHABET_SETS = LANGUAGE_ALPHABETS.map((letters) => new Set(letters));

/**
 * The common characters of Chinese, Japanese and Korean: the first levels of GB2312, Big5, JIS X 0208
 * and KS X 1001 (about 3,000-5,000 each), read out of the decoders themselves. A wrong multi-byte
 * decoding gives valid but rare characters (Shift_JIS read as GB18030 lands in GBK's extension).
 */
let commonCjk: Set<string> | undefined;

function commonCjkCharacters(): Set<string> {
  if (commonCjk) return commonCjk;
  const set = new Set<string>();
  const add = (label: string, leads: [number, number], trails: [number, number][]) => {
    const bytes: number[] = [];
    for (let lead = leads[0]; lead <= leads[1]; lead++)
      for (const [from, to] of trails) for (let trail = from; trail <= to; trail++) bytes.push(lead, trail);
    for (const ch of new TextDecoder(label).decode(new Uint8Array(bytes)))
      if (ch.codePointAt(0)! >= 0x3000) set.add(ch);
  };
  add('gb18030', [0xb0, 0xd7], [[0xa1, 0xfe]]);
  add(
    'big5',
    [0xa4, 0xc6],
    [
      [0x40, 0x7e],
      [0xa1, 0xfe],
    ],
  );
  add(
    'shift_jis',
    [0x88, 0x98],
    [
      [0x40, 0x7e],
      [0x80, 0xfc],
    ],
  );
  add('euc-kr', [0xb0, 0xc8], [[0xa1, 0xfe]]);
  return (commonCjk = set);
}

/** Apostrophes, hyphens and the Catalan middle dot stand inside words. */
const WORD_JOINERS = new Set([0x2019, 0x2bc, 0x2018, 0x2010, 0x2011, 0x2013, 0x2014, 0xb7]);

const OTHER = 1;
const LOWER = 2;
const UPPER = 3;
const UNCASED_LETTER = 4;
/** Character classes of the BMP, filled in as characters are met (a regex per character is slow). */
const CLASSES = new Uint8Array(0x10000);

function classOf(code: number): number {
  let cls = CLASSES[code]!;
  if (cls === 0) {
    const ch = String.fromCharCode(code);
    if (!/[\p{L}\p{M}]/u.test(ch)) cls = OTHER;
    else if (ch !== ch.toUpperCase()) cls = LOWER;
    else if (ch !== ch.toLowerCase()) cls = UPPER;
    else cls = UNCASED_LETTER;
    CLASSES[code] = cls;
  }
  return cls;
}

const isKana = (cp: number) => cp >= 0x3040 && cp <= 0x30ff;
const isHanOrHangul = (cp: number) => (cp >= 0x3400 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7af);
/** CJK punctuation and full-width forms. */
const isCjkPunctuation = (cp: number) => (cp >= 0x3000 && cp < 0x3040) || (cp >= 0xff00 && cp <= 0xffef);
/** A letter of a script written with spaces, where a symbol cannot stand inside a word. */
const isWordLetter = (code: number) => code >= 0x41 && code < 0x3000 && classOf(code) !== OTHER;

/** Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic...: a word is written in one of them. */
function alphabetOf(code: number): number {
  if (code < 0x250 || (code >= 0x1e00 && code <= 0x1eff)) return 0;
  if (code >= 0x1f00 && code <= 0x1fff) return 0x370;
  return code & ~0x7f;
}

/** Bytes a character takes in an encoding: what a decoding explains is counted per byte. */
function byteWidth(encoding: string): (code: number) => number {
  if (encoding === 'utf-8') return (code) => (code < 0x80 ? 1 : code < 0x800 ? 2 : 3);
  if (encoding.startsWith('utf-16')) return () => 2;
  return (code) => (code >= 0x3000 ? 2 : 1);
}

/**
 * How plausible a decoding is: the bytes of ASCII letters, of letters that one alphabet holds, of kana and of common
 * Han or Hangul count for it (a rare Han character hardly counts), everything a wrong code page
 * produces counts against it.
 */
export function plausibility(decoded: string, encoding = 'windows-1252'): number {
  const text = decoded.normalize('NFC');
  const width = byteWidth(encoding);
  const common = commonCjkCharacters();
  let good = 0;
  let bad = 0;
  const nonAscii = new Map<string, number>();
  let previous = 0x20;
  let previousClass = OTHER;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) good += 1;
      if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) bad += 10;
      // 'ìHello': a capital after a small letter this decoding made (“Hello in Mac Roman).
      if (code >= 0x41 && code <= 0x5a && previousClass === LOWER && previous >= 0x80) bad += 3;
      previousClass = code >= 0x61 && code <= 0x7a ? LOWER : code >= 0x41 && code <= 0x5a ? UPPER : OTHER;
      previous = code;
      continue;
    }
    let cls = OTHER;
    if (code === 0xfffd || code <= 0x9f) bad += 10;
    else if (code >= 0xd800 && code <= 0xdfff)
      bad += 1; // a character beyond the BMP: rare in any decoding
    else if (code >= 0xe000 && code <= 0xf8ff) bad += 5;
    else if (isKana(code)) good += width(code);
    else if (isHanOrHangul(code)) good += width(code) * (common.has(text[i]!) ? 1 : 0.25);
    else if (isCjkPunctuation(code)) good += width(code) / 2;
    else {
      cls = classOf(code);
      if (cls !== OTHER) {
        if (cls === UPPER && previousClass === LOWER) bad += 3; // 'ÓñòàÍ': a capital inside a word
        // 'Эstanbul': one word in two alphabets
        if (previousClass !== OTHER && alphabetOf(previous) !== alphabetOf(code)) bad += 3;
        const lower = cls === UPPER ? text[i]!.toLowerCase() : text[i]!;
        nonAscii.set(lower, (nonAscii.get(lower) ?? 0) + width(code));
      } else if (
        !WORD_JOINERS.has(code) &&
        code < 0x3000 &&
        isWordLetter(previous) &&
        i + 1 < text.length &&
        isWordLetter(text.charCodeAt(i + 1))
      )
        bad += 3; // 'Прив╕т' (CJK punctuation stands between characters of unspaced text)
    }
    previousClass = cls;
    previous = code;
  }
  let letters = 0;
  for (const n of nonAscii.values()) letters += n;
  let best = 0;
  for (const alphabet of ALPHABET_SETS) {
    let covered = 0;
    for (const [letter, n] of nonAscii) if (alphabet.has(letter)) covered += n;
    best = Math.max(best, covered);
  }
  return good + best - (letters - best) - bad;
}

function decodeWith(label: string, bytes: Uint8Array): string | undefined {
  try {
    const iconvName = ICONV_ONLY[label];
    if (iconvName) return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), iconvName);
    return new TextDecoder(label).decode(bytes);
  } catch {
    return undefined;
  }
}

/** UTF-16 without a BOM: NUL bytes, nearly all on one side of the byte pairs. */
function utf16ByteOrder(input: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const length = Math.min(input.length, 64 * 1024) & ~1;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < length; i += 2) {
    if (input[i] === 0) even++;
    if (input[i + 1] === 0) odd++;
  }
  if (even + odd < length * 0.02) return undefined;
  if (odd >= (even + odd) * 0.9) return 'utf-16le';
  if (even >= (even + odd) * 0.9) return 'utf-16be';
  return undefined;
}

/** ISO-2022-JP: 7-bit bytes with its escape sequences (ESC $ @, ESC $ B, ESC ( J...). */
function isIso2022Jp(input: Uint8Array): boolean {
  const length = Math.min(input.length, 64 * 1024);
  let escapes = 0;
  for (let i = 0; i < length; i++) {
    const byte = input[i]!;
    if (byte >= 0x80) return false;
    if (byte === 0x1b && (input[i + 1] === 0x24 || input[i + 1] === 0x28)) escapes++;
  }
  return escapes >= 2;
}

/** Up to 32 KB from the start and the middle: a licence at the head must not decide alone. */
function sampleOf(input: Uint8Array): Uint8Array {
  const window = 16 * 1024;
  if (input.length <= window * 2) return input;
  const middle = Math.floor(input.length / 2);
  const sample = new Uint8Array(window * 2);
  sample.set(input.subarray(0, window));
  sample.set(input.subarray(middle, middle + window), window);
  return sample;
}

export function decodeText(input: Buffer): DecodedText {
  if (input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(input.subarray(3)), encoding: 'utf-8' };
  }
  if (input[0] === 0xff && input[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(input.subarray(2)), encoding: 'utf-16le' };
  }
  if (input[0] === 0xfe && input[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(input.subarray(2)), encoding: 'utf-16be' };
  }
  const utf16 = utf16ByteOrder(input);
  if (utf16) return { text: new TextDecoder(utf16).decode(input), encoding: utf16 };
  if (isIso2022Jp(input)) return { text: new TextDecoder('iso-2022-jp').decode(input), encoding: 'iso-2022-jp' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(input), encoding: 'utf-8' };
  } catch {
    // Not UTF-8: a legacy encoding.
  }
  const sample = sampleOf(input);
  // chardet proposes the multi-byte encodings (its statistics tell GB18030 from Big5 or Shift_JIS);
  // on a tie the single-byte code pages keep their order (a superset before its subset).
  // Its confidence also counts for the code pages of the script it names: it knows the letter
  // frequencies of Russian, Greek, Hebrew, Arabic... (Hebrew read as windows-1251 is all small
  // Cyrillic letters), while which code page of the script is right is plausibility's to say.
  const confidence = new Map<string, number>();
  const multiByte: string[] = [];
  for (const { name, confidence: value } of chardet.analyse(sample)) {
    const label = CHARDET_TO_LABEL[name];
    if (!label) continue;
    if (MULTI_BYTE.has(label)) multiByte.push(label);
    const family = FAMILY[label] ?? label;
    if (!confidence.has(family)) confidence.set(family, value / 100);
  }
  let highBytes = 0;
  for (const byte of sample) if (byte >= 0x80) highBytes++;
  // UTF-8 stays a candidate (a UTF-8 file with one broken byte is still UTF-8), and so does UTF-16
  // (Chinese in UTF-16 without a BOM has few NUL bytes).
  const candidates = new Set([...multiByte, ...SINGLE_BYTE, 'utf-8', ...(input.length % 2 ? [] : UTF_16)]);
  let best: { label: string; score: number } | undefined;
  for (const label of candidates) {
    const text = decodeWith(label, sample);
    if (text === undefined) continue;
    const score = plausibility(text, label) + (confidence.get(FAMILY[label] ?? label) ?? 0) * highBytes * 0.5;
    if (!best || score > best.score) best = { label, score };
  }
  const label = best?.label ?? 'windows-1252';
  let text = decodeWith(label, input) ?? new TextDecoder('windows-1252').decode(input);
  // windows-1258 writes Vietnamese tones as combining marks: compose them as Unicode text does.
  if (label === 'windows-1258') text = text.normalize('NFC');
  return { text, encoding: label };
}
