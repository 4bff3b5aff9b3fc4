/**
 * Which code page 8-bit Word text is in. Before Unicode, a run's bytes meant what its font's
 * character set said (Windows charset ids), and fonts made for Windows 3.1 often said "ANSI" while
 * holding Cyrillic or Central European letters: their names ("Times New Roman Cyr", "Arial CE")
 * are what tells. Language ids come last: they say what the author set, not how the bytes are coded.
 * Names are WHATWG encoding labels, which TextDecoder knows.
 */

const BY_CHARSET = new Map<number, string>([
  [77, 'macintosh'],
  [128, 'shift_jis'],
  [129, 'euc-kr'],
  [134, 'gbk'],
  [136, 'big5'],
  [161, 'windows-1253'],
  [162, 'windows-1254'],
  [163, 'windows-1258'],
  [177, 'windows-1255'],
  [178, 'windows-1256'],
  [186, 'windows-1257'],
  [204, 'windows-1251'],
  [222, 'windows-874'],
  [238, 'windows-1250'],
]);

/** A font charset's code page; undefined for ANSI (0), DEFAULT (1), SYMBOL (2) and unknown ones. */
export function codePageOfCharset(charset: number): string | undefined {
  return BY_CHARSET.get(charset);
}

const BY_FONT_NAME: [RegExp, string][] = [
  [/\b(?:cyr|cyrillic)\b/i, 'windows-1251'],
  [/\bCE\b|\bcentral europe/i, 'windows-1250'],
  [/\bgreek\b/i, 'windows-1253'],
  [/\b(?:tur|turkish)\b/i, 'windows-1254'],
  [/\bbaltic\b/i, 'windows-1257'],
  [/\bhebrew\b/i, 'windows-1255'],
  [/\barabic\b/i, 'windows-1256'],
];

/** The code page a font's name announces ("Arial Cyr", "Times New Roman CE"), if any. */
export function codePageOfFontName(name: string): string | undefined {
  return BY_FONT_NAME.find(([pattern]) => pattern.test(name))?.[1];
}

/** Primary language (low 10 bits of a Windows LID) → code page of its Windows locale. */
const BY_PRIMARY_LANGUAGE = new Map<number, string>([
  [0x01, 'windows-1256'], // Arabic
  [0x02, 'windows-1251'], // Bulgarian
  [0x05, 'windows-1250'], // Czech
  [0x08, 'windows-1253'], // Greek
  [0x0d, 'windows-1255'], // Hebrew
  [0x0e, 'windows-1250'], // Hungarian
  [0x11, 'shift_jis'], // Japanese
  [0x12, 'euc-kr'], // Korean
  [0x15, 'windows-1250'], // Polish
  [0x18, 'windows-1250'], // Romanian
  [0x19, 'windows-1251'], // Russian
  [0x1b, 'windows-1250'], // Slovak
  [0x1c, 'windows-1250'], // Albanian
  [0x1e, 'windows-874'], // Thai
  [0x1f, 'windows-1254'], // Turkish
  [0x20, 'windows-1256'], // Urdu
  [0x22, 'windows-1251'], // Ukrainian
  [0x23, 'windows-1251'], // Belarusian
  [0x24, 'windows-1250'], // Slovenian
  [0x25, 'windows-1257'], // Estonian
  [0x26, 'windows-1257'], // Latvian
  [0x27, 'windows-1257'], // Lithuanian
  [0x29, 'windows-1256'], // Persian
  [0x2a, 'windows-1258'], // Vietnamese
  [0x2f, 'windows-1251'], // Macedonian
  [0x3f, 'windows-1251'], // Kazakh
]);

/** The code page of a Windows language id's locale; undefined for Western European languages. */
export function codePageOfLanguage(lid: number): string | undefined {
  const primary = lid & 0x3ff;
  if (primary === 0x04) return lid === 0x0804 || lid === 0x1004 ? 'gbk' : 'big5'; // Chinese
  // Serbian and Croatian share a primary id: Cyrillic Serbian (sublanguage 3) and Latin Croatian.
  if (primary === 0x1a) return lid >> 10 === 3 ? 'windows-1251' : 'windows-1250';
  return BY_PRIMARY_LANGUAGE.get(primary);
}
