/**
 * The WordprocessingML elements the walker acts on, as small numbers: a Map lookup per tag is much
 * cheaper than a long string switch, and the walk sees every tag of a document.
 */
export const P = 1;
export const R = 2;
export const T = 3;
export const TAB = 4;
export const BR = 5;
export const CR = 6;
export const PPR = 7;
export const RPR = 8;
export const PSTYLE = 9;
export const NUMID = 10;
export const ILVL = 31;
export const OUTLINE = 11;
export const B = 12;
export const I = 13;
export const VERTALIGN = 14;
export const VANISH = 15;
export const RSTYLE = 16;
export const FLDCHAR = 17;
export const NOTEREF = 18;
export const TBL = 19;
export const TR = 20;
export const TC = 21;
export const EXTENT = 22;
export const BLIP = 23;
export const IMAGEDATA = 24;
export const NOTE = 25;
export const SKIP = 26;
export const HYPHEN = 27;
export const SYM = 28;
export const MATH_T = 29;
export const SOFT_HYPHEN = 30;
export const RUBY = 32;
export const RUBY_TEXT = 33;
export const ALT_CHUNK = 34;

export const CODES = new Map<string, number>([
  ['w:p', P],
  ['w:altChunk', ALT_CHUNK],
  ['w:r', R],
  ['w:t', T],
  ['w:tab', TAB],
  ['w:ptab', TAB],
  ['w:br', BR],
  ['w:cr', CR],
  ['w:pPr', PPR],
  ['w:rPr', RPR],
  ['w:pStyle', PSTYLE],
  ['w:numId', NUMID],
  ['w:ilvl', ILVL],
  ['w:outlineLvl', OUTLINE],
  ['w:b', B],
  ['w:i', I],
  ['w:vertAlign', VERTALIGN],
  ['w:vanish', VANISH],
  ['w:rStyle', RSTYLE],
  ['w:fldChar', FLDCHAR],
  ['w:footnoteReference', NOTEREF],
  ['w:endnoteReference', NOTEREF],
  ['w:tbl', TBL],
  ['w:tr', TR],
  ['w:tc', TC],
  ['wp:extent', EXTENT],
  ['a:blip', BLIP],
  ['v:imagedata', IMAGEDATA],
  ['w:footnote', NOTE],
  ['w:endnote', NOTE],
  ['w:noBreakHyphen', HYPHEN],
  ['w:softHyphen', SOFT_HYPHEN],
  ['w:sym', SYM],
  ['m:t', MATH_T],
  ['w:ruby', RUBY],
  ['w:rt', RUBY_TEXT],
  // Subtrees that hold no readable text, or text that must not be read: deletions, old revisions of
  // properties, field instructions, the VML fallback of content also given as DrawingML, and
  // property blocks whose children (w:tabs > w:tab...) would otherwise look like content.
  ...[
    'w:del',
    'w:moveFrom',
    'w:delText',
    'w:delInstrText',
    'w:instrText',
    'w:pPrChange',
    'w:rPrChange',
    'w:sectPrChange',
    'w:tblPrChange',
    'w:tblGridChange',
    'w:trPrChange',
    'w:tcPrChange',
    'w:numberingChange',
    'w:sectPr',
    'w:tblPr',
    'w:tblGrid',
    'w:trPr',
    'w:tcPr',
    'w:tabs',
    'w:sdtPr',
    'w:sdtEndPr',
    'w:footnotePr',
    'w:endnotePr',
    'mc:Fallback',
    'wp:docPr',
    'w:comments',
    'w:rubyPr',
  ].map((name): [string, number] => [name, SKIP]),
]);
