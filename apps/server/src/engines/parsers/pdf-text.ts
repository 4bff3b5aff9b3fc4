/**
 * One PDF page's text layer through pdf.js, turned into lines at once, and the names of its fonts.
 * Shared by the parsing thread and the helper threads of pdf-threads.ts: every function here works on
 * a document opened in the calling thread and returns plain data that can be posted between threads.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { ParseError } from './errors.ts';
import { buildLines, removeMarginNumbers } from './pdf-layout.ts';
import type { PdfLine, PdfPageText } from './pdf-layout.ts';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

type PdfJs = typeof PdfJsModule;
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

const require = createRequire(import.meta.url);
const PDFJS_ROOT = path.dirname(require.resolve('pdfjs-dist/package.json'));
let pdfjsModule: Promise<PdfJs> | undefined;
const loadPdfJs = () => (pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

/** A page's lines (margin numbers already removed) and how much text it has, or why it failed. */
export interface PageLines {
  page: number;
  width: number;
  height: number;
  /** Non-blank characters of the text layer: few means a scanned page. */
  chars: number;
  lines: PdfLine[];
  error?: string;
}

export interface FontFace {
  name: string;
  bold: boolean;
}

export async function openPdf(input: Uint8Array): Promise<PdfDocument> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(input),
    standardFontDataUrl: `${PDFJS_ROOT}/standard_fonts/`,
    cMapUrl: `${PDFJS_ROOT}/cmaps/`,
    cMapPacked: true,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
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

async function pageText(page: PdfPage, pageNumber: number, fontPrefix: string): Promise<PdfPageText> {
  const [x0, y0, x1, y1] = page.view as [number, number, number, number];
  const content = await page.getTextContent();
  const items: PdfPageText['items'] = [];
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const [a, b, c, d, e, f] = item.transform as number[];
    // Rotated text (margin notes, crop-mark slugs) would scramble lines; upright text only.
    if (Math.abs(b!) > Math.abs(a!) * 0.1 || Math.abs(c!) > Math.abs(d!) * 0.1) continue;
    const size = Math.hypot(c!, d!) || item.height;
    const font = fontPrefix + item.fontName;
    items.push({ str: item.str, x: e! - x0, y: f! - y0, width: item.width, size, font });
  }
  return { page: pageNumber, width: x1 - x0, height: y1 - y0, items };
}

/**
 * Page `n` as lines. pdf.js numbers fonts per document, so a thread prefixes its font ids to keep
 * them apart from another thread's (see pdf-threads.ts). A page that cannot be read comes back with
 * `error` and no lines: pdf.js recovers what it can, the rest of the book goes on.
 */
export async function pageLines(doc: PdfDocument, n: number, fontPrefix = ''): Promise<PageLines> {
  try {
    const page = await doc.getPage(n);
    const text = await pageText(page, n, fontPrefix);
    // Fonts and parsed content are not kept: a page rendered for OCR is loaded again.
    page.cleanup();
    const chars = text.items.reduce((s, i) => s + i.str.trim().length, 0);
    return { page: n, width: text.width, height: text.height, chars, lines: removeMarginNumbers(buildLines(text)) };
  } catch (error) {
    return { page: n, width: 0, height: 0, chars: 0, lines: [], error: (error as Error).message };
  }
}

/**
 * Names of fonts (pdf.js ids, without a thread's prefix), each looked up on a page that uses it.
 * pdf.js's text content only carries ids; the names come with the page's operator list, so each page
 * is loaded once for all the fonts asked of it.
 */
export async function fontFaces(
  doc: PdfDocument,
  requests: { font: string; page: number }[],
): Promise<Record<string, FontFace>> {
  const out: Record<string, FontFace> = {};
  const byPage = new Map<number, string[]>();
  for (const r of requests) byPage.set(r.page, [...(byPage.get(r.page) ?? []), r.font]);
  for (const [n, fonts] of byPage) {
    try {
      const page = await doc.getPage(n);
      await page.getOperatorList();
      for (const font of fonts) {
        if (!page.commonObjs.has(font)) continue;
        const info = page.commonObjs.get(font) as { name?: string; bold?: boolean };
        out[font] = { name: info.name ?? '', bold: info.bold === true };
      }
      page.cleanup();
    } catch {
      // A font that cannot be loaded stays unnamed: it is simply never a heading font.
    }
  }
  return out;
}
