/**
 * DOCX: our own streaming walk over word/document.xml (docx-body.ts), with styles, relationships and
 * notes read the same way. No DOM of the document is ever built: mammoth's peaked at ~80× the XML
 * size (12.5 MB of XML → ~920 MB RSS, 12 s). Word heading styles define the chapters; footnotes and
 * endnotes become linked footnote blocks at the end of the chapter that first cites them.
 */
import type { BlockDraft } from '../blocks.ts';
import { readAltChunks } from './docx-altchunk.ts';
import { BookBuilder, shorten } from '../builder.ts';
import { splitByHeadings } from '../heading-chapters.ts';
import type { NoteBody } from './docx-body.ts';
import { DocxWalker, noteDrafts } from './docx-body.ts';
import type { Relationship } from './docx-styles.ts';
import { DocxNumbering } from './docx-numbering.ts';
import { DocxStyles, relationshipsHandler } from './docx-styles.ts';
import { ParseError, throwIfAborted } from '../errors.ts';
import { imageInfo } from '../image-info.ts';
import type { ImageInfo } from '../image-info.ts';
import { byLocalName, findFirst, parseMarkup, textContent } from '../markup.ts';
import type { BookImage, BookParser, ParseOptions, ParsedBook } from '../types.ts';
import { feedXml, refuseEntities, WORD_NAMESPACES, XmlStreamReader } from '../xml-stream.ts';
import type { XmlHandler } from '../xml-stream.ts';
import type { ZipLimits } from '../zip.ts';
import { DEFAULT_ZIP_LIMITS, resolveZipPath, SafeZip } from '../zip.ts';

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/**
 * word/document.xml is streamed, so it may be larger than other ZIP entries: Word's markup is 5-50×
 * the text, and a 30 MB text-only DOCX holds ~280 MB of XML. Other parts keep the default caps.
 */
const DOCX_LIMITS: ZipLimits = {
  ...DEFAULT_ZIP_LIMITS,
  maxEntryBytes: 640 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
};
const PART_MAX_BYTES = DEFAULT_ZIP_LIMITS.maxEntryBytes;
/** What inflating a small bomb of text could otherwise fill memory with (a long novel is ~2M). */
const MAX_TEXT_CHARACTERS = 150_000_000;
const REL_TYPE = /\/(officeDocument|image|footnotes|endnotes|styles|numbering)$/;

/** Streams one XML part of the package through a handler; a missing part is simply skipped. */
async function walkPart(
  zip: SafeZip,
  path: string,
  handler: XmlHandler,
  onChunk?: (bytes: number) => void,
  maxBytes = PART_MAX_BYTES,
): Promise<void> {
  if (!zip.has(path)) return;
  const reader = new XmlStreamReader(handler, { namespaces: WORD_NAMESPACES, onDoctype: refuseEntities });
  await feedXml(zip.chunks(path, maxBytes), reader, onChunk);
}

async function readRelationships(zip: SafeZip, partPath: string): Promise<Map<string, Relationship>> {
  const slash = partPath.lastIndexOf('/');
  const relsPath = `${partPath.slice(0, slash + 1)}_rels/${partPath.slice(slash + 1)}.rels`;
  const rels = new Map<string, Relationship>();
  await walkPart(zip, relsPath, relationshipsHandler(rels));
  return rels;
}

function relTarget(rels: Map<string, Relationship>, type: string): Relationship | undefined {
  for (const rel of rels.values()) if (!rel.external && REL_TYPE.exec(rel.type)?.[1] === type) return rel;
  return undefined;
}

async function readCoreMetadata(zip: SafeZip, book: BookBuilder): Promise<void> {
  const core = await zip.readText('docProps/core.xml', 1024 * 1024).catch(() => undefined);
  if (!core || /<!ENTITY/i.test(core)) return;
  const root = parseMarkup(core);
  const field = (name: string) => {
    const el = findFirst(root, byLocalName(name));
    return el ? textContent(el) : undefined;
  };
  book.metadata = {
    title: field('title'),
    author: field('creator'),
    language: field('language'),
    description: field('description'),
  };
}

export const docxParser: BookParser = {
  format: 'docx',
  async parse(input: Buffer, options: ParseOptions = {}): Promise<ParsedBook> {
    const started = performance.now();
    if (input.length === 0) throw new ParseError('emptyFile', 'The file is empty');
    // Declared sizes are checked (zip bombs) before anything is inflated, and every read is capped.
    const zip = await SafeZip.open(input, DOCX_LIMITS);
    const packageRels = await readRelationships(zip, '');
    const mainPath = [relTarget(packageRels, 'officeDocument'), undefined]
      .map((rel) => (rel ? resolveZipPath('', rel.target) : 'word/document.xml'))
      .find((path) => zip.has(path));
    if (!mainPath) throw new ParseError('fileCorrupted', 'No word/document.xml in the archive');
    const book = new BookBuilder();
    await readCoreMetadata(zip, book);
    throwIfAborted(options.signal);

    const rels = await readRelationships(zip, mainPath);
    const styles = new DocxStyles();
    const stylesRel = relTarget(rels, 'styles');
    await walkPart(zip, stylesRel ? resolveZipPath(mainPath, stylesRel.target) : 'word/styles.xml', styles.handler());
    const numbering = new DocxNumbering();
    const numberingRel = relTarget(rels, 'numbering');
    await walkPart(
      zip,
      numberingRel ? resolveZipPath(mainPath, numberingRel.target) : 'word/numbering.xml',
      numbering.handler(),
    );

    // Images are read before the walk (the tokenizer's callbacks are synchronous) and become book
    // images, numbered in document order, only when a paragraph uses them.
    const loaded = new Map<string, { data: Buffer; info: ImageInfo; id?: string }>();
    const loadImages = async (partPath: string, partRels: Map<string, Relationship>) => {
      for (const rel of partRels.values()) {
        if (rel.external || !rel.type.endsWith('/image')) continue;
        const path = resolveZipPath(partPath, rel.target);
        if (loaded.has(path) || (zip.declaredSize(path) ?? 0) > MAX_IMAGE_BYTES) continue;
        const data = await zip.read(path, MAX_IMAGE_BYTES).catch(() => undefined);
        const info = data ? imageInfo(data) : undefined;
        if (data && info) loaded.set(path, { data, info });
      }
    };
    const resolverFor =
      (partPath: string, partRels: Map<string, Relationship>) =>
      (relId: string, extent: { width: number; height: number } | undefined): string | undefined => {
        const rel = partRels.get(relId);
        if (!rel || rel.external) return undefined;
        const entry = loaded.get(resolveZipPath(partPath, rel.target));
        if (!entry) return undefined;
        if (!entry.id) {
          entry.id = `img${book.images.length + 1}`;
          const image: BookImage = { id: entry.id, data: entry.data, mediaType: entry.info.mediaType };
          const width = entry.info.width ?? extent?.width;
          const height = entry.info.height ?? extent?.height;
          if (width) image.width = width;
          if (height) image.height = height;
          book.images.push(image);
        }
        return entry.id;
      };
    await loadImages(mainPath, rels);

    // Notes are numbered in the order the text first cites them, as Word displays them.
    const labels = new Map<string, string>();
    const counters = { footnote: 0, endnote: 0 };
    const labelFor = (key: string): string => {
      let label = labels.get(key);
      if (!label) {
        const kind = key.startsWith('endnote') ? 'endnote' : 'footnote';
        label = String(++counters[kind]);
        labels.set(key, label);
      }
      return label;
    };
    const notes = new Map<string, NoteBody>();
    const customLabels = new Map<string, string>();
    for (const kind of ['footnotes', 'endnotes'] as const) {
      const rel = relTarget(rels, kind);
      const path = rel ? resolveZipPath(mainPath, rel.target) : `word/${kind}.xml`;
      if (!zip.has(path)) continue;
      const partRels = await readRelationships(zip, path);
      await loadImages(path, partRels);
      const walker = new DocxWalker({
        styles,
        numbering,
        resolveImage: resolverFor(path, partRels),
        emit: () => {},
        labelFor,
        maxCharacters: MAX_TEXT_CHARACTERS,
      });
      await walkPart(zip, path, walker);
      for (const note of walker.notes) notes.set(note.key, note);
    }
    options.onProgress?.(0.1);
    throwIfAborted(options.signal);

    const altChunks = await readAltChunks(zip, mainPath, rels);
    const drafts: BlockDraft[] = [];
    const walker = new DocxWalker({
      styles,
      numbering,
      resolveImage: resolverFor(mainPath, rels),
      altChunk: (relId) => altChunks.get(relId),
      emit: (draft) => drafts.push(draft),
      labelFor,
      maxCharacters: MAX_TEXT_CHARACTERS,
    });
    const total = zip.declaredSize(mainPath) ?? 0;
    let reported = 0;
    await walkPart(
      zip,
      mainPath,
      walker,
      (bytes) => {
        throwIfAborted(options.signal);
        if (total && bytes - reported > total / 50) {
          reported = bytes;
          options.onProgress?.(0.1 + 0.85 * Math.min(1, bytes / total));
        }
      },
      DOCX_LIMITS.maxEntryBytes,
    );
    for (const [key, mark] of walker.customLabels) customLabels.set(key, mark);
    // Notes the text cites, in citation order; uncited notes are leftovers of editing.
    const cited = new Set<string>();
    for (const d of drafts) for (const key of d.noteRefKeys ?? []) cited.add(key);
    const noteBlocks: BlockDraft[] = [];
    for (const key of cited) {
      const note = notes.get(key);
      if (note) noteBlocks.push(...noteDrafts(note, customLabels.get(key) ?? labels.get(key)));
    }
    if (!drafts.some((d) => d.text.trim() || d.imageId)) {
      throw new ParseError('noTextFound', 'The document contains no text');
    }
    if (!book.metadata.title) {
      const title = drafts.find((d) => walker.titles.has(d));
      if (title) book.metadata.title = shorten(title.text, 200);
    }
    splitByHeadings(
      book,
      [...drafts, ...noteBlocks],
      new Set([...walker.titles, ...walker.weakHeadings]),
      walker.titles,
    );
    options.onProgress?.(1);
    return book.finish('docx', started);
  },
};
