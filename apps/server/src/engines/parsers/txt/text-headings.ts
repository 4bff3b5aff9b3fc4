/**
 * Heading lines of plain text (TXT, and the bodies of Word documents): numbered and named chapter
 * lines in the book's own language, and how high each stands. A heading's rank is 1 for a part
 * (卷, 第N部, Part, Book, Часть, Teil…), 2 for a chapter (第N章/回/話, Chapter, Глава, Kapitel,
 * Chapitre, Capítulo, 제N장…), 3 for a section (第N节, numbered "1.2" lines of a Word document).
 */

/** A marker put in front of lines a format already knows are headings (Aozora's 見出し notes, RTF
 * outline levels): repeated once per rank (one mark a part or top heading, two a chapter…). */
export const HEADING_MARK = '\u0002';

const NUMERALS = '一二三四五六七八九十百千零〇两壹贰叁肆伍陆柒捌玖拾佰\\d０-９';
const CJK_PART = new RegExp(`^(?:第[${NUMERALS}]{1,8}[卷部集篇編编]|卷[${NUMERALS}]{1,6}(?:$|[\\s\\u3000:：·.、]))`);
const CJK_CHAPTER = new RegExp(`^第[${NUMERALS}]{1,8}[章回话話幕]`);
const CJK_SECTION = new RegExp(`^第[${NUMERALS}]{1,8}[节節]`);
const KOREAN_PART = /^제\s*\d{1,3}\s*[부권편](?:$|[\s.:])/;
const KOREAN_CHAPTER = /^제\s*\d{1,3}\s*[장화](?:$|[\s.:])/;
/** "1장", "12화" without 제: only a short line. */
const KOREAN_SHORT_CHAPTER = /^\d{1,3}\s*[장화](?:$|[\s.:])/;
const CJK_NAMED =
  /^(?:序章|序幕|楔子|引子|序言|前言|尾声|尾聲|终章|終章|后记|後記|番外|あとがき|プロローグ|エピローグ)(?:$|[\s\u3000:：])/;

const WORD_NUMBER =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|[a-z]+-(?:one|two|three|four|five|six|seven|eight|nine)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final';
/** A number after a heading word: digits, a roman numeral, a number in English words. */
const NUMBER = `(?:[ivxlcdm]+|\\d+|${WORD_NUMBER})\\b`;
/** Ordinals in words after a Cyrillic heading word: "Глава первая", "Часть двадцать третья". */
const CYRILLIC_ORDINAL = '[а-яё]+(?:ая|ой|ый|ий|ья|ое|ье)(?:\\s+[а-яё]+(?:ая|ой|ый|ий|ья|ое|ье))?';
const PART_WORDS = 'part|book|volume|часть|книга|том|teil|buch|partie|livre|tome|parte|libro|deel|boek';
const CHAPTER_WORDS =
  'chapter|chap\\.|adventure|letter|canto|story|act|глава|розділ|kapitel|chapitre|capítulo|capitulo|capitolo|hoofdstuk|kapittel|rozdział|kapitola|fejezet|bölüm|chương';
const PART_HEADING = new RegExp(`^\\[?(?:${PART_WORDS})\\s+(?:${NUMBER}|${CYRILLIC_ORDINAL}(?=$|[\\s.:]))`, 'iu');
const CHAPTER_HEADING = new RegExp(
  `^\\[?(?:(?:${CHAPTER_WORDS})\\s+(?:${NUMBER}|${CYRILLIC_ORDINAL}(?=$|[\\s.:]))|(?:prologue|epilogue|preface|пролог|эпилог|предисловие|prolog|epilog|vorwort|prologo|prólogo|epílogo|épilogue|préface)(?=$|[\\s.:]))`,
  'iu',
);
const ROMAN_CAPS_HEADING = /^[IVXLC]{1,7}\.\s+[A-Z][A-Z0-9'’,.!?;: -]{3,}$/;
/** A number alone on its line ("IV", "12."): a heading only where the numbers count up (see bareNumber). */
const BARE_NUMBER = /^(?:([IVXLCDM]{1,7})|(\d{1,3}))\.?$/;

/** How many heading marks a line opens with. */
export function headingMarks(line: string): number {
  let n = 0;
  while (line[n] === HEADING_MARK) n++;
  return n;
}

/** The rank of a heading line (1 part, 2 chapter, 3 section), or undefined for any other line. */
export function headingRank(line: string, numbered = false): number | undefined {
  const text = line.trim();
  if (!text) return undefined;
  if (text.startsWith(HEADING_MARK)) return Math.min(3, headingMarks(text));
  if (text.length > 60) return undefined;
  if (CJK_PART.test(text) || KOREAN_PART.test(text)) return 1;
  if (CJK_CHAPTER.test(text) || KOREAN_CHAPTER.test(text) || CJK_NAMED.test(text)) return 2;
  if (text.length <= 30 && KOREAN_SHORT_CHAPTER.test(text)) return 2;
  if (CJK_SECTION.test(text)) return 3;
  const latin = PART_HEADING.exec(text) ?? CHAPTER_HEADING.exec(text);
  if (latin) {
    // "Book 2 was better than the first one." is a sentence: a heading's name after its number is short.
    const sentence = /[.!?]["”’]?$/.test(text) && text.slice(latin[0].length).trim().split(/\s+/).length > 5;
    if (!sentence) return PART_HEADING.test(text) ? 1 : 2;
  }
  if (ROMAN_CAPS_HEADING.test(text)) return 2;
  if (numbered) {
    if (/^([A-ZА-Я]|\d{1,2})\.\s+\p{Lu}[\p{Lu}\d ,'’&:;()/-]{3,}$/u.test(text)) return 2;
    if (/^\d{1,2}(\.\d{1,2}){0,2}\.?\s+\S/.test(text) && text.length <= 80 && !/[.;:,]$/.test(text)) return 3;
  }
  return undefined;
}

/** The value of a line that is a number alone, roman or arabic ("XIV." → 14), else undefined. */
export function bareNumber(line: string): number | undefined {
  const m = BARE_NUMBER.exec(line.trim());
  if (!m) return undefined;
  if (m[2]) return Number(m[2]);
  const values: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
  let total = 0;
  const roman = m[1]!;
  for (let i = 0; i < roman.length; i++) {
    const value = values[roman[i]!]!;
    const next = values[roman[i + 1] ?? ''] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

const SENTENCE_END = /[。！？.!?…；;：:，,、」』”"’)）\]-]$/u;
const OPENS_SPEECH = /^[「『“"‘'(（[—–\-*•·]/u;

/**
 * Whether a line standing alone between blank lines looks like a title ("青蛙王子", "The Golden
 * Bird"): short, no sentence punctuation at its end, not speech or a list item, with letters; in Latin
 * scripts it starts with a capital or a digit.
 */
export function titleLike(text: string): boolean {
  const t = text.trim();
  if (t.length > 50) return false;
  if (!t || !/\p{L}/u.test(t) || SENTENCE_END.test(t) || OPENS_SPEECH.test(t)) return false;
  const cjk = /[\u2e80-\u9fff\uac00-\ud7a3\uf900-\ufaff]/.test(t);
  if (cjk) return t.length <= 20;
  return t.length <= 50 && t.split(/\s+/).length <= 8 && /^[\p{Lu}\p{Lt}\d]/u.test(t);
}
