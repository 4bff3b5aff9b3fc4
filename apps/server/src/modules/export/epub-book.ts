import type { Selectable } from 'kysely';
import type { BookChaptersTable, BookRow } from '../../db/schema.ts';
import type { ExportBlockRow } from './export.repo.ts';
import {
  contentDocument,
  languageTag,
  renderBlock,
  STYLESHEET,
  type ExportBlock,
  type ExportMode,
  type RenderContext,
} from './epub-content.ts';
import {
  CONTAINER_XML,
  coverDocument,
  exportIdentifier,
  navigationDocument,
  ncxDocument,
  packageDocument,
  type ManifestItem,
  type TocEntry,
} from './epub-package.ts';
import { ZipWriter } from './zip-writer.ts';

/**
 * Reader pages per content document. A long chapter is cut into documents of this many pages
 * (1,500-3,000 characters each, twice that with translations): small enough for every reading system
 * to open quickly, and what the export holds in memory at a time.
 */
export const PAGES_PER_DOCUMENT = 20;

/** Everything the EPUB is made of; blocks and pictures are fetched as they are written. */
export interface EpubSource {
  book: BookRow;
  title: string;
  author: string;
  description: string;
  /** The reading-language code of the translation. */
  target: string;
  mode: ExportMode;
  chapters: Selectable<BookChaptersTable>[];
  linkEnds: { block_id: string; chapter_idx: number; page: number }[];
  images: { image_id: string; storage_key: string; media_type: string }[];
  coverKey: string | null;
  blocks(fromPage: number, toPage: number): Promise<ExportBlockRow[]>;
  picture(key: string, mediaType: string): Promise<{ data: Buffer; mediaType: string } | undefined>;
  /**
   * When the content last changed (dcterms:modified and the zip's times): the same content makes the
   * same bytes, so that a device that names a book by its bytes (KOReader) finds it again.
   */
  modified: Date;
  /** Told whether the book opens with a cover document (the reading order's first item). */
  onCover?: (included: boolean) => void;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};

/** "Contents" in the language of the navigation document (English where it is not listed). */
const CONTENTS: Record<string, string> = {
  zh: '目录',
  'zh-TW': '目錄',
  jp: '目次',
  ko: '목차',
  de: 'Inhalt',
  fr: 'Table des matières',
  es: 'Índice',
  it: 'Indice',
  pt: 'Sumário',
  ru: 'Оглавление',
  nl: 'Inhoud',
};

const documentName = (chapter: number, part: number) => `ch${chapter}-${part}.xhtml`;

/** Plain text of inline markup (a translated chapter title for the table of contents). */
const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos);/g, (_m, e: string) =>
      e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
    )
    .trim();

/**
 * Writes the EPUB as a sequence of byte chunks, entry by entry: mimetype first (stored), the
 * container, the style sheet, the pictures (so that documents only point at pictures that made it),
 * the cover, the content documents, then the navigation document, the NCX and the package document,
 * which lists exactly what was written.
 */
export async function* writeEpub(source: EpubSource): AsyncGenerator<Buffer> {
  const modified = source.modified;
  const zip = new ZipWriter(modified);
  const originalLang = languageTag(source.book.original_language);
  const targetLang = languageTag(source.target);
  const mainLang = source.mode === 'bilingual' ? originalLang : targetLang;
  const manifest: ManifestItem[] = [
    { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' },
    { id: 'ncx', href: 'toc.ncx', mediaType: 'application/x-dtbncx+xml' },
    { id: 'style', href: 'style.css', mediaType: 'text/css' },
  ];
  const spine: { idref: string; linear?: boolean }[] = [];

  yield* await zip.entry('mimetype', Buffer.from('application/epub+zip'), { store: true });
  yield* await zip.entry('META-INF/container.xml', Buffer.from(CONTAINER_XML));
  yield* await zip.entry('OEBPS/style.css', Buffer.from(STYLESHEET));

  const pictures = new Map<string, string>();
  for (const [n, image] of source.images.entries()) {
    const picture = await source.picture(image.storage_key, image.media_type);
    if (!picture) continue;
    const href = `images/img${n + 1}.${EXTENSIONS[picture.mediaType]}`;
    yield* await zip.entry(`OEBPS/${href}`, picture.data, { store: picture.mediaType !== 'image/svg+xml' });
    manifest.push({ id: `img${n + 1}`, href, mediaType: picture.mediaType });
    pictures.set(image.image_id, `../${href}`);
  }

  let coverImageId: string | undefined;
  const cover = source.coverKey ? await source.picture(source.coverKey, 'image/jpeg') : undefined;
  if (cover) {
    coverImageId = 'cover-image';
    const href = `images/cover.${EXTENSIONS[cover.mediaType]}`;
    yield* await zip.entry(`OEBPS/${href}`, cover.data, { store: true });
    manifest.push({ id: coverImageId, href, mediaType: cover.mediaType, properties: 'cover-image' });
    const page = coverDocument({ title: source.title, lang: mainLang, image: href, stylesheet: 'style.css' });
    yield* await zip.entry('OEBPS/cover.xhtml', Buffer.from(page));
    manifest.push({ id: 'cover', href: 'cover.xhtml', mediaType: 'application/xhtml+xml' });
    spine.push({ idref: 'cover' });
  }
  source.onCover?.(cover !== undefined);

  // Chapters start pages, so a chapter is a run of whole pages and a block's document follows from its page.
  const chapters = [...source.chapters].sort((a, b) => a.idx - b.idx);
  const firstPage = new Map(chapters.map((c) => [c.idx, c.first_page]));
  const documentOf = (chapter: number, page: number) =>
    documentName(chapter, Math.floor((page - (firstPage.get(chapter) ?? page)) / PAGES_PER_DOCUMENT));
  const linkEnds = new Map(source.linkEnds.map((e) => [e.block_id, documentOf(e.chapter_idx, e.page)]));
  const ctx: RenderContext = {
    mode: source.mode,
    originalLang,
    targetLang,
    fileOf: (blockId) => linkEnds.get(blockId),
    imageHref: (imageId) => pictures.get(imageId),
  };

  const toc: TocEntry[] = [];
  const plan = documentPlan(chapters, source.book.page_count);
  const labels = new Map<number, string>();
  // The next document's rows are read while this one is rendered and compressed. A read left behind
  // (the download was abandoned) must not fail the process as an unhandled rejection.
  const read = (document: PlannedDocument | undefined) => {
    const rows = document ? source.blocks(document.from, document.to) : Promise.resolve([]);
    rows.catch(() => {});
    return rows;
  };
  let next = read(plan[0]);
  for (const [n, document] of plan.entries()) {
    const rows = await next;
    next = read(plan[n + 1]);
    if (rows.length === 0) continue;
    const { chapter } = document;
    const blocks = rows.map(toExportBlock);
    let tocLabel = labels.get(chapter.idx);
    if (tocLabel === undefined) {
      tocLabel = tocLabelOf(chapter, blocks, source.mode, document.position);
      labels.set(chapter.idx, tocLabel);
      toc.push({ label: tocLabel, href: `text/${document.name}`, level: chapter.level });
    }
    const body = blocks.map((b) => renderBlock(b, ctx)).join('\n');
    const page = contentDocument({ title: tocLabel, lang: mainLang, body, stylesheet: '../style.css' });
    yield* await zip.entry(`OEBPS/text/${document.name}`, Buffer.from(page));
    const id = document.name.replace('.xhtml', '');
    manifest.push({ id, href: `text/${document.name}`, mediaType: 'application/xhtml+xml' });
    spine.push({ idref: id });
  }

  const identifier = exportIdentifier(source.book.code, source.target, source.mode);
  const heading =
    CONTENTS[source.mode === 'bilingual' ? (source.book.original_language ?? '') : source.target] ?? 'Contents';
  yield* await zip.entry(
    'OEBPS/nav.xhtml',
    Buffer.from(navigationDocument({ title: source.title, lang: mainLang, heading, toc })),
  );
  yield* await zip.entry(
    'OEBPS/toc.ncx',
    Buffer.from(ncxDocument({ identifier, title: source.title, lang: mainLang, toc })),
  );
  const languages = source.mode === 'bilingual' ? [originalLang, targetLang] : [targetLang];
  const opf = packageDocument(
    {
      identifier,
      title: source.title,
      author: source.author,
      description: source.description,
      languages: [...new Set(languages)],
      modified,
      ...(coverImageId ? { coverImageId } : {}),
    },
    manifest,
    spine,
  );
  yield* await zip.entry('OEBPS/content.opf', Buffer.from(opf));
  yield zip.finish();
}

/** A content document to write: a run of whole pages of one chapter. */
export interface PlannedDocument {
  chapter: Selectable<BookChaptersTable>;
  /** The chapter's place in the book, from 1 (its label when it has no title). */
  position: number;
  name: string;
  from: number;
  to: number;
}

/** The content documents of a book: each chapter's pages, PAGES_PER_DOCUMENT at a time. */
export function documentPlan(chapters: Selectable<BookChaptersTable>[], pageCount: number): PlannedDocument[] {
  const sorted = [...chapters].sort((a, b) => a.idx - b.idx);
  return sorted.flatMap((chapter, i) => {
    const last = (sorted[i + 1]?.first_page ?? pageCount + 1) - 1;
    const documents: PlannedDocument[] = [];
    for (let part = 0, from = chapter.first_page; from <= last; part += 1, from += PAGES_PER_DOCUMENT)
      documents.push({
        chapter,
        position: i + 1,
        name: documentName(chapter.idx, part),
        from,
        to: Math.min(last, from + PAGES_PER_DOCUMENT - 1),
      });
    return documents;
  });
}

export function toExportBlock(row: ExportBlockRow): ExportBlock {
  return {
    blockId: row.block_id,
    type: row.type,
    text: row.text,
    html: row.html,
    level: row.level,
    imageId: row.image_id,
    noteLabel: row.note_label,
    referencedBy: row.referenced_by,
    translatable: row.has_text,
    translation: row.translation,
  };
}

/**
 * A chapter's entry in the table of contents: its title, with the translation of its heading when the
 * chapter opens with one (the translation alone in a translated book).
 */
function tocLabelOf(chapter: { title: string }, blocks: ExportBlock[], mode: ExportMode, position: number): string {
  const title = chapter.title.trim();
  const heading = blocks.find((b) => b.type === 'heading' && b.text.trim() === title && b.translation !== null);
  const translated = heading ? plainText(heading.translation!) : '';
  if (mode === 'translated') return translated || title || String(position);
  if (!title) return translated || String(position);
  return translated && translated !== title ? `${title} · ${translated}` : title;
}
