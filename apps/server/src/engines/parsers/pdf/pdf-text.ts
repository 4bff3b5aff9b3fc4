/**
 * One PDF page's text layer through pdf.js, turned into lines at once, and the names of its fonts.
 * Shared by the parsing thread and the helper threads of pdf-threads.ts: every function here works on
 * a document opened in the calling thread and returns plain data that can be posted between threads.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { collectGarbage } from '../../../lib/collect-garbage.ts';
import { ParseError } from '../errors.ts';
import { measureWords } from './pdf-garbage.ts';
import type { TextQuality } from './pdf-garbage.ts';
import type { PdfLine, PdfPageText, PdfTextItem } from './pdf-layout.ts';
import { buildLines, removeMarginNumbers } from './pdf-lines.ts';
import { clusterPaints, isPaintItem, pagePaints } from './pdf-graphics.ts';
import type { Graphic, Paint, PaintItem } from './pdf-graphics.ts';
import { lineBox } from './pdf-figures.ts';
import { repairPageMojibake } from './pdf-mojibake.ts';
import type { MojibakeCodePage } from '../mojibake.ts';
import { toReadingFrame } from './pdf-vertical.ts';
import { inThreadWorker } from './pdfjs-port.ts';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

type PdfJs = typeof PdfJsModule;
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

const require = createRequire(import.meta.url);
const PDFJS_ROOT = path.dirname(require.resolve('pdfjs-dist/package.json'));
let pdfjsModule: Promise<PdfJs> | undefined;
export const loadPdfJs = (): Promise<PdfJs> => (pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

/** A page's lines (margin numbers already removed) and how much text it has, or why it failed. */
export interface PageLines {
  page: number;
  width: number;
  height: number;
  /** Non-blank characters of the text layer: few means a scanned page. */
  chars: number;
  lines: PdfLine[];
  /** How much of the text reads as garbage (pdf-garbage.ts). */
  quality: TextQuality;
  /** The code page the text of mis-mapped fonts was read in (pdf-mojibake.ts). */
  mojibake?: MojibakeCodePage;
  /** /Rotate of the page (clockwise degrees), and whether its vertical text was turned for reading. */
  rotate: number;
  turned: boolean;
  /** What the page draws besides upright text, taken together (pdf-graphics.ts); none on turned pages. */
  graphics: Graphic[];
  error?: string;
}

export interface FontFace {
  name: string;
  bold: boolean;
}

/** A one-page PDF (pdf.js rebuilds its missing cross-reference table) to warm a thread up with. */
const WARM_UP_PDF = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R' +
    '/Resources<</Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>>>endobj\n' +
    '4 0 obj<</Length 38>>stream\nBT /F1 12 Tf 20 100 Td (Warm) Tj ET\nendstream endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Loads pdf.js and its worker side and reads one page, so that the first real document is not slowed. */
export async function warmUpPdfJs(): Promise<void> {
  const doc = await openPdf(WARM_UP_PDF);
  try {
    await (await doc.getPage(1)).getTextContent();
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** How Yidu has pdf.js open every document: fonts and CMaps from the package, no eval, no logs. */
export const PDFJS_DOCUMENT_OPTIONS = {
  standardFontDataUrl: `${PDFJS_ROOT}/standard_fonts/`,
  cMapUrl: `${PDFJS_ROOT}/cmaps/`,
  cMapPacked: true,
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  stopAtErrors: false,
  verbosity: 0,
};

/**
 * Opens a PDF with pdf.js. pdf.js takes the bytes over (they are moved to its worker side, and the
 * caller's buffer is left empty), so they are copied unless `handOver` says the caller will not use
 * them again. A buffer that is a slice of a larger one is copied either way. `fontDetails` has
 * pdf.js give each loaded font's encoding and Unicode map (and keep its data): for inspecting a few
 * pages' fonts only (pdf-fonts.ts), never for reading a book.
 */
export async function openPdf(input: Uint8Array, { handOver = false, fontDetails = false } = {}): Promise<PdfDocument> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    worker: (await inThreadWorker(pdfjs)).worker,
    data: handOver ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input),
    ...PDFJS_DOCUMENT_OPTIONS,
    fontExtraProperties: fontDetails,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') {
      throw new ParseError('fileEncrypted', 'The PDF needs a password to open', { cause: error });
    }
    throw new ParseError('fileCorrupted', `Unreadable PDF: ${(error as Error).message}`, { cause: error });
  }
}

async function pageText(page: PdfPage, pageNumber: number): Promise<PdfPageText & { paints: Paint[] }> {
  const [x0, y0, x1, y1] = page.view as [number, number, number, number];
  // Presentation forms are made characters after pdf.js's bidi pass (pdf-unicode.ts): made before
  // it, as pdf.js would, an Arabic ligature's letters come out reversed.
  const content = await page.getTextContent({ disableNormalization: true });
  const items: PdfPageText['items'] = [];
  const paintItems: PaintItem[] = [];
  const rotated: Paint[] = [];
  for (const item of content.items) {
    if (isPaintItem(item)) paintItems.push(item);
    if (!('str' in item)) continue;
    const [a, b, c, d, e, f] = item.transform as number[];
    // Rotated text (margin notes, crop-mark slugs) would scramble lines; upright text only. Where it
    // stands is kept: the labels of a chart's axis belong to the chart.
    if (Math.abs(b!) > Math.abs(a!) * 0.1 || Math.abs(c!) > Math.abs(d!) * 0.1) {
      if (item.str.trim()) rotated.push(rotatedBox(item.transform as number[], item.width, x0, y0));
      continue;
    }
    const size = Math.hypot(c!, d!) || item.height;
    const out: PdfTextItem = { str: item.str, x: e! - x0, y: f! - y0, width: item.width, size, font: item.fontName };
    if (content.styles[item.fontName]?.vertical) {
      out.vertical = true;
      out.height = item.height;
    }
    items.push(out);
  }
  const width = x1 - x0;
  const height = y1 - y0;
  const paints = [...pagePaints(paintItems, [x0, y0], width, height), ...rotated];
  return { page: pageNumber, width, height, items, paints };
}

/** The box of a rotated text item: its advance along the baseline, one em across it. */
function rotatedBox([a, b, c, d, e, f]: number[], width: number, x0: number, y0: number): Paint {
  const along = Math.hypot(a!, b!) || 1;
  const dx = (a! / along) * width;
  const dy = (b! / along) * width;
  const xs = [e!, e! + dx, e! + c!, e! + dx + c!];
  const ys = [f!, f! + dy, f! + d!, f! + dy + d!];
  return {
    kind: 'text',
    x0: Math.min(...xs) - x0,
    y0: Math.min(...ys) - y0,
    x1: Math.max(...xs) - x0,
    y1: Math.max(...ys) - y0,
  };
}

/** Pages a reader claims at a time from the shared counter. */
export const CHUNK_PAGES = 8;
/**
 * Pages a reader has pdf.js work on at once. pdf.js inflates content streams on libuv's thread
 * pool and waits for them; with a second page in hand it parses that one meanwhile (about 8% off
 * a long book's parse; more pages in flight gained nothing more).
 */
const PAGES_IN_FLIGHT = 2;
/** Pages loaded to name fonts, at most: a book with a font per page is not loaded twice over. */
const MAX_NAMING_PAGES = 12;
/**
 * Pages a reader reads between two emptyings of pdf.js's caches. pdf.js keeps every font and parsed
 * object of an open document until told to let go; over the 2,956 pages of a 30 MB book, that and
 * the garbage V8 lets pile up beside it took the parse past 600 MB. Books up to this length (nearly
 * all) are read in one go, as before.
 */
export const STRETCH_PAGES = 400;

/**
 * Reads pages of one opened document and names the fonts of their lines on request.
 *
 * pdf.js's text content only carries font ids, and ids belong to one opened document: each thread
 * opens its own copy, where the same font has another id, so ids are prefixed per thread (`t1:`) to
 * stay apart. Names come from a page's operator list (as costly as reading the page again), so they
 * are asked for only when needed: for every font when several threads read the book (to count one
 * font as one), else for the few fonts that may be heading faces.
 *
 * A reader of a long book empties pdf.js's caches every STRETCH_PAGES pages. Most fonts keep their
 * ids when loaded again, but those without a font descriptor get new ones, so the fonts of a
 * stretch not named yet are named before its end, and lines key fonts by name, as when threads
 * share a book.
 */
export class PageReader {
  private readonly doc: PdfDocument;
  private readonly prefix: string;
  private readonly stretchPages: number;
  /** Fonts (pdf.js ids) of the lines read since the caches were last emptied, by page. */
  private readonly fontsOfPage = new Map<number, Set<string>>();
  /** Faces of the fonts of earlier stretches, by prefixed id. */
  private readonly earlierFaces: Record<string, FontFace> = {};
  private readInStretch = 0;
  /** Whether pdf.js's caches were emptied: some fonts then have several ids (see namedFonts). */
  emptiedCaches = false;

  constructor(doc: PdfDocument, prefix = '', stretchPages = STRETCH_PAGES) {
    this.doc = doc;
    this.prefix = prefix;
    this.stretchPages = stretchPages;
  }

  /**
   * Page `n` as lines, fonts still as (prefixed) ids. A page that cannot be read comes back with
   * `error` and no lines: pdf.js recovers what it can, the rest of the book goes on.
   */
  async read(n: number): Promise<PageLines> {
    await this.endStretchIfDue();
    return this.readPage(n);
  }

  /** Pages `first` to `last`, in order, PAGES_IN_FLIGHT at a time. */
  async readPages(first: number, last: number): Promise<PageLines[]> {
    await this.endStretchIfDue();
    const pages = new Array<PageLines>(last - first + 1);
    let next = first;
    const readOnward = async () => {
      for (let n = next++; n <= last; n = next++) pages[n - first] = await this.readPage(n);
    };
    await Promise.all(Array.from({ length: Math.min(PAGES_IN_FLIGHT, pages.length) }, readOnward));
    return pages;
  }

  /** Caches are emptied between pages only, never under a page pdf.js is working on. */
  private async endStretchIfDue(): Promise<void> {
    if (this.readInStretch >= this.stretchPages) await this.endStretch();
  }

  private async readPage(n: number): Promise<PageLines> {
    this.readInStretch++;
    try {
      const page = await this.doc.getPage(n);
      const upright = await pageText(page, n);
      const text = toReadingFrame(upright);
      // The page's own objects are not kept: a page rendered for OCR is loaded again.
      page.cleanup();
      const mojibake = repairPageMojibake(text.items);
      const chars = text.items.reduce((s, i) => s + i.str.trim().length, 0);
      const lines = removeMarginNumbers(buildLines(text));
      const quality = measureWords(lines.map((line) => line.text).join('\n'));
      for (const line of lines) quality.bad += line.badChars ?? 0;
      const fonts = new Set<string>();
      for (const line of lines) {
        if (!line.font) continue;
        fonts.add(line.font);
        line.font = this.prefix + line.font;
      }
      if (fonts.size) this.fontsOfPage.set(n, fonts);
      const { width, height } = text;
      const turned = text !== upright;
      const graphics = turned ? [] : clusterPaints(upright.paints, width, height, lines.map(lineBox));
      return {
        page: n,
        width,
        height,
        chars,
        lines,
        quality,
        rotate: page.rotate,
        turned,
        graphics,
        ...(mojibake && { mojibake }),
      };
    } catch (error) {
      const quality = measureWords('');
      const failed = { width: 0, height: 0, chars: 0, lines: [], quality, rotate: 0, turned: false, graphics: [] };
      return { page: n, ...failed, error: (error as Error).message };
    }
  }

  /**
   * Names the fonts of the stretch, has pdf.js empty its caches, and collects the garbage at once:
   * left to itself V8 grows the heap instead, and the peak with it.
   */
  private async endStretch(): Promise<void> {
    Object.assign(this.earlierFaces, await this.nameNewFonts());
    this.fontsOfPage.clear();
    this.readInStretch = 0;
    this.emptiedCaches = true;
    await this.doc.cleanup();
    collectGarbage();
  }

  /**
   * Names of every font read. A reader that has emptied pdf.js's caches ends its last stretch the
   * same way, so the memory is free again before the layout of the book takes its own.
   */
  async namedFonts(): Promise<Record<string, FontFace>> {
    if (this.emptiedCaches && this.readInStretch) await this.endStretch();
    return { ...this.earlierFaces, ...(await this.nameNewFonts()) };
  }

  /**
   * Names the fonts of this stretch not named in an earlier one. pdf.js gives a font loaded again
   * after its caches were emptied the id it had (the id is kept on the font's descriptor, which
   * stays parsed); only fonts without a descriptor come back under new ids. So most fonts of a long
   * book are named once.
   */
  private nameNewFonts(): Promise<Record<string, FontFace>> {
    const unnamed = new Set<string>();
    for (const fonts of this.fontsOfPage.values()) {
      for (const font of fonts) if (!(this.prefix + font in this.earlierFaces)) unnamed.add(this.prefix + font);
    }
    return this.nameFonts(unnamed);
  }

  /**
   * Names of the fonts read in this stretch (of `only` these, by prefixed id), each looked up on a
   * page using it.
   */
  async nameFonts(only?: Iterable<string>): Promise<Record<string, FontFace>> {
    const faces: Record<string, FontFace> = {};
    const wanted = only && new Set([...only].map((font) => font.slice(this.prefix.length)));
    for (const [n, fonts] of coveringPages(this.fontsOfPage, wanted, MAX_NAMING_PAGES)) {
      try {
        const page = await this.doc.getPage(n);
        await page.getOperatorList();
        for (const font of fonts) {
          if (!page.commonObjs.has(font)) continue;
          const info = page.commonObjs.get(font) as { name?: string; bold?: boolean };
          faces[this.prefix + font] = { name: info.name ?? '', bold: info.bold === true };
        }
        page.cleanup();
      } catch {
        // A font that cannot be loaded stays unnamed: it is simply never a heading font.
      }
    }
    return faces;
  }
}

/** Up to `limit` pages on which every (wanted) font is found: as few as possible, chosen greedily. */
function coveringPages(
  fontsOfPage: Map<number, Set<string>>,
  wanted: Set<string> | undefined,
  limit: number,
): [number, string[]][] {
  const out: [number, string[]][] = [];
  const left = new Set([...fontsOfPage.values()].flatMap((fonts) => [...fonts]));
  if (wanted) for (const font of left) if (!wanted.has(font)) left.delete(font);
  // In page order, as pages read at once may have finished in either order: the same pages win.
  const byPage = [...fontsOfPage].sort(([a], [b]) => a - b);
  while (left.size && out.length < limit) {
    let best: [number, string[]] = [0, []];
    for (const [page, used] of byPage) {
      const covered = [...used].filter((font) => left.has(font));
      if (covered.length > best[1].length) best = [page, covered];
    }
    if (!best[1].length) break;
    for (const font of best[1]) left.delete(font);
    out.push(best);
  }
  return out;
}

/**
 * Claims chunks of CHUNK_PAGES pages from `counter` (shared by every thread reading this document)
 * until none are left, and hands each chunk's lines to `onChunk`.
 */
export async function readChunks(
  reader: PageReader,
  pageCount: number,
  counter: Int32Array,
  onChunk: (pages: PageLines[]) => void | Promise<void>,
): Promise<void> {
  const chunks = Math.ceil(pageCount / CHUNK_PAGES);
  for (let chunk = Atomics.add(counter, 0, 1); chunk < chunks; chunk = Atomics.add(counter, 0, 1)) {
    const first = chunk * CHUNK_PAGES + 1;
    await onChunk(await reader.readPages(first, Math.min(pageCount, first + CHUNK_PAGES - 1)));
  }
}
