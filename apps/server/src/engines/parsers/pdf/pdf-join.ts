/**
 * The lines of a PDF paragraph joined into its text: a line-end hyphen is dropped where the document
 * writes the word without it, a space is put at other line ends except between CJK characters.
 */

/**
 * The words of a whole document, for deciding line-end hyphens: "trans-" + "lation" is one word when
 * the document has "translation" elsewhere, but "self-" + "esteem" keeps its hyphen when the document
 * writes "self-esteem" and never "selfesteem".
 */
export interface Lexicon {
  /** Lower-cased words, compounds split at their hyphens too. */
  words: Map<string, number>;
  /** Lower-cased hyphenated compounds seen inside lines ("self-esteem"). */
  hyphenated: Map<string, number>;
}

const WORD_TOKEN = /\p{L}+(?:-\p{L}+)*/gu;

export function buildLexicon(lines: Iterable<string>): Lexicon {
  const lexicon: Lexicon = { words: new Map(), hyphenated: new Map() };
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const line of lines) {
    // A line-end fragment ("trans-") is half a word: left out.
    const text = line.replace(/\p{L}+-\s*$/u, '');
    for (const m of text.matchAll(WORD_TOKEN)) {
      const token = m[0].toLowerCase();
      if (token.includes('-')) {
        add(lexicon.hyphenated, token);
        for (const part of token.split('-')) add(lexicon.words, part);
      } else add(lexicon.words, token);
    }
  }
  return lexicon;
}

/** Whether "left-" at a line end and "right..." on the next line are one word (no hyphen). */
function joinsHyphen(left: string, right: string, lexicon: Lexicon | undefined): boolean {
  if (!lexicon) return true;
  const a = /\p{L}+$/u.exec(left)?.[0].toLowerCase() ?? '';
  const b = /^\p{L}+/u.exec(right)?.[0].toLowerCase() ?? '';
  const joined = lexicon.words.get(a + b) ?? 0;
  const hyphenated = lexicon.hyphenated.get(`${a}-${b}`) ?? 0;
  return joined >= hyphenated;
}

const CJK_LETTER = /[\u2e80-\u2fff\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
/** CJK punctuation and full-width forms carry their own spacing. */
const CJK_PUNCTUATION = /[\u3000-\u303f\uff00-\uffef]/u;
const QUOTE_OR_DASH = /[\u2010-\u2027]/u;

/**
 * Whether two lines of a paragraph join without a space: only between CJK characters, or at CJK
 * punctuation. A Latin word at a line end is a word end, whatever comes next ("law" + "the" is
 * "law the"; "Linux" + "系统" is "Linux 系统").
 */
function joinsWithoutSpace(before: string, after: string): boolean {
  const last = before[before.length - 1]!;
  const first = after[0]!;
  if (CJK_PUNCTUATION.test(last) || CJK_PUNCTUATION.test(first)) return true;
  // Quotes and dashes beside CJK letters are CJK punctuation too (“吾輩”, 系统——).
  const cjkBefore = CJK_LETTER.test(last);
  const cjkAfter = CJK_LETTER.test(first);
  if ((cjkBefore && QUOTE_OR_DASH.test(first)) || (QUOTE_OR_DASH.test(last) && cjkAfter)) return true;
  return cjkBefore && cjkAfter;
}

/** Joins the lines of one paragraph: hyphenation repaired, CJK without spaces. */
export function joinParagraphLines(texts: string[], lexicon?: Lexicon): string {
  let out = '';
  for (const raw of texts) {
    const text = raw.trim();
    if (!text) continue;
    if (/[\p{Ll}\p{Lu}]-$/u.test(out) && /^\p{Ll}/u.test(text)) {
      out = joinsHyphen(out.slice(0, -1), text, lexicon) ? out.slice(0, -1) + text : out + text;
    }
    // "Trace-" + "Monkey": a compound split at its hyphen keeps the hyphen but loses the space.
    else if (/\p{L}-$/u.test(out) && /^\p{Lu}/u.test(text)) out += text;
    // URLs and numbers broken at a hyphen or slash continue without a space.
    else if (/\S-$/.test(out) && /^\p{N}/u.test(text)) out += text;
    else if (/(?:https?:\/\/|www\.)\S*[/.-]$/.test(out)) out += text;
    else if (out.endsWith('\u00ad')) out = out.slice(0, -1) + text;
    else out = !out || joinsWithoutSpace(out, text) ? out + text : `${out} ${text}`;
  }
  return out;
}
