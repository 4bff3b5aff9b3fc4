/**
 * The characters of a PDF text item made into ordinary text. Fonts draw shapes, and a PDF's Unicode
 * map often names the shape rather than the character: Arabic letters in their joined forms
 * (U+FE70–U+FEFF) and ligatures (U+FB50–U+FDFF), Latin ligatures (ﬁ), vertical punctuation of
 * Japanese and Chinese set in columns (︒ ﹁), and TeX's accents drawn as separate glyphs before
 * their letter ("na¨ıve"). Search, translation and reading aloud want the characters.
 */

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\0-\x08\x0b-\x1f\x7f-\x9f]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\0-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Compatibility characters that stand for others: pdf.js's own list (ligatures, Hebrew and Arabic
 * presentation forms, spaces of other widths), every Arabic presentation form, and the half-width
 * forms of CJK fonts are left alone (they are what the text says).
 */
const PRESENTATION_FORM =
  /[\u00a0\u00b5\u037e\u0eb3\u2000-\u200a\u202f\u2126\ufb00-\ufb06\ufb13-\ufb17\ufb1d-\ufb4f\ufb50-\ufdff\ufe70-\ufefe]+/gu;

/**
 * Vertical presentation forms to the punctuation they are drawn for. NFKC would make ASCII of some
 * ("︵" → "("), where a Japanese or Chinese text has full-width forms.
 */
const VERTICAL_FORMS: Record<string, string> = {
  '\ufe10': '，',
  '\ufe11': '、',
  '\ufe12': '。',
  '\ufe13': '：',
  '\ufe14': '；',
  '\ufe15': '！',
  '\ufe16': '？',
  '\ufe17': '〖',
  '\ufe18': '〗',
  '\ufe19': '…',
  '\ufe30': '‥',
  '\ufe31': '—',
  '\ufe32': '–',
  '\ufe33': '＿',
  '\ufe34': '＿',
  '\ufe35': '（',
  '\ufe36': '）',
  '\ufe37': '｛',
  '\ufe38': '｝',
  '\ufe39': '〔',
  '\ufe3a': '〕',
  '\ufe3b': '【',
  '\ufe3c': '】',
  '\ufe3d': '《',
  '\ufe3e': '》',
  '\ufe3f': '〈',
  '\ufe40': '〉',
  '\ufe41': '「',
  '\ufe42': '」',
  '\ufe43': '『',
  '\ufe44': '』',
  '\ufe47': '［',
  '\ufe48': '］',
};
const VERTICAL_FORM = /[\ufe10-\ufe19\ufe30-\ufe44\ufe47\ufe48]/g;

/** Spacing accents (as TeX's OT1 fonts draw them, before the letter) and their combining marks. */
const SPACING_ACCENTS: Record<string, string> = {
  '\u00b4': '\u0301',
  '\u02dd': '\u030b',
  '\u00a8': '\u0308',
  '\u02c6': '\u0302',
  '\u02dc': '\u0303',
  '\u02c7': '\u030c',
  '\u02d8': '\u0306',
  '\u02d9': '\u0307',
  '\u02da': '\u030a',
  '\u00af': '\u0304',
  '\u00b8': '\u0327',
  '\u02db': '\u0328',
};
/** An accent glyph straight before a letter (dotless i and j take the accent in TeX: "¨ı" is "ï"). */
const ACCENT_BEFORE_LETTER = /([\u00b4\u02dd\u00a8\u02c6\u02dc\u02c7\u02d8\u02d9\u02da\u00af\u00b8\u02db])(\p{L})/gu;
const COMBINING = /\p{M}/u;
/** Any character normalizeItemText changes (most items have none: one scan, and done). */
const NEEDS_WORK =
  // eslint-disable-next-line no-control-regex -- control characters are among them
  /[\0-\x1f\x7f-\xa0\xa8\xaf\xb4\xb5\xb8\u02c6-\u02dd\u037e\u0eb3\u2000-\u200a\u202f\u2126\ufb00-\ufdff\ufe10-\ufe4f\ufe70-\ufefe]|\p{M}/u;
/** Accents or marks that composeAccents may put together. */
const MAY_COMPOSE = /[\xa8\xaf\xb4\xb8\u02c6-\u02dd]|\p{M}/u;

/** Whether a text has accents or marks composeAccents may compose. */
export function mayCompose(text: string): boolean {
  return MAY_COMPOSE.test(text);
}

/**
 * The text of one item: presentation forms to their letters, vertical forms to ordinary punctuation,
 * accent glyphs onto their letters, and control characters (glyph ids of fonts without a Unicode
 * map, pdfTeX's maths) to spaces: removed later, they would join the words they stood between.
 */
export function normalizeItemText(str: string): string {
  if (!NEEDS_WORK.test(str)) return str;
  let out = str;
  if (CONTROL.test(out)) out = out.replace(CONTROLS, ' ');
  out = out.replace(PRESENTATION_FORM, (run) => run.normalize('NFKC'));
  out = out.replace(VERTICAL_FORM, (ch) => VERTICAL_FORMS[ch] ?? ch);
  return composeAccents(out);
}

/** "¨ı" → "ï", "´e" → "é"; marks already after their letters are composed where Unicode can. */
export function composeAccents(text: string): string {
  let out = text.replace(ACCENT_BEFORE_LETTER, (_, accent: string, letter: string) => {
    const base = letter === 'ı' ? 'i' : letter === 'ȷ' ? 'j' : letter;
    return base + SPACING_ACCENTS[accent]!;
  });
  if (COMBINING.test(out)) out = out.normalize('NFC');
  return out;
}

/** Whether a text is only combining marks (an accent pdf.js gave as an item of its own). */
export function isCombiningOnly(text: string): boolean {
  return text.length > 0 && /^\p{M}+$/u.test(text);
}
