/**
 * The title, author, description and cover a book file declares, read at upload time, in the API
 * request: no parse of the text, only the few parts that hold them (EPUB: the package document; DOCX:
 * docProps; PDF: the Info dictionary and XMP, see metadata-pdf.ts; DOC: the summary information,
 * see metadata-ole.ts; TXT: a Project Gutenberg-style,
 * Aozora Bunko or Chinese header at the top). Every read is capped (the ZIP caps of zip.ts, small
 * byte limits per part) and the package document is scanned flat, in linear time, rather than built
 * into a tree, so a hostile file costs milliseconds. Values that are not really a title or an author
 * are dropped (metadata-clean.ts). Never throws: a file whose metadata cannot be read has none.
 */
import { imageInfo } from '../image-info.ts';
import { decodeEntities, declaresEntities } from '../markup.ts';
import { repairMojibakeText } from '../mojibake.ts';
import { cleanMetadata, type CleanMetadata, type RawMetadata } from './metadata-clean.ts';
import { readOleMetadata } from './metadata-ole.ts';
import { readPdfMetadata } from './metadata-pdf.ts';
import { isRtf, readRtf } from '../rtf/rtf.ts';
import { isWebPage, webPageMetadata } from '../doc/word-html.ts';
import { wordXmlKind, wordXmlMetadata } from '../doc/word-xml.ts';
import { decodeText } from '../txt/txt.ts';
import type { BookFormat } from '../types.ts';
import { resolveZipPath, SafeZip } from '../zip.ts';

export interface FileMetadata extends CleanMetadata {
  cover?: { data: Buffer; mediaType: string };
}

const MAX_CONTAINER = 64 * 1024;
const MAX_PACKAGE = 4 * 1024 * 1024;
const MAX_PROPERTIES = 256 * 1024;
const MAX_COVER = 10 * 1024 * 1024;
const TEXT_HEAD = 32 * 1024;
const COVER_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export async function readFileMetadata(input: Buffer, format: BookFormat): Promise<FileMetadata> {
  try {
    switch (format) {
      case 'epub':
        return await epubMetadata(input);
      case 'docx':
        return await docxMetadata(input);
      case 'pdf':
        return cleanMetadata(readPdfMetadata(input));
      case 'txt':
        return cleanMetadata(textHeaderMetadata(textHead(input)));
      case 'doc':
        if (isRtf(input)) return cleanMetadata(rtfMetadata(input));
        if (wordXmlKind(input)) {
          const { title, author } = wordXmlMetadata(input);
          return cleanMetadata({ titles: [title], authors: [author] });
        }
        if (isWebPage(input)) {
          const { title, author } = webPageMetadata(input);
          return cleanMetadata({ titles: [title], authors: [author] });
        }
        return cleanMetadata(readOleMetadata(input));
    }
  } catch {
    return {};
  }
}

/** RTF keeps its \\info group in the header: the first 256 KiB are read, never the whole body. */
function rtfMetadata(input: Buffer): RawMetadata {
  const { title, author, description } = readRtf(input.subarray(0, 256 * 1024));
  return { titles: [title], authors: [author], descriptions: [description] };
}

// ---------- XML, flat ----------

interface FlatElement {
  /** Lower-cased, prefix kept. */
  name: string;
  attrs: Record<string, string>;
  /** Inner text, markup removed and entities decoded; '' for an empty element. */
  text: string;
}

const TAG = /<([A-Za-z_][\w.:-]*)((?:\s[^<>]*)?)>/g;
const ATTR = /([^\s=/>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * The elements named in `names` (lower case, prefix included), with their attributes and text, in
 * document order. Nesting is not followed (these elements hold text only) and each close tag is found
 * with indexOf, so the scan is linear whatever the input.
 */
function flatElements(xml: string, names: Set<string>, max = 2000): FlatElement[] {
  const out: FlatElement[] = [];
  // Names whose close tag is missing from some point on: it is missing after every later point too.
  const unclosed = new Set<string>();
  TAG.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = TAG.exec(xml)) !== null && out.length < max) {
    const name = match[1]!.toLowerCase();
    if (!names.has(name)) continue;
    let attrSource = match[2] ?? '';
    const selfClosing = attrSource.endsWith('/');
    if (selfClosing) attrSource = attrSource.slice(0, -1);
    const attrs: Record<string, string> = {};
    ATTR.lastIndex = 0;
    let attr: RegExpExecArray | null;
    while ((attr = ATTR.exec(attrSource)) !== null)
      attrs[attr[1]!.toLowerCase()] ??= decodeEntities(attr[2] ?? attr[3] ?? '');
    let text = '';
    if (!selfClosing && !unclosed.has(match[1]!)) {
      const close = xml.indexOf(`</${match[1]}`, TAG.lastIndex);
      if (close === -1) unclosed.add(match[1]!);
      else {
        text = decodeEntities(
          xml
            .slice(TAG.lastIndex, close)
            .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
            .replace(/<[^>]*>/g, ''),
        );
        TAG.lastIndex = close;
      }
    }
    out.push({ name, attrs, text: text.replace(/\s+/g, ' ').trim() });
  }
  return out;
}

// ---------- EPUB ----------

async function epubMetadata(input: Buffer): Promise<FileMetadata> {
  const zip = await SafeZip.open(input);
  const container = await zip.readText('META-INF/container.xml', MAX_CONTAINER).catch(() => undefined);
  let opfPath = container ? flatElements(container, new Set(['rootfile']))[0]?.attrs['full-path'] : undefined;
  if (!opfPath || !zip.has(opfPath)) opfPath = zip.names().find((n) => n.toLowerCase().endsWith('.opf'));
  if (!opfPath) return {};
  const opf = await zip.readText(opfPath, MAX_PACKAGE);
  // The parser refuses such packages (billion laughs); so do we.
  if (!opf || declaresEntities(opf)) return {};

  const metadataEnd = opf.search(/<\/(?:[\w-]+:)?metadata\s*>/i);
  const metadata = flatElements(
    metadataEnd === -1 ? opf : opf.slice(0, metadataEnd),
    new Set(['dc:title', 'dc:creator', 'dc:description', 'meta', 'title', 'creator', 'description']),
  );
  const dc = (name: string) => metadata.filter((e) => e.name === `dc:${name}` || e.name === name);
  // EPUB 3 says what each title or creator is with <meta refines="#id" property="...">.
  const refined = (id: string | undefined, property: string) =>
    id === undefined
      ? undefined
      : metadata.find((e) => e.name === 'meta' && e.attrs.refines === `#${id}` && e.attrs.property === property)?.text;

  const titles = dc('title').filter((t) => t.text);
  const main = titles.find((t) => refined(t.attrs.id, 'title-type') === 'main');
  const title = main ?? titles.find((t) => !refined(t.attrs.id, 'title-type')) ?? titles[0];

  const creators = dc('creator').filter((c) => c.text);
  const roleOf = (c: FlatElement) => c.attrs['opf:role'] ?? refined(c.attrs.id, 'role');
  const authors = creators.filter((c) => roleOf(c) === undefined || roleOf(c) === 'aut');
  const names = [...new Set((authors.length ? authors : creators).map((c) => c.text))];

  const clean = cleanMetadata({
    titles: [title?.text],
    authors: [names.join(', ')],
    descriptions: dc('description').map((d) => d.text),
  });
  const cover = await epubCover(zip, opf, opfPath, metadata);
  return cover ? { ...clean, cover } : clean;
}

/** The cover image the package names: EPUB 3 `cover-image`, EPUB 2 `<meta name="cover">`, else an image called cover. */
async function epubCover(
  zip: SafeZip,
  opf: string,
  opfPath: string,
  metadata: FlatElement[],
): Promise<FileMetadata['cover']> {
  const items = flatElements(opf, new Set(['item']), 100_000).map((i) => ({
    id: i.attrs.id ?? '',
    href: i.attrs.href ?? '',
    type: (i.attrs['media-type'] ?? '').toLowerCase(),
    properties: (i.attrs.properties ?? '').split(/\s+/),
  }));
  const named = metadata.find((e) => e.name === 'meta' && e.attrs.name?.toLowerCase() === 'cover')?.attrs.content;
  const item =
    items.find((i) => i.properties.includes('cover-image')) ??
    items.find((i) => i.id === named && COVER_TYPES.has(i.type)) ??
    items.find((i) => COVER_TYPES.has(i.type) && /cover/i.test(i.id + i.href));
  if (!item?.href) return undefined;
  return readCover(zip, resolveZipPath(opfPath, item.href));
}

async function readCover(zip: SafeZip, path: string): Promise<FileMetadata['cover']> {
  const declared = zip.declaredSize(path);
  if (declared === undefined || declared > MAX_COVER) return undefined;
  const data = await zip.read(path, MAX_COVER).catch(() => undefined);
  const info = data ? imageInfo(data) : undefined;
  // A copy: the upload's buffer is not kept alive by a cover that outlives it.
  return data && info && COVER_TYPES.has(info.mediaType)
    ? { data: Buffer.from(data), mediaType: info.mediaType }
    : undefined;
}

// ---------- DOCX ----------

async function docxMetadata(input: Buffer): Promise<FileMetadata> {
  const zip = await SafeZip.open(input);
  const core = (await zip.readText('docProps/core.xml', MAX_PROPERTIES).catch(() => undefined)) ?? '';
  const app = (await zip.readText('docProps/app.xml', MAX_PROPERTIES).catch(() => undefined)) ?? '';
  if (declaresEntities(core) || declaresEntities(app)) return {};
  const fields = flatElements(core, new Set(['dc:title', 'dc:creator', 'dc:description']));
  const field = (name: string) => fields.find((f) => f.name === name)?.text;
  const program = flatElements(app, new Set(['application', 'template']));
  const clean = cleanMetadata({
    titles: [field('dc:title')],
    authors: [field('dc:creator')],
    descriptions: [field('dc:description')],
    producers: program.map((p) => p.text),
  });
  // Word saves a picture of the first page when asked to ("Save preview picture").
  const thumbnail = zip.names().find((n) => /^docProps\/thumbnail\.(jpe?g|png)$/i.test(n));
  const cover = thumbnail ? await readCover(zip, thumbnail) : undefined;
  return cover ? { ...clean, cover } : clean;
}

// ---------- TXT ----------

/** The first 32 KiB decoded, cut at a line end so that no character is split. */
function textHead(input: Buffer): string {
  let head = input.subarray(0, TEXT_HEAD);
  if (input.length > TEXT_HEAD) {
    const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
    let end = head.lastIndexOf(0x0a);
    if (utf16 && end > 0)
      end = end % 2 === 0 ? end + 2 : end + 1; // the newline's second byte
    else end += 1;
    if (end > 0) head = head.subarray(0, end);
  }
  const text = decodeText(head)
    .text.replace(/^\ufeff/, '')
    .replace(/\r\n?/g, '\n')
    .replaceAll('\u0000', '');
  return repairMojibakeText(text)?.text ?? text;
}

/**
 * A title and author written at the top of a plain text: "Title:" and "Author:" lines (Project
 * Gutenberg and its imitators), Aozora Bunko's title and author lines above its notation legend,
 * 作者： after a Chinese title, or a title followed by a "by Author" line.
 */
export function textHeaderMetadata(text: string): RawMetadata {
  const start = /^\*{3}\s*START OF (THE|THIS) PROJECT GUTENBERG/im.exec(text);
  const header = start ? text.slice(0, start.index) : text.split('\n').slice(0, 60).join('\n');
  // A long value goes on over indented lines.
  const field = (name: string) =>
    new RegExp(`^${name}:[ \\t]*(.+(?:\\n[ \\t]+\\S.*)*)`, 'im').exec(header)?.[1]?.replace(/\s+/g, ' ').trim();
  const title = field('Title');
  if (title) return { titles: [title], authors: [field('Author')] };
  // Older etexts name the book in their first line only.
  const named = /^\W*(?:The )?Project Gutenberg(?:'s)?(?: E-?text| e-?book)?(?: of)? (.+?),? by (.+)$/im.exec(
    header.slice(0, 2000),
  );
  if (named) return { titles: [named[1]], authors: [named[2]] };

  const lines = text.split('\n', 80).map((l) => l.trim());
  const filled = lines.filter(Boolean);
  // Aozora Bunko: title, author, then the legend between dashed rules.
  const rule = filled.slice(0, 4).findIndex((l) => /^-{20,}$/.test(l));
  if (rule >= 1 && /［＃[^］]*］|《[\u3040-\u30ff]{1,20}》/.test(text)) {
    return { titles: [filled[0]], authors: [rule >= 2 ? filled[1] : undefined] };
  }
  const authorLine = lines.slice(0, 30).findIndex((l) => /^(作者|作\s*者|著者)[:：]\s*\S/.test(l));
  if (authorLine !== -1) {
    const title = lines
      .slice(0, authorLine)
      .reverse()
      .find((l) => l && l.length <= 40 && !/[:：]|http/.test(l));
    return { titles: [title], authors: [lines[authorLine]!.replace(/^(作者|作\s*者|著者)[:：]\s*/, '')] };
  }
  // "Frankenstein; / or, the Modern Prometheus / by Mary Shelley" opening the text.
  const by = filled.slice(1, 4).findIndex((l) => /^by\s+\S/i.test(l));
  if (by !== -1 && filled.slice(0, by + 1).every((l) => l.length <= 80)) {
    return { titles: [filled.slice(0, by + 1).join(' ')], authors: [filled[by + 1]!.replace(/^by\s+/i, '')] };
  }
  return {};
}
