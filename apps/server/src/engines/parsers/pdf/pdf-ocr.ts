/**
 * Pages of a PDF read by OCR: pages without a text layer in a mostly scanned book (or every page
 * with forceOCR), and pages whose text layer is garbage (pdf-garbage.ts) when a model reads the
 * language asked. Pages are rendered at 2× with @napi-rs/canvas and recognised one at a time.
 */
import { ParseError, throwIfAborted } from '../errors.ts';
import { countBadChars, judgeText, measureWords } from './pdf-garbage.ts';
import { joinParagraphLines } from './pdf-join.ts';
import type { PdfParagraph } from './pdf-layout.ts';
import type { PdfDocument, PdfPage } from './pdf-text.ts';
import type { OcrEngine, OcrResult } from '../../ocr/types.ts';
import type { ParseOptions } from '../types.ts';
import { PARSE_LIMITS } from '../limits.ts';

const OCR_SCALE = 2;
/**
 * Below this mean confidence (0..100) tesseract has read a script it has no model for: a page of
 * Russian read by the English model scores about 50–70, where a page it reads scores 85 and more.
 */
const MIN_CONFIDENCE = 75;
/** A lower-case letter before a capital inside a word: "CyMMa aBaHCOBOTO", Cyrillic read as Latin. */
const CASE_CHANGE = /\p{Ll}\p{Lu}/u;
/**
 * When OCR gives garbage again for this many garbage pages, and for most of those tried, the rest are
 * given up: the models at hand do not read the book's language, and each page costs seconds.
 */
const FAILURES_BEFORE_GIVING_UP = 2;

/** The scale a page is rendered at for OCR: OCR_SCALE, or less for a page too large to render whole. */
export function ocrScale(width: number, height: number): number {
  const pixels = width * height * OCR_SCALE * OCR_SCALE;
  if (pixels <= PARSE_LIMITS.ocrCanvasPixels) return OCR_SCALE;
  return OCR_SCALE * Math.sqrt(PARSE_LIMITS.ocrCanvasPixels / pixels);
}

async function renderPng(page: PdfPage): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const size = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: ocrScale(size.width, size.height) });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    canvasContext: context as unknown as CanvasRenderingContext2D,
    viewport,
  }).promise;
  return canvas.toBuffer('image/png');
}

async function defaultOcrEngine(): Promise<OcrEngine> {
  const { getSharedOcrEngine } = await import('../../ocr/tesseract.ts');
  return getSharedOcrEngine();
}

/** The OCR engine of a parse: the one given, else the shared tesseract engine. */
export async function ocrEngineOf(options: ParseOptions): Promise<OcrEngine> {
  return options.ocrEngine ?? defaultOcrEngine();
}

/** Whether OCR read a page: text of a language, not the garbage of a model made for another script. */
export function isReadableOcr(result: OcrResult): boolean {
  if (!/\p{L}/u.test(result.text) || result.confidence < MIN_CONFIDENCE) return false;
  const quality = measureWords(result.text);
  quality.bad = countBadChars(result.text);
  // An OCR text has no fonts to clear a doubt: doubtful is unread.
  if (judgeText(quality) !== 'clean') return false;
  const words = result.text.split(/\s+/).filter((word) => /\p{L}/u.test(word));
  return words.filter((word) => CASE_CHANGE.test(word)).length < words.length * 0.08;
}

export interface OcrPlan {
  /** Pages to read, in order. */
  pages: Set<number>;
  /** Of those, pages whose text layer was garbage: their OCR must read as text, else they stay unread. */
  garbage: Set<number>;
  /** Languages for the garbage pages: those asked that the engine reads. */
  garbageLanguages: string[];
}

/** OCR text by page; garbage pages whose OCR did not read are left out. */
export async function readByOcr(
  doc: PdfDocument,
  plan: OcrPlan,
  options: ParseOptions,
  engine: OcrEngine,
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const languages = options.ocrLanguages?.length ? options.ocrLanguages : ['en'];
  let done = 0;
  let failures = 0;
  let successes = 0;
  for (const n of plan.pages) {
    throwIfAborted(options.signal);
    const garbage = plan.garbage.has(n);
    if (garbage && failures >= FAILURES_BEFORE_GIVING_UP && failures > successes * 2) continue;
    let result: OcrResult;
    try {
      result = await engine.recognize(
        await renderPng(await doc.getPage(n)),
        garbage ? plan.garbageLanguages : languages,
      );
    } catch (error) {
      if (error instanceof ParseError) throw error;
      throw new ParseError('ocrUnavailable', `OCR failed: ${(error as Error).message}`, { cause: error });
    }
    if (!garbage) out.set(n, result.text);
    else if (isReadableOcr(result)) {
      out.set(n, result.text);
      successes++;
    } else failures++;
    done++;
    options.onProgress?.(0.4 + (0.5 * done) / plan.pages.size);
  }
  return out;
}

/**
 * OCR text → paragraphs. Tesseract's paragraphs are often whole pages, so a short line ending a
 * sentence also ends a paragraph; lines are re-joined with hyphen repair.
 */
export function ocrParagraphs(text: string, page: number): PdfParagraph[] {
  const out: PdfParagraph[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const lengths = lines.map((l) => l.length).sort((a, b) => a - b);
    const typical = lengths[Math.floor(lengths.length * 0.8)] ?? 0;
    let current: string[] = [];
    const flush = () => {
      const joined = joinParagraphLines(current);
      if (joined.replace(/[\s\p{P}]/gu, '').length > 0) {
        out.push({ kind: 'paragraph', text: joined, page, top: 0, size: 0, marks: [], boxes: [] });
      }
      current = [];
    };
    for (const line of lines) {
      current.push(line);
      if (line.length < typical * 0.7 && /[.!?。！？”"]$/.test(line)) flush();
    }
    flush();
  }
  return out;
}
