/**
 * What a file says about itself is often not a title or an author at all: the name of the file it was
 * printed from ("Microsoft Word - report.doc", "SoriaComas_…_rev2.pdf"), a typesetter's job number
 * ("88300 162..177"), a placeholder ("Untitled", "Document1", 无标题), the program that made it
 * ("Adobe Photoshop PDF") or the account of whoever typed it ("Administrator", "pc", "office-2007").
 * Such values are dropped here, so that the wizard falls back to the file name (SPEC §5.4) instead of
 * proposing, and translating, rubbish.
 */
import { shorten } from '../builder.ts';
import { decodeEntities } from '../markup.ts';
import { sanitizeText } from '../sanitize.ts';

export const MAX_TITLE = 300;
export const MAX_AUTHOR = 200;
export const MAX_DESCRIPTION = 5000;

/** Values as the file gives them, best first: the first acceptable one of each list is kept. */
export interface RawMetadata {
  titles?: (string | undefined)[];
  authors?: (string | undefined)[];
  descriptions?: (string | undefined)[];
  /** The programs that made the file (PDF Creator/Producer, app.xml Application, a template's name). */
  producers?: (string | undefined)[];
}

export interface CleanMetadata {
  title?: string;
  author?: string;
  description?: string;
}

/** Text made safe and flat: no control characters, markup or runs of whitespace. */
export function flatText(value: string | undefined): string {
  if (!value) return '';
  return sanitizeText(value)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^《(.+)》$/, '$1');
}

const FILE_EXTENSION =
  /\.(pdf|docx?|dotx?|dotm|txt|epub|mobi|azw3?|rtf|odt|ott|wpd|wps|pages|html?|xml|tex|dvi|e?ps|indd?|idml|qxd|qxp|pmd|p65|fm|ai|psd|tiff?|jpe?g|png|gif|bmp|pptx?|xlsx?|cdr|graffle|djvu|xps|oxps|md)$/i;

/** Titles and descriptions that only hold a place (any language the interface speaks, and a few more). */
const PLACEHOLDER =
  /^(untitled( document)?|no title|none|null|n\/a|title|subject|description|document|new document|doc|book|ebook|pdf|slide|presentation|microsoft word document|word document|pdf document|scanned document|scan|image|img|sans titre|sans nom|sin t[ií]tulo|ohne titel|unbenannt|senza titolo|без названия|безымянный|тема|無題|无题|无标题(文档)?|未命名|未命名文档|新建文档|新建 ?microsoft word 文档|文档|标题|主题|題名なし|タイトルなし|제목 ?없음|제목)[\s_#-]*[\d.]*$/i;

/** What programs write where a title should be, whatever the file's own producer fields say. */
const PROGRAM_TITLE =
  /^((adobe )?(photoshop|illustrator|indesign|acrobat)( pdf| document)?|microsoft (office )?(word|powerpoint|excel)( document)?|pscript5\.dll|powerpoint presentation|writer|calc|impress)$/i;

/** "Microsoft Word - thesis.docx": a print of a document, named after the file. */
const PRINTED_FROM = /^(microsoft (office )?)?(word|powerpoint|excel|outlook)\s+-\s+/i;

/** Accounts and machines that office programs take for the author. */
const ACCOUNT_AUTHOR =
  /^(admin|administrator|administrador|administrateur|user|users|owner|windows user|microsoft office user|office user|microsoft|unknown|anonymous|anonyme|anónimo|author|authors|auteur|autor|your name|name|preferred customer|valued customer|registered user|default|guest|test|home|pc|dell|hp|lenovo|acer|asus|toshiba|localuser|root|system|作者|佚名|无名氏|無名氏|不署撰人|不详|不詳|未知|用户|用戶|微软用户|微軟用戶|微软中国|微软|管理员|系统管理员|ユーザー|사용자)[\s_#-]*[\d.]*$/i;

const hasLetter = (text: string) => /\p{L}/u.test(text);

/** Letters of a legacy code page shown as Latin-1 ("Ãû³Æ"): most letters from U+0080-U+00FF and no plain words. */
function looksMisdecoded(text: string): boolean {
  if (text.includes('\ufffd')) return true;
  const letters = text.match(/\p{L}/gu) ?? [];
  const latin1 = letters.filter((c) => c >= '\u0080' && c <= '\u00ff').length;
  return letters.length > 0 && latin1 / letters.length > 0.4 && !/[a-z]{3}/i.test(text);
}

function looksLikeFileName(text: string): boolean {
  if (FILE_EXTENSION.test(text)) return true;
  if (/^(file:|[a-z]:\\|\/|\\\\|https?:\/\/)/i.test(text)) return true;
  // Words joined by underscores, no spaces: a name a person gave a file, not a book.
  return !/\s/.test(text) && text.includes('_');
}

/** True when `value` is (a variant of) the name of a program that made the file. */
function isProducer(value: string, producers: (string | undefined)[]): boolean {
  const lower = value.toLowerCase();
  const words = lower.split(' ');
  for (const producer of producers) {
    const p = flatText(producer)
      .toLowerCase()
      .replace(/\.(dotx?|dotm)$/, '');
    if (!p) continue;
    if (lower === p) return true;
    // "Adobe Photoshop PDF" beside "Adobe Photoshop CC 2015 (Macintosh)": the same program's words.
    const theirs = p.split(' ');
    if (words.length <= 4 && theirs.length >= 2 && words[0] === theirs[0] && words[1] === theirs[1]) return true;
  }
  return false;
}

export function cleanTitle(value: string | undefined, producers: (string | undefined)[] = []): string | undefined {
  const text = flatText(value);
  // Without letters it is a number ("88300 162..177", a date), unless it is one short number ("1984").
  if (!text || (!hasLetter(text) && !/^\d{1,4}$/.test(text)) || text.length > MAX_TITLE) return undefined;
  if (PRINTED_FROM.test(text) || looksLikeFileName(text) || looksMisdecoded(text)) return undefined;
  if (PLACEHOLDER.test(text) || PROGRAM_TITLE.test(text) || isProducer(text, producers)) return undefined;
  return text;
}

export function cleanAuthor(value: string | undefined, producers: (string | undefined)[] = []): string | undefined {
  const text = flatText(value)
    .replace(/^(by|von|par|por|作者[:：]?|著者[:：]?)\s+/i, '')
    // Bracketed notes ("[FAMILY Given]" of DocBook tools, "[ed.]") and the separators they leave.
    .replace(/\s*\[[^\]]{0,40}\]/g, '')
    .replace(/\s*,\s*[、,]\s*/g, ', ');
  if (!text || !hasLetter(text) || looksMisdecoded(text) || looksLikeFileName(text)) return undefined;
  if (ACCOUNT_AUTHOR.test(text) || PROGRAM_TITLE.test(text) || isProducer(text, producers)) return undefined;
  if (!/\s/.test(text)) {
    // One token: a login ("vbiryukova", "i"), a machine ("office-2007", "PC-2014") or an address.
    if (/^[a-z0-9._-]+$/.test(text) || /\d/.test(text) || text.includes('@')) return undefined;
    if (/^\p{L}+[._]\p{L}+$/u.test(text)) return undefined; // "Lorraine.wise"
  }
  return shorten(text, MAX_AUTHOR - 1); // the ellipsis included
}

export function cleanDescription(value: string | undefined, title?: string): string | undefined {
  // Descriptions are often HTML, sometimes escaped once more (`&lt;p&gt;`).
  const unmarked = (text: string) => decodeEntities(text.replace(/<[^>]*>/g, ' '));
  const text = flatText(unmarked(unmarked(value ?? '')));
  if (!text || !hasLetter(text) || looksMisdecoded(text) || PLACEHOLDER.test(text)) return undefined;
  if (title && text.toLowerCase() === title.toLowerCase()) return undefined;
  return shorten(text, MAX_DESCRIPTION - 1);
}

/** The first acceptable title, author and description. */
export function cleanMetadata(raw: RawMetadata): CleanMetadata {
  const producers = raw.producers ?? [];
  const out: CleanMetadata = {};
  const title = (raw.titles ?? []).map((t) => cleanTitle(t, producers)).find(Boolean);
  if (title) out.title = title;
  const author = (raw.authors ?? []).map((a) => cleanAuthor(a, producers)).find(Boolean);
  if (author) out.author = author;
  const description = (raw.descriptions ?? []).map((d) => cleanDescription(d, title)).find(Boolean);
  if (description) out.description = description;
  return out;
}
