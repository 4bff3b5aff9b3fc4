/**
 * The one place where text from any parser is made safe to store and show: no NUL (PostgreSQL
 * refuses it in text), no other C0/C1 control characters (pdfTeX maths, Word field marks and binary
 * read as text leave them behind), no lone surrogates (invalid in UTF-8), no byte-order marks or
 * non-characters. Line breaks survive: CR, CRLF, VT, FF and NEL become "\n"; tab stays.
 *
 * `keep` names characters a caller still needs as placeholders (the builder's note-link marks in
 * html, swapped for ids when the book is finished).
 */

// Control characters other than tab and line feed, BOMs, non-characters, and surrogates of either
// half (pairs are put back by the replacer; only lone halves are dropped).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\0-\x08\x0b-\x1f\x7f-\x9f\ufeff\ufffe\uffff\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_ALL = /\r\n|[\0-\x08\x0b-\x1f\x7f-\x9f\ufeff\ufffe\uffff]|[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g;
const LINE_BREAKS = new Set(['\r\n', '\r', '\x0b', '\x0c', '\x85']);

export function sanitizeText(text: string, keep?: string): string {
  // The common case (clean text) costs one scan and no copy.
  if (!UNSAFE.test(text)) return text;
  return text.replace(UNSAFE_ALL, (match) => {
    if (match.length === 2 && match !== '\r\n') return match; // a surrogate pair
    if (LINE_BREAKS.has(match)) return '\n';
    return keep?.includes(match) ? match : '';
  });
}
