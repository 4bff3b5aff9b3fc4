/**
 * PDF through pdf.js (legacy build, in-process; the text layer is read by several threads at once, see
 * pdf-threads.ts). Text items with positions become lines, lines are put in reading order (two-column
 * pages included), running headers/footers and page numbers are dropped, footnotes are split off, and
 * paragraphs are rebuilt across line, column and page breaks. Chapters come from the outline, else
 * from heading font sizes, else from page ranges. Pages without a text layer (or all pages with
 * forceOCR) are rendered and OCRed.
 */
import { BookBuilder } from '../builder.ts';
import type { BlockDraft } from '../blocks.ts';
import { ParseError } from '../errors.ts';
import {
  bodyFontSize,
  BOLD_FONT_NAME,
  closeParagraph,
  isWeightHeadingLine,
  footnoteParagraphs,
  linesToParagraphs,
  splitFootnotes,
} from './pdf-layout.ts';
import { removeRunningLines } from './pdf-running.ts';
import type { ParagraphState, PdfLine, PdfParagraph } from './pdf-layout.ts';
import { buildLexicon } from './pdf-join.ts';
import { orderLines } from './pdf-columns.ts';
import { addChapters, readOutline } from './pdf-chapters.ts';
import { inspectFonts } from './pdf-fonts.ts';
import { withRebuiltPageTree } from './pdf-repair.ts';
import { findGarbage } from './pdf-garbage.ts';
import { repairBookMojibake } from './pdf-mojibake.ts';
import { refuseRightsEncrypted, refuseRightsNotice, refuseRightsWrapper } from './pdf-rights.ts';
import { ocrEngineOf, ocrParagraphs, readByOcr } from './pdf-ocr.ts';
import type { OcrPlan } from './pdf-ocr.ts';
import { cropFigures, renderCrops } from './pdf-crop.ts';
import { pageFigures, placeFigures, withoutFigures } from './pdf-flow.ts';
import { linkNoteMarks } from './pdf-note-links.ts';
import { toPdfRegions } from './pdf-regions.ts';
import { isPlaceholderTitle, titleFromFirstPage } from './pdf-title.ts';
import { openPdf } from './pdf-text.ts';
import type { FontFace, PdfDocument } from './pdf-text.ts';
import { pdfHelpers, readTextLayer } from './pdf-threads.ts';
import type { TextLayer } from './pdf-threads.ts';
import type { BookImage, BookParser, ParseOptions, ParsedBook, PendingCrop } from '../types.ts';
import { PARSE_LIMITS } from '../limits.ts';

/**
 * Fonts whose short body-size lines are headings: faces other than the body font, used on a few lines
 * (not a second body font), named bold/heavy/black/medium.
 */
async function boldHeadingFonts(
  lines: PdfLine[],
  bodySize: number,
  fontFaces: TextLayer['fontFaces'],
): Promise<Set<string>> {
  const bodyChars = new Map<string, number>();
  const candidates = new Map<string, number>();
  for (const l of lines) {
    if (!l.font) continue;
    if (Math.abs(l.size - bodySize) < 0.6) bodyChars.set(l.font, (bodyChars.get(l.font) ?? 0) + l.text.length);
    if (l.size < bodySize * 1.15 && isWeightHeadingLine(l, bodySize)) {
      candidates.set(l.font, (candidates.get(l.font) ?? 0) + 1);
    }
  }
  const bodyFont = [...bodyChars].sort((a, b) => b[1] - a[1])[0]?.[0];
  const picked = [...candidates]
    .filter(
      ([font, n]) =>
        font !== bodyFont && n >= 2 && (bodyChars.get(font) ?? 0) < (bodyChars.get(bodyFont ?? '') ?? 0) * 0.3,
    )
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([font]) => font);
  const faces = picked.length ? await fontFaces(picked) : new Map<string, FontFace>();
  const isBold = (face: FontFace | undefined) =>
    face !== undefined && (face.bold || BOLD_FONT_NAME.test(face.name.replace(/^[A-Z]{6}\+/, '')));
  return new Set(picked.filter((font) => isBold(faces.get(font))));
}

/** The font carrying most characters at body size: the body text's. */
function bodyFontOf(lines: PdfLine[], bodySize: number): string | undefined {
  const chars = new Map<string, number>();
  for (const l of lines) {
    if (l.font && Math.abs(l.size - bodySize) < 0.6) chars.set(l.font, (chars.get(l.font) ?? 0) + l.text.length);
  }
  return [...chars].sort((a, b) => b[1] - a[1])[0]?.[0];
}

export const pdfParser: BookParser = {
  format: 'pdf',
  async parse(input: Buffer, options: ParseOptions = {}): Promise<ParsedBook> {
    const started = performance.now();
    if (input.length === 0) throw new ParseError('emptyFile', 'The file is empty');
    refuseRightsEncrypted(input);
    let helpers = pdfHelpers(input.length, options.pdfHelperThreads);
    // A file cut short is not handed over: if pdf.js cannot open it, its pages are looked for in it.
    const handOver = options.handOverInput === true && helpers === 0 && endsLikeAPdf(input);
    // Helpers get copies of the bytes, made later: only a parse without them can give pdf.js the input.
    const { doc, source } = await openRepairing(input, handOver);
    if (source !== input) helpers = 0;
    try {
      return await parseDocument(doc, { input: source, helpers }, options, started);
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  },
};

/**
 * The pictures of figures the parse left for later (ParsedBook.pendingCrops), rendered from the
 * stored file: one per crop, undefined where its region could not be rendered.
 */
export async function renderPendingCrops(
  input: Buffer,
  crops: PendingCrop[],
  signal?: AbortSignal,
): Promise<(BookImage | undefined)[]> {
  const { doc } = await openRepairing(input, endsLikeAPdf(input));
  try {
    const images = await renderCrops(doc, crops, signal);
    return images.map((image, i) => image && { id: crops[i]!.imageId, ...image });
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** Opens a PDF, or the PDF its pages make once its page tree is rebuilt (a file cut short). */
async function openRepairing(input: Buffer, handOver: boolean): Promise<{ doc: PdfDocument; source: Buffer }> {
  try {
    return { doc: await openPdf(input, { handOver }), source: input };
  } catch (error) {
    const rebuilt =
      error instanceof ParseError && error.key === 'fileCorrupted' && !handOver && withRebuiltPageTree(input);
    if (!rebuilt) throw error;
    const source = Buffer.from(rebuilt.buffer, rebuilt.byteOffset, rebuilt.byteLength);
    return { doc: await openPdf(source).catch(() => Promise.reject(error)), source };
  }
}

/** Whether the file ends as a whole PDF does (%%EOF near its end): else it may have been cut short. */
function endsLikeAPdf(input: Buffer): boolean {
  return input.subarray(Math.max(0, input.length - 1024)).includes('%%EOF');
}

/** The file's bytes (empty when handed over to pdf.js) and the helper threads that may read them. */
interface PdfSource {
  input: Buffer;
  helpers: number;
}

/**
 * Steps 1 and 2 of a parse: the text layer of every page as lines (pages that fail to load are
 * skipped: pdf.js recovers what it can; other threads help when the machine has cores to spare), the
 * pages to OCR, running headers removed, the body size, heading sizes and bold heading faces.
 */
async function readLayout(doc: PdfDocument, source: PdfSource, options: ParseOptions, book: BookBuilder) {
  const numPages = doc.numPages;
  const { pages, fontFaces, warnings } = await readTextLayer(doc, source.input, {
    helpers: source.helpers,
    stretchPages: options.pdfStretchPages,
    signal: options.signal,
    onProgress: (done) => options.onProgress?.((0.4 * done) / numPages),
  });
  for (const warning of warnings) book.warn(warning);
  const failed = pages.filter((p) => p.error !== undefined);
  for (const p of failed) book.warn(`Page ${p.page} could not be read: ${p.error}`);
  if (failed.length === numPages) throw new ParseError('fileCorrupted', 'No page of the PDF could be read');
  const mojibake = repairBookMojibake(pages);
  if (mojibake) book.warn(`Read the text of ${mojibake.pages} pages in ${mojibake.codePage} (fonts mapped to Latin-1)`);

  // Garbage from fonts without a Unicode map is never the book's text: read by OCR, or left out.
  const garbage = await findGarbage(
    pages.filter((p) => p.error === undefined),
    async (inspected) =>
      inspectFonts(source.input.length ? source.input : await doc.getData(), inspected, options.signal),
  );
  if (garbage.lines.size) {
    for (const p of pages) p.lines = p.lines.filter((line) => !garbage.lines.has(line));
    book.warn(`Left out ${garbage.lines.size} lines of unreadable text (fonts without a Unicode map)`);
  }
  const engine = garbage.pages.size || options.forceOCR ? await ocrEngineOf(options) : undefined;
  const garbageLanguages = (options.ocrLanguages ?? []).filter((l) => engine?.languages.includes(l));
  const textPages = pages.filter((p) => p.chars >= 20 && !garbage.pages.has(p.page)).length;
  const mostlyScanned = textPages < Math.max(1, numPages * 0.5);
  const ocr: OcrPlan = { pages: new Set(), garbage: new Set(), garbageLanguages };
  for (const p of pages) {
    if (p.error !== undefined) continue;
    const isGarbage = garbage.pages.has(p.page);
    if (options.forceOCR || (mostlyScanned && p.chars < 20) || (isGarbage && garbageLanguages.length)) {
      ocr.pages.add(p.page);
      if (isGarbage && !options.forceOCR) ocr.garbage.add(p.page);
    }
    if (ocr.pages.has(p.page) || isGarbage) p.lines = [];
  }

  const removed = removeRunningLines(pages.filter((p) => p.lines.length));
  if (removed) book.warn(`Removed ${removed} running header/footer lines`);
  const allLines = pages.flatMap((p) => p.lines);
  const bodySize = bodyFontSize(allLines);
  const headingSizes = [
    ...new Set(allLines.filter((l) => l.size >= bodySize * 1.15).map((l) => Math.round(l.size * 2) / 2)),
  ].sort((a, b) => b - a);
  const headingFonts = await boldHeadingFonts(allLines, bodySize, fontFaces);
  return {
    pages,
    allLines,
    bodySize,
    bodyFont: bodyFontOf(allLines, bodySize),
    headingSizes,
    headingFonts,
    ocr,
    unreadable: garbage.pages,
  };
}

async function parseDocument(
  doc: PdfDocument,
  source: PdfSource,
  options: ParseOptions,
  started: number,
): Promise<ParsedBook> {
  const book = new BookBuilder();
  const numPages = doc.numPages;
  if (!numPages) throw new ParseError('fileCorrupted', 'The PDF has no pages');
  if (numPages > PARSE_LIMITS.pdfPages) throw new ParseError('fileTooComplex', `The PDF has ${numPages} pages`);
  const embeddedFiles = await refuseRightsWrapper(doc);

  const meta = await doc.getMetadata().catch(() => undefined);
  const info = (meta?.info ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const xmp = meta?.metadata;
  book.metadata = {
    title: str(info.Title) ?? str(xmp?.get('dc:title')),
    author: str(info.Author) ?? str(xmp?.get('dc:creator')),
    language: str(info.Language),
    description: str(info.Subject),
  };

  const { pages, allLines, bodySize, bodyFont, headingSizes, headingFonts, ocr, unreadable } = await readLayout(
    doc,
    source,
    options,
    book,
  );
  refuseRightsNotice(allLines.map((line) => line.text).join(' '), embeddedFiles, numPages);
  if (isPlaceholderTitle(book.metadata.title) && pages[0]) {
    const fromPage = titleFromFirstPage(orderLines(pages[0].lines), pages[0].height, bodySize);
    // Metadata naming a file is not to be trusted for the author either; metadata without a title may be.
    const author = book.metadata.title
      ? (fromPage.author ?? book.metadata.author)
      : (book.metadata.author ?? fromPage.author);
    if (fromPage.title) book.metadata = { ...book.metadata, title: fromPage.title, author };
  }

  // 3. OCR where needed; garbage pages it could not read stay unread, and a book mostly unread fails.
  const ocrText = ocr.pages.size ? await readByOcr(doc, ocr, options, await ocrEngineOf(options)) : new Map();
  for (const n of ocrText.keys()) unreadable.delete(n);
  if (unreadable.size) {
    const readable = pages.filter((p) => p.lines.length || ocrText.has(p.page)).length;
    if (unreadable.size >= readable) {
      throw new ParseError(
        'textNotExtractable',
        `The text of ${unreadable.size} of ${numPages} pages is unreadable (fonts without a Unicode map, or a garbled OCR layer)`,
      );
    }
    book.warn(
      `Left out the unreadable text of ${unreadable.size} pages (fonts without a Unicode map, or a garbled OCR layer)`,
    );
  }

  // 4. Paragraphs in reading order, continuing across pages; footnotes per page.
  const paragraphs: PdfParagraph[] = [];
  const lexicon = buildLexicon(allLines.map((l) => l.text));
  const state: ParagraphState = { lexicon, pending: [], headingFonts };
  const figures = options.pdfFigures === false ? new Map() : pageFigures(pages, { bodySize, bodyFont });
  for (const p of pages) {
    const n = p.page;
    if (ocrText.has(n)) {
      closeParagraph(state, paragraphs);
      paragraphs.push(...ocrParagraphs(ocrText.get(n)!, n));
      continue;
    }
    if (!p.lines.length && !figures.get(n)?.figures.length) continue;
    const onPage = figures.get(n) ?? { ordered: orderLines(p.lines), figures: [], formulas: [] };
    const { body, notes, asides } = splitFootnotes(withoutFigures(onPage), bodySize);
    linesToParagraphs(placeFigures(body, onPage, n, lexicon), bodySize, headingSizes, state, paragraphs);
    // Small print and notes go after the page's finished paragraphs; when the last paragraph goes on
    // overleaf they wait until it ends, so they never cut it in two.
    const pageNotes: PdfParagraph[] = [];
    const asideState: ParagraphState = { lexicon };
    linesToParagraphs(asides, bodySize, headingSizes, asideState, pageNotes);
    closeParagraph(asideState, pageNotes);
    pageNotes.push(...footnoteParagraphs(notes, lexicon));
    if (state.open) state.pending!.push(...pageNotes);
    else paragraphs.push(...pageNotes);
  }
  closeParagraph(state, paragraphs);
  // A bold label repeated through the document ("yes no" on a form) is not a heading.
  const weightTitles = new Map<string, number>();
  for (const p of paragraphs) if (p.byWeight) weightTitles.set(p.text, (weightTitles.get(p.text) ?? 0) + 1);
  for (const p of paragraphs) {
    if (p.byWeight && weightTitles.get(p.text)! > 1) {
      p.kind = 'paragraph';
      delete p.level;
    }
  }
  if (!paragraphs.some((p) => p.text.trim())) {
    throw new ParseError('noTextFound', 'The PDF has no text layer and OCR found no text');
  }

  // 5. Blocks and note links.
  const geometry = (n: number) => pages[n - 1];
  const drafts: (BlockDraft & { top: number; byWeight?: boolean })[] = [];
  const notesByPage = new Map<number, Map<string, string>>();
  const pendingCrops = await cropFigures(doc, paragraphs, geometry, book, {
    signal: options.signal,
    inParse: options.pdfCropsInParse,
  });
  paragraphs.forEach((p, i) => {
    if (p.kind === 'figure' && !p.imageId) return;
    const draft: BlockDraft & { top: number; byWeight?: boolean } = {
      type: ({ heading: 'heading', footnote: 'footnote', figure: 'image', paragraph: 'paragraph' } as const)[p.kind],
      text: p.text,
      pdfPage: p.page,
      top: p.top,
    };
    const regions = toPdfRegions(p.boxes, geometry);
    if (regions.length) draft.pdfRegions = regions;
    if (p.imageId) draft.imageId = p.imageId;
    if (p.kind === 'heading') draft.level = p.level ?? 1;
    if (p.byWeight) draft.byWeight = true;
    if (p.kind === 'footnote') {
      draft.noteKey = `p${p.page}-n${i}`;
      if (p.label) {
        draft.noteLabel = p.label;
        const map = notesByPage.get(p.page) ?? new Map<string, string>();
        if (!map.has(p.label)) map.set(p.label, draft.noteKey);
        notesByPage.set(p.page, map);
      }
    }
    if (p.marks.length) (draft as BlockDraft & { marks?: string[] }).marks = p.marks;
    drafts.push(draft);
  });
  if (options.autoSplitFootnote) {
    for (const d of drafts) {
      const marks = (d as BlockDraft & { marks?: string[] }).marks;
      if (!marks || d.type === 'footnote') continue;
      const map = notesByPage.get(d.pdfPage!);
      const keys = marks.map((m) => map?.get(m)).filter((k): k is string => k !== undefined);
      if (keys.length) {
        d.noteRefKeys = [...new Set(keys)];
        const html = map ? linkNoteMarks(d.text, marks, map) : undefined;
        if (html) d.html = html;
      }
    }
  }
  for (const d of drafts) delete (d as BlockDraft & { marks?: string[] }).marks;

  // 6. Chapters.
  addChapters(book, drafts, await readOutline(doc), headingSizes.length + 1, numPages);
  for (const c of book.chapters)
    for (const b of c.blocks) {
      delete (b as BlockDraft & { top?: number }).top;
      delete (b as BlockDraft & { byWeight?: boolean }).byWeight;
    }
  options.onProgress?.(1);
  const parsed = book.finish('pdf', started, { pages: numPages, ocrPages: ocrText.size });
  if (pendingCrops.length) {
    // A figure's block may not have been kept (finalizeBook): its picture is not wanted either.
    const kept = new Set(parsed.chapters.flatMap((c) => c.blocks.flatMap((b) => (b.imageId ? [b.imageId] : []))));
    parsed.pendingCrops = pendingCrops.filter((crop) => kept.has(crop.imageId));
  }
  return parsed;
}
