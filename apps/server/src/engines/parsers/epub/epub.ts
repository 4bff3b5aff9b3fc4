/**
 * EPUB 2/3: container.xml → OPF (metadata, manifest, spine) → nav document or NCX for the table of
 * contents → XHTML bodies → blocks. Chapters are the TOC entries, split at the exact element a TOC link
 * points to (one spine file often holds several chapters, or one chapter spans several files).
 */
import { BookBuilder, nameTocChapters } from '../builder.ts';
import { htmlToBlocks } from '../blocks.ts';
import type { BlockDraft } from '../blocks.ts';
import { PARSE_LIMITS } from '../limits.ts';
import { ParseError, throwIfAborted } from '../errors.ts';
import { imageInfo } from '../image-info.ts';
import { byLocalName, declaresEntities, findAll, findFirst, localName, parseMarkup, textContent } from '../markup.ts';
import type { MarkupElement } from '../markup.ts';
import { repeatedAltTexts } from '../mathml.ts';
import type { BookParser, ParseOptions, ParsedBook } from '../types.ts';
import { epubType, isRemote, pickChapterEntries, readNav, readNcx } from './epub-toc.ts';
import type { TocEntry } from './epub-toc.ts';
import { resolveZipPath, SafeZip } from '../zip.ts';
import { isDrawing } from '../svg/svg-safe.ts';
import { loadSvgPictures, type SvgSource } from './epub-svg.ts';

interface ManifestItem {
  id: string;
  path: string;
  mediaType: string;
  properties: string[];
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);
const NOTE_TYPES = /\b(footnote|endnote|rearnote|note)\b/;
const NOTES_CONTAINER_TYPES = /\b(footnotes|endnotes|rearnotes)\b/;

function parseXml(source: string, what: string): MarkupElement {
  if (declaresEntities(source)) {
    throw new ParseError('fileTooComplex', `${what} declares XML entities, which we refuse`);
  }
  return parseMarkup(source);
}

const IMAGE_EXTENSIONS = /\.(?:jpe?g|png|gif|webp)$/i;
const SVG_TYPE = 'image/svg+xml';
const MARKUP_EXTENSIONS = /\.(?:x?html?|xml|svg)$/i;
/** Declared types that are surely not content documents: never read as markup, whatever the name. */
const NOT_CONTENT =
  /^(?:text\/(?:css|javascript)|(?:audio|video|font|model)\/|application\/(?:font|vnd\.ms-opentype|x-font|javascript|pdf|zip))/;

/**
 * What a spine item is, from its media type and, when a sloppy package declares a wrong one
 * (text/plain, application/octet-stream), from its file name: markup to read, a picture shown as a
 * page, something to try (`unknown`: read if it looks like markup) or `other` (CSS, fonts...).
 */
function spineKind(item: ManifestItem): 'markup' | 'image' | 'unknown' | 'other' {
  if (/x?html|xml/.test(item.mediaType)) return 'markup';
  if (IMAGE_TYPES.has(item.mediaType)) return 'image';
  if (NOT_CONTENT.test(item.mediaType)) return 'other';
  if (MARKUP_EXTENSIONS.test(item.path)) return 'markup';
  if (IMAGE_EXTENSIONS.test(item.path)) return 'image';
  return 'unknown';
}

function looksLikeMarkup(text: string): boolean {
  return /^\s*(?:<\?xml|<!DOCTYPE|<html|<svg|<body)/i.test(text.slice(0, 1024));
}

/**
 * A content document's text; a damaged entry is skipped like a missing one, a bomb still refuses, and
 * so does a document too large to hold as a tree (PARSE_LIMITS.markupDocumentBytes).
 */
async function readContentDocument(zip: SafeZip, path: string): Promise<string | undefined> {
  try {
    return await zip.readText(path, PARSE_LIMITS.markupDocumentBytes);
  } catch (error) {
    if (error instanceof ParseError && error.key === 'fileCorrupted') return undefined;
    throw error;
  }
}

export const epubParser: BookParser = {
  format: 'epub',
  async parse(input: Buffer, options: ParseOptions = {}): Promise<ParsedBook> {
    const started = performance.now();
    if (input.length === 0) throw new ParseError('emptyFile', 'The file is empty');
    const zip = await SafeZip.open(input);
    const book = new BookBuilder();

    // 1. Find the package document.
    let opfPath: string | undefined;
    const container = await zip.readText('META-INF/container.xml');
    if (container) {
      const rootfile = findFirst(parseXml(container, 'container.xml'), byLocalName('rootfile'));
      const fullPath = rootfile?.attrs['full-path'];
      if (fullPath) opfPath = zip.resolve(resolveZipPath('', fullPath));
    }
    if (!opfPath) {
      // No container (or one naming a missing file): the package document is the .opf in the zip,
      // the shallowest one if a sloppy tool left several.
      const candidates = zip.names().filter((n) => n.toLowerCase().endsWith('.opf'));
      opfPath = candidates.sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))[0];
      if (opfPath) book.warn('META-INF/container.xml missing or wrong; used the .opf file found in the archive');
    }
    if (!opfPath) throw new ParseError('fileCorrupted', 'No EPUB package document (.opf) found');
    const opf = parseXml((await zip.readText(opfPath))!, 'The package document');

    // 2. DRM check: encryption.xml is legitimately used for font obfuscation, which we simply ignore.
    const encryption = await zip.readText('META-INF/encryption.xml');
    const encryptedPaths = new Set<string>();
    if (encryption) {
      for (const data of findAll(parseXml(encryption, 'encryption.xml'), byLocalName('encrypteddata'))) {
        const method = findFirst(data, byLocalName('encryptionmethod'))?.attrs.algorithm ?? '';
        const uri = findFirst(data, byLocalName('cipherreference'))?.attrs.uri;
        if (uri && !FONT_OBFUSCATION.has(method)) encryptedPaths.add(resolveZipPath('', uri));
      }
    }

    // 3. Metadata.
    const metadataEl = findFirst(opf, byLocalName('metadata')) ?? opf;
    const dc = (name: string) =>
      findAll(metadataEl, (e) => e.name === `dc:${name}` || (e.name === name && name !== 'title'))
        .map((e) => textContent(e))
        .filter(Boolean);
    const titles = dc('title');
    book.metadata = {
      title: titles[0],
      author: dc('creator').join(', ') || undefined,
      language: dc('language')[0],
      description: dc('description')[0]?.replace(/<[^>]*>/g, ' '),
      publisher: dc('publisher')[0],
    };

    // 4. Manifest and spine.
    const manifest = new Map<string, ManifestItem>();
    const byPath = new Map<string, ManifestItem>();
    for (const item of findAll(opf, byLocalName('item'))) {
      const id = item.attrs.id;
      const href = item.attrs.href;
      if (!id || !href) continue;
      const entry: ManifestItem = {
        id,
        path: resolveZipPath(opfPath, href),
        mediaType: (item.attrs['media-type'] ?? '').toLowerCase(),
        properties: (item.attrs.properties ?? '').split(/\s+/).filter(Boolean),
      };
      manifest.set(id, entry);
      byPath.set(entry.path, entry);
    }
    const spineEl = findFirst(opf, byLocalName('spine'));
    const spine: ManifestItem[] = [];
    for (const ref of spineEl ? findAll(spineEl, byLocalName('itemref')) : []) {
      const item = manifest.get(ref.attrs.idref ?? '');
      if (!item) book.warn(`Spine item ${ref.attrs.idref ?? '?'} is not in the manifest`);
      else if (spineKind(item) !== 'other') spine.push(item);
    }
    if (spine.length === 0) {
      // Broken OPF: fall back to every content document of the manifest, in its order (the
      // navigation document is not content: its list of chapters is not the book).
      for (const item of manifest.values()) {
        if (spineKind(item) === 'markup' && !item.properties.includes('nav')) spine.push(item);
      }
      if (spine.length) book.warn('Empty spine; used every XHTML file of the manifest');
    }
    if (spine.length === 0) throw new ParseError('fileCorrupted', 'The EPUB has no readable content documents');
    if (spine.some((s) => encryptedPaths.has(s.path))) {
      throw new ParseError('fileDrmProtected', 'The EPUB content is encrypted (DRM)');
    }

    // 5. Cover.
    let coverItem = [...manifest.values()].find((m) => m.properties.includes('cover-image'));
    if (!coverItem) {
      const meta = findAll(metadataEl, byLocalName('meta')).find((m) => m.attrs.name?.toLowerCase() === 'cover');
      const candidate = meta?.attrs.content ? manifest.get(meta.attrs.content) : undefined;
      coverItem = candidate && IMAGE_TYPES.has(candidate.mediaType) ? candidate : undefined;
    }
    if (!coverItem) {
      coverItem = [...manifest.values()].find((m) => IMAGE_TYPES.has(m.mediaType) && /cover/i.test(m.id + m.path));
    }
    if (coverItem) {
      const data = await zip.read(coverItem.path).catch(() => undefined);
      const info = data ? imageInfo(data) : undefined;
      if (data && info && data.length <= MAX_IMAGE_BYTES) book.cover = { data, mediaType: info.mediaType };
    }

    // 6. Table of contents: EPUB 3 nav first, then NCX.
    let toc: TocEntry[] = [];
    const navItem = [...manifest.values()].find((m) => m.properties.includes('nav'));
    if (navItem) {
      const navText = await zip.readText(navItem.path).catch(() => undefined);
      if (navText) toc = readNav(parseXml(navText, 'The navigation document'), navItem.path);
    }
    if (toc.length === 0) {
      const ncxId = spineEl?.attrs.toc;
      const ncxItem =
        (ncxId ? manifest.get(ncxId) : undefined) ??
        [...manifest.values()].find((m) => m.mediaType === 'application/x-dtbncx+xml');
      const ncxText = ncxItem ? await zip.readText(ncxItem.path).catch(() => undefined) : undefined;
      if (ncxItem && ncxText) toc = readNcx(parseXml(ncxText, 'The NCX'), ncxItem.path);
    }
    const spinePaths = new Set(spine.map((s) => s.path));
    const chapterEntries = pickChapterEntries(toc, spinePaths);
    options.onProgress?.(0.1);

    // 7. Load every spine document once; collect ids and links so notes can be recognised.
    const docs: { item: ManifestItem; root: MarkupElement; ids: Set<string> }[] = [];
    const noterefTargets = new Set<string>();
    const linkTargets = new Set<string>();
    /** What the first marker of each note shows ("60"): the note's label when its text has none. */
    const markerLabels = new Map<string, string>();
    for (const item of spine) {
      throwIfAborted(options.signal);
      if (spineKind(item) === 'image') {
        // A page that is a picture (comics, fixed layout): an image block, as if an <img> showed it.
        const page: MarkupElement = { kind: 'element', name: '#root', attrs: {}, children: [] };
        // The src is resolved like an href: escape what would read as %-escapes or a fragment.
        page.children.push({
          kind: 'element',
          name: 'img',
          attrs: { src: `/${item.path.split('/').map(encodeURIComponent).join('/')}` },
          children: [],
          parent: page,
        });
        docs.push({ item, root: page, ids: new Set() });
        continue;
      }
      const text = await readContentDocument(zip, item.path);
      if (text === undefined) {
        book.warn(`Missing or unreadable content document ${item.path}`);
        continue;
      }
      if (spineKind(item) === 'unknown' && !looksLikeMarkup(text)) {
        book.warn(`Spine item ${item.path} (${item.mediaType}) is not a content document`);
        continue;
      }
      const root = parseXml(text, item.path);
      const body = findFirst(root, byLocalName('body')) ?? root;
      const ids = new Set<string>();
      for (const e of findAll(body, () => true)) {
        if (e.attrs.id) ids.add(e.attrs.id);
        const href = e.attrs.href;
        if (localName(e.name) === 'a' && href && !isRemote(href) && href.includes('#')) {
          const key = `${resolveZipPath(item.path, href) || item.path}#${href.slice(href.indexOf('#') + 1)}`;
          linkTargets.add(key);
          if (/noteref/.test(epubType(e))) {
            noterefTargets.add(key);
            const label = textContent(e).replace(/^\[(.*)\]$/, '$1');
            if (label && label.length <= 8 && !markerLabels.has(key)) markerLabels.set(key, label);
          }
        }
      }
      docs.push({ item, root: body, ids });
    }

    // An alt text the book gives to many different formulas hides them: their MathML is read instead.
    const mathPlaceholders = repeatedAltTexts(docs.flatMap(({ root }) => findAll(root, byLocalName('math'))));

    // 8. Walk the documents in spine order, starting a chapter wherever a TOC entry points.
    const entriesByDoc = new Map<string, TocEntry[]>();
    for (const entry of chapterEntries) {
      const list = entriesByDoc.get(entry.path) ?? [];
      list.push(entry);
      entriesByDoc.set(entry.path, list);
    }
    const started_ = new Set<TocEntry>();
    const useToc = chapterEntries.length >= 2;
    const imagePaths = new Map<string, string>();
    const imageIdFor = (path: string): string => {
      let id = imagePaths.get(path);
      if (!id) {
        id = `img${imagePaths.size + 1}`;
        imagePaths.set(path, id);
      }
      return id;
    };
    /** SVG pictures (files, and drawings inline in the pages), drawn into PNGs once the text is read. */
    const svgSources = new Map<string, SvgSource>();

    docs.forEach(({ item, root, ids }, index) => {
      const entries = entriesByDoc.get(item.path) ?? [];
      const startEntry = (entry: TocEntry) => {
        if (started_.has(entry)) return;
        started_.add(entry);
        book.startChapter(entry.title, entry.level);
      };
      if (!useToc) {
        book.startChapter('');
      } else {
        const atStart = entries.filter((e) => !e.fragment || !ids.has(e.fragment));
        if (atStart.length) atStart.forEach(startEntry);
        else if (!book.currentChapter) book.startChapter('');
      }
      const isNoteElement = (e: MarkupElement): boolean => {
        const id = e.attrs.id;
        const type = epubType(e);
        if (NOTE_TYPES.test(type) && !/noteref/.test(type)) return true;
        if (!id) {
          if (localName(e.name) !== 'aside' || /sidebar|pullquote/.test(type)) return false;
          // An aside holding several linked notes is a container, not one note.
          return !findFirst(e, (d) => !!d.attrs.id && linkTargets.has(`${item.path}#${d.attrs.id}`));
        }
        const key = `${item.path}#${id}`;
        if (noterefTargets.has(key)) return true;
        if (!linkTargets.has(key)) return false;
        // A link target inside a notes section or an aside is a note (many EPUB 2 books).
        for (let p = e.parent; p; p = p.parent) {
          if (localName(p.name) === 'aside' || NOTES_CONTAINER_TYPES.test(epubType(p))) return true;
        }
        return false;
      };
      let noteCounter = 0;
      htmlToBlocks(root, {
        mathPlaceholders,
        resolveImage: (src) => {
          if (isRemote(src)) return undefined;
          const path = resolveZipPath(item.path, src);
          const type = byPath.get(path)?.mediaType;
          if (type === SVG_TYPE || (!type && /\.svg$/i.test(path))) {
            const id = imageIdFor(path);
            svgSources.set(id, { kind: 'file', path });
            return id;
          }
          if (type && !IMAGE_TYPES.has(type)) return undefined;
          return imageIdFor(path);
        },
        resolveSvg: (svg) => {
          if (!isDrawing(svg)) return undefined;
          const id = `svg${svgSources.size + 1}`;
          svgSources.set(id, { kind: 'inline', element: svg, base: item.path });
          return id;
        },
        resolveNoteLink: (href, anchor) => {
          if (isRemote(href) || !href.includes('#')) return undefined;
          const key = `${resolveZipPath(item.path, href) || item.path}#${href.slice(href.indexOf('#') + 1)}`;
          if (noterefTargets.has(key) || /noteref/.test(epubType(anchor))) return key;
          return linkTargets.has(key) ? key : undefined;
        },
        noteLabelOf: (key) => markerLabels.get(key),
        noteKeyOf: (e) => {
          if (!isNoteElement(e)) return undefined;
          return e.attrs.id ? `${item.path}#${e.attrs.id}` : `${item.path}#__note${++noteCounter}`;
        },
        onAnchors: (found) => {
          if (!useToc) return;
          for (const id of found) for (const entry of entries) if (entry.fragment === id) startEntry(entry);
        },
        skip: (e) => {
          const name = localName(e.name);
          return name === 'nav' && /toc|landmarks|page-list/.test(epubType(e));
        },
        emit: (block: BlockDraft) => book.add(block),
      });
      options.onProgress?.(0.1 + (0.8 * (index + 1)) / docs.length);
    });

    if (!book.chapters.some((c) => c.blocks.some((b) => b.type !== 'image' && b.text.trim()))) {
      // Pictures only (a comic, a fixed-layout book of drawings): nothing to read or translate,
      // and the navigation document's list of chapters is not the book. Refused before its pictures
      // are inflated.
      throw new ParseError('noTextFound', 'The EPUB has no text, only images');
    }

    // 9. Load the images the blocks refer to; drop references to missing or unsupported ones.
    const loaded = new Set<string>();
    for (const [path, id] of imagePaths) {
      throwIfAborted(options.signal);
      if (svgSources.has(id)) continue;
      const data = await zip.read(path).catch(() => undefined);
      const info = data ? imageInfo(data) : undefined;
      if (!data || !info || data.length > MAX_IMAGE_BYTES) {
        book.warn(`Image ${path} is missing or not a supported image`);
        continue;
      }
      const image = { id, data, mediaType: info.mediaType } as ParsedBook['images'][number];
      if (info.width) image.width = info.width;
      if (info.height) image.height = info.height;
      book.images.push(image);
      loaded.add(id);
    }
    for (const image of await loadSvgPictures(zip, svgSources, book, options.signal)) {
      book.images.push(image);
      loaded.add(image.id);
    }
    for (const chapter of book.chapters) {
      chapter.blocks = chapter.blocks.filter((b) => !b.imageId || loaded.has(b.imageId));
    }
    // A title page carrying the table of contents is named after the TOC, not after the book.
    nameTocChapters(book.chapters);
    // Entries pointing into the same file as earlier content but never reached keep no empty shells.
    const result = book.finish('epub', started);
    options.onProgress?.(1);
    return result;
  },
};
