/**
 * The vocabulary rtf.ts reads RTF with: destinations to skip or to read through, control words that
 * stand for characters, code pages by number.
 */

/** Groups whose content is never text to read. */
export const SKIPPED = new Set(
  [
    // Tables and document-wide settings.
    'fonttbl colortbl stylesheet listtable listoverridetable rsidtbl revtbl filetbl generator themedata',
    'colorschememapping latentstyles datastore xmlnstbl mmathPr pgdsctbl template userprops docvar private',
    'passwordhash wgrffmtfilter mhtmltag htmltag company operator category keywords manager hlinkbase',
    // Pictures, objects' data, shapes' properties and their fallbacks for old readers.
    'pict shppict nonshppict shprslt sp objdata objclass objname nonesttables',
    // Running heads, note separators, field codes, index and TOC entries, bookmarks, list templates.
    'header headerl headerr headerf footer footerl footerr footerf ftnsep ftnsepc aftnsep aftnsepc',
    'fldinst xe tc tcn bkmkstart bkmkend pn pnseclvl pntxta pntxtb fchars lchars',
    // Comments.
    'annotation atnid atnauthor comment',
  ]
    .join(' ')
    .split(' '),
);

/** Control words that stand for one character. */
export const SYMBOLS = new Map<string, string>([
  ['tab', '\t'],
  ['emdash', '\u2014'],
  ['endash', '\u2013'],
  ['emspace', '\u2003'],
  ['enspace', '\u2002'],
  ['qmspace', '\u2005'],
  ['bullet', '\u2022'],
  ['lquote', '\u2018'],
  ['rquote', '\u2019'],
  ['ldblquote', '\u201c'],
  ['rdblquote', '\u201d'],
  ['zwj', '\u200d'],
  ['zwnj', '\u200c'],
  ['zwbo', '\u200b'],
  // Word's line break is its vertical tab, as in binary Word (doc.ts keeps it a line of the paragraph);
  // cell and row ends end a paragraph.
  ['line', '\u000b'],
  ['cell', '\n'],
  ['nestcell', '\n'],
  ['row', '\n'],
  ['nestrow', '\n'],
  ['page', '\n'],
  ['column', '\n'],
  ['sect', '\n'],
]);

/** Groups whose content is read as it comes, \* or not (field results, list numbers, shapes' text). */
export const READ_THROUGH = new Set([
  'fldrslt',
  'result',
  'listtext',
  'pntext',
  'field',
  'object',
  'shp',
  'shpinst',
  'shpgrp',
]);

const ANSI_CODE_PAGES = new Map<number, string>([
  [874, 'windows-874'],
  [932, 'shift_jis'],
  [936, 'gbk'],
  [949, 'euc-kr'],
  [950, 'big5'],
  [10000, 'macintosh'],
  [10007, 'x-mac-cyrillic'],
  [20866, 'koi8-r'],
  [21866, 'koi8-u'],
  [54936, 'gb18030'],
]);

export function codePageOfAnsiCpg(n: number): string | undefined {
  if (n >= 1250 && n <= 1258) return `windows-${n}`;
  if (n >= 28591 && n <= 28606) return `iso-8859-${n - 28590}`;
  return ANSI_CODE_PAGES.get(n);
}

const decoders = new Map<string, TextDecoder>();
export function decoderFor(codePage: string): TextDecoder {
  let decoder = decoders.get(codePage);
  if (!decoder) {
    try {
      decoder = new TextDecoder(codePage);
    } catch {
      decoder = new TextDecoder('windows-1252');
    }
    decoders.set(codePage, decoder);
  }
  return decoder;
}
