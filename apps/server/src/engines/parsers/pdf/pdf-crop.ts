/**
 * Figures, tables and formulas cropped from their pages: each region is rendered by pdf.js onto an
 * @napi-rs/canvas of its own size (the page moved so that only the region falls on it). Drawings
 * and type are encoded as lossless WebP (pixel for pixel what PNG gives, at half the bytes and a
 * third of the encoding time), photographs as JPEG at quality 85, at their own resolution.
 *
 * Scale: CROP_SCALE pixels per point (216 dpi). A phone shows a picture at most the width of its
 * screen, 375 CSS pixels: 750–1,125 device pixels at 2–3x. A figure a column wide (about 240 pt)
 * comes out 720 pixels wide, one the width of a page's text (about 470 pt) 1,410: sharp on a phone
 * at 2x and on a desktop reading column. Type of a formula set at 10 pt is 30 pixels high, crisp at
 * the 16–18 CSS pixels the reflow sets text in on a 2x screen. A photograph is rendered no finer
 * than its own pixels (a 150 dpi picture at about 2 pixels per point). Larger regions are rendered
 * smaller, so that none has more than PARSE_LIMITS.cropPixels.
 *
 * Cost: pdf.js builds a page's operator list once for all its regions (render() keeps it), and
 * draws only what may fall on the region: text shown on lines above or below it, and paths and
 * pictures outside it, are skipped (drawing a page's every glyph was most of a crop's time). The
 * encoding runs on libuv's threads, beside the next rendering.
 */
import { collectGarbage } from '../../../lib/collect-garbage.ts';
import type { BookBuilder } from '../builder.ts';
import { throwIfAborted } from '../errors.ts';
import { PARSE_LIMITS } from '../limits.ts';
import type { BookImage, PdfRegion, PendingCrop } from '../types.ts';
import type { Canvas } from '@napi-rs/canvas';
import type { PdfParagraph } from './pdf-layout.ts';
import { toPdfRegions } from './pdf-regions.ts';
import type { PageGeometry } from './pdf-regions.ts';
import { loadPdfJs } from './pdf-text.ts';
import type { PdfDocument, PdfPage } from './pdf-text.ts';

export const CROP_SCALE = 3;
/** Margin around a region, in points: antialiased edges and strokes reaching past their paths' boxes. */
export const CROP_MARGIN = 2;

/** A region of a page to render: where (its margin included) and whether it is a photograph. */
export interface CropRequest {
  region: PdfRegion;
  /** A photograph of this many pixels per point (0: unknown): encoded lossy, rendered no finer. */
  photo?: number;
}

/** The scale a region of `width` × `height` points is rendered at: `scale`, or less past the pixel cap. */
export function cropScale(width: number, height: number, scale = CROP_SCALE): number {
  const pixels = width * height * scale * scale;
  if (pixels <= PARSE_LIMITS.cropPixels) return scale;
  return scale * Math.sqrt(PARSE_LIMITS.cropPixels / pixels);
}

/** pdf.js's canvas drawing state, as far as the filter below reads it (not public API; pinned version). */
interface Graphics {
  ctx: { getTransform(): { a: number; b: number; c: number; d: number; e: number; f: number } };
  current: {
    x: number;
    y: number;
    fontSize: number;
    textMatrix: number[] | null;
    textRenderingMode: number;
    font?: { vertical?: boolean };
  };
}
interface RenderInternals {
  _internalRenderTask: { gfx?: Graphics; operatorList: { fnArray: number[]; argsArray: unknown[] } };
}

/** The operations the filter looks at, by pdf.js's numbers. */
interface Ops {
  showText: Set<number>;
  paintImage: Set<number>;
  constructPath: number;
  endPath: number;
}

async function opsOf(): Promise<Ops> {
  const { OPS } = await loadPdfJs();
  return {
    showText: new Set([OPS.showText, OPS.showSpacedText]),
    paintImage: new Set([
      OPS.paintImageXObject,
      OPS.paintInlineImageXObject,
      OPS.paintImageMaskXObject,
      OPS.paintSolidColorImageMask,
    ]),
    constructPath: OPS.constructPath,
    endPath: OPS.endPath,
  };
}

/**
 * Whether operation `i` may draw on a canvas `width` × `height`: text on a line level with it (a
 * skipped Tj does not move the pen, and the next line is placed from the line start anyway), paths
 * and images whose box touches it. Anything else (state, clips, forms) always runs.
 */
function mayDraw(ops: Ops, task: RenderInternals, i: number, width: number, height: number): boolean {
  const { gfx, operatorList } = task._internalRenderTask;
  if (!gfx) return true;
  const fn = operatorList.fnArray[i]!;
  const isText = ops.showText.has(fn);
  if (!isText && fn !== ops.constructPath && !ops.paintImage.has(fn)) return true;
  const m = gfx.ctx.getTransform();
  if (isText) {
    const { x, y, fontSize, textMatrix, textRenderingMode, font } = gfx.current;
    if (font?.vertical || textRenderingMode >= 4) return true;
    const [a, b, c, d, e, f] = textMatrix ?? [1, 0, 0, 1, 0, 0];
    const px = a! * x + c! * y + e!;
    const py = b! * x + d! * y + f!;
    const deviceY = m.b * px + m.d * py + m.f;
    const em = Math.abs(fontSize * Math.hypot(c!, d!) * m.d) + Math.abs(fontSize * Math.hypot(c!, d!) * m.c);
    return deviceY > -em * 2 && deviceY < height + em * 2;
  }
  const corners = (x0: number, y0: number, x1: number, y1: number) => {
    const xs = [x0, x1, x0, x1].map((x, k) => m.a * x + m.c * [y0, y0, y1, y1][k]! + m.e);
    const ys = [x0, x1, x0, x1].map((x, k) => m.b * x + m.d * [y0, y0, y1, y1][k]! + m.f);
    return (
      Math.max(...xs) >= -4 && Math.min(...xs) <= width + 4 && Math.max(...ys) >= -4 && Math.min(...ys) <= height + 4
    );
  };
  if (fn === ops.constructPath) {
    const [op, , minMax] = operatorList.argsArray[i] as [number, unknown, ArrayLike<number> | null];
    // A path that only clips changes what follows: always made.
    if (!minMax || op === ops.endPath) return true;
    const pad = 10;
    return corners(minMax[0]! - pad, minMax[1]! - pad, minMax[2]! + pad, minMax[3]! + pad);
  }
  if (ops.paintImage.has(fn)) return corners(0, 0, 1, 1);
  return true;
}

async function renderRegion(
  ops: Ops,
  page: PdfPage,
  region: { x: number; y: number; w: number; h: number },
  photo: number | undefined,
  createCanvas: (width: number, height: number) => Canvas,
): Promise<{ canvas: Canvas; width: number; height: number }> {
  const size = page.getViewport({ scale: 1 });
  const wanted = photo === undefined ? CROP_SCALE : Math.min(CROP_SCALE, Math.max(1, photo || 2));
  const scale = cropScale(region.w * size.width, region.h * size.height, wanted);
  const viewport = page.getViewport({ scale });
  const x = Math.floor(region.x * viewport.width);
  const y = Math.floor(region.y * viewport.height);
  const width = Math.max(1, Math.ceil((region.x + region.w) * viewport.width) - x);
  const height = Math.max(1, Math.ceil((region.y + region.h) * viewport.height) - y);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  // The task is known once render() returns; the filter is first called after that.
  const started: { task?: RenderInternals } = {};
  const rendering = page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    canvasContext: context as unknown as CanvasRenderingContext2D,
    viewport,
    transform: [1, 0, 0, 1, -x, -y],
    // Form fields and other annotations are not part of a figure.
    annotationMode: 0,
    operationsFilter: (i: number) => (started.task ? mayDraw(ops, started.task, i, width, height) : true),
  });
  started.task = rendering as unknown as RenderInternals;
  await rendering.promise;
  return { canvas, width, height };
}

/**
 * Pages of figures rendered between two emptyings of pdf.js's caches: the fonts and pictures of
 * every page rendered would otherwise stay (a 434-page book of figures went past 700 MB).
 */
const CROP_STRETCH_PAGES = 16;
/** Pages rendered at once: pdf.js waits on zlib for one (its streams inflate on libuv's threads) while it works on the other. */
const PAGES_IN_FLIGHT = 2;

/**
 * The regions rendered, one image per request (undefined where the page could not be rendered), in
 * the order asked. Pages are taken in order, PAGES_IN_FLIGHT at a time, and let go after their
 * regions; a canvas is freed as soon as its picture is encoded.
 */
export async function renderCrops(
  doc: PdfDocument,
  requests: CropRequest[],
  signal?: AbortSignal,
): Promise<(Omit<BookImage, 'id'> | undefined)[]> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const ops = await opsOf();
  const out: (Omit<BookImage, 'id'> | undefined)[] = new Array(requests.length);
  const byPage = new Map<number, number[]>();
  requests.forEach((r, i) => byPage.set(r.region.page, [...(byPage.get(r.region.page) ?? []), i]));
  const pages = [...byPage].sort(([a], [b]) => a - b);

  const cropPage = async (n: number, indexes: number[]) => {
    let page: PdfPage;
    try {
      page = await doc.getPage(n);
    } catch {
      return;
    }
    const encoding: Promise<void>[] = [];
    for (const i of indexes) {
      const { region, photo } = requests[i]!;
      try {
        const { canvas, width, height } = await renderRegion(ops, page, region, photo, (w, h) => createCanvas(w, h));
        const lossy = photo !== undefined;
        // Encoded on libuv's threads while the next region renders; the canvas freed at once after.
        encoding.push(
          (lossy ? canvas.encode('jpeg', 85) : canvas.encode('webp', 100))
            .then((data) => void (out[i] = { data, mediaType: lossy ? 'image/jpeg' : 'image/webp', width, height }))
            .catch(() => undefined)
            .finally(() => (canvas.width = canvas.height = 0)),
        );
      } catch {
        // A region pdf.js cannot render is left out; its text is gone with it, its caption stays.
      }
    }
    page.cleanup();
    await Promise.all(encoding);
  };

  // In stretches, pdf.js's caches emptied between them (as when the text was read, pdf-text.ts).
  for (let start = 0; start < pages.length; start += CROP_STRETCH_PAGES) {
    const stretch = pages.slice(start, start + CROP_STRETCH_PAGES);
    let next = 0;
    const lane = async () => {
      for (let k = next++; k < stretch.length; k = next++) {
        throwIfAborted(signal);
        await cropPage(...stretch[k]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PAGES_IN_FLIGHT, stretch.length) }, lane));
    if (start + CROP_STRETCH_PAGES < pages.length) {
      await doc.cleanup();
      collectGarbage();
    }
  }
  return out;
}

/**
 * Renders the `figure` paragraphs among `paragraphs` and adds their pictures to the book. Each gets
 * its `imageId` (`pdf-p{page}-{n}`, n counting the page's figures); one whose region could not be
 * rendered gets none. Past the first `inParse` figures in page order, the regions are not rendered
 * here but returned, to be rendered after the book is stored (a 400-page book of figures takes three
 * times as long to crop as to read): their blocks keep their ids.
 */
export async function cropFigures(
  doc: PdfDocument,
  paragraphs: PdfParagraph[],
  geometry: (page: number) => PageGeometry | undefined,
  book: BookBuilder,
  { signal, inParse = Infinity }: { signal?: AbortSignal; inParse?: number } = {},
): Promise<PendingCrop[]> {
  const tooLarge = paragraphs.filter(
    (p) => p.kind === 'figure' && (p.sourcePixels ?? 0) > PARSE_LIMITS.cropSourcePixels,
  );
  if (tooLarge.length) book.warn(`Left out ${tooLarge.length} figures whose pictures are too large to render`);
  const perPage = new Map<number, number>();
  const figures = paragraphs.flatMap((p) => {
    if (p.kind !== 'figure' || tooLarge.includes(p)) return [];
    const b = p.boxes[0]!;
    const grown = {
      page: p.page,
      col: 0,
      x0: b.x0 - CROP_MARGIN,
      x1: b.x1 + CROP_MARGIN,
      bottom: b.bottom - CROP_MARGIN,
      top: b.top + CROP_MARGIN,
    };
    const [region] = toPdfRegions([grown], geometry);
    if (!region) return [];
    const n = (perPage.get(p.page) ?? 0) + 1;
    perPage.set(p.page, n);
    const crop: PendingCrop = { imageId: `pdf-p${p.page}-${n}`, region };
    if (p.photo !== undefined) crop.photo = p.photo;
    return [{ paragraph: p, crop }];
  });
  if (!figures.length) return [];
  figures.sort((a, b) => a.crop.region.page - b.crop.region.page);
  const now = figures.slice(0, Math.max(0, inParse));
  const images = await renderCrops(
    doc,
    now.map((f) => f.crop),
    signal,
  );
  now.forEach(({ paragraph, crop }, i) => {
    const image = images[i];
    if (!image) return;
    paragraph.imageId = crop.imageId;
    book.images.push({ id: crop.imageId, ...image });
  });
  const failed = now.length - images.filter(Boolean).length;
  if (failed) book.warn(`${failed} figures could not be rendered`);
  const later = figures.slice(now.length);
  for (const { paragraph, crop } of later) paragraph.imageId = crop.imageId;
  return later.map((f) => f.crop);
}
