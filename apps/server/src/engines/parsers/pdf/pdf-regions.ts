/**
 * Where a block stands on its pages, for the page view beside the reflowed text: one rectangle per
 * page and column piece the block covers (a paragraph going on in the next column or page gets a
 * second one), never one per line.
 *
 * While a book is laid out, boxes are kept in the page's reading frame (PDF points from the bottom
 * left of the crop box, as lines have them; a page of vertical text turned a quarter, see
 * pdf-vertical.ts). `toPdfRegions` then turns them into fractions of the page as it is displayed:
 * page rotation and crop box applied, origin at the top left.
 */
import type { PdfRegion } from '../types.ts';
import type { PdfLine } from './pdf-layout.ts';

/** A box in a page's reading frame (PDF points, y upwards). */
export interface PageBox {
  page: number;
  /** The column of the lines it holds (see PdfLine.col): a new column piece starts a new box. */
  col: number;
  x0: number;
  x1: number;
  bottom: number;
  top: number;
}

/** What turns a page's reading frame into its displayed frame. */
export interface PageGeometry {
  /** The reading frame's size (a turned page has its width and height swapped). */
  width: number;
  height: number;
  /** /Rotate of the page: 0, 90, 180 or 270, clockwise. */
  rotate: number;
  /** Vertical text turned a quarter for reading (pdf-vertical.ts). */
  turned: boolean;
}

/** The extent of a line above and below its baseline, in em: ascenders and descenders. */
const ASCENT = 0.85;
const DESCENT = 0.25;

export function lineBox(line: PdfLine): PageBox {
  return {
    page: line.page,
    col: line.col,
    x0: line.x0,
    x1: line.x1,
    bottom: line.y - line.size * DESCENT,
    top: line.y + line.size * ASCENT,
  };
}

/** Adds `box` to a block's boxes: into the last one when on the same page and column, else as a new piece. */
export function addBox(boxes: PageBox[], box: PageBox): void {
  const last = boxes[boxes.length - 1];
  if (last && last.page === box.page && last.col === box.col) {
    last.x0 = Math.min(last.x0, box.x0);
    last.x1 = Math.max(last.x1, box.x1);
    last.bottom = Math.min(last.bottom, box.bottom);
    last.top = Math.max(last.top, box.top);
  } else boxes.push({ ...box });
}

export function addLineBox(boxes: PageBox[], line: PdfLine): void {
  addBox(boxes, lineBox(line));
}

const round = (v: number) => Math.round(v * 10_000) / 10_000;
const clamp = (v: number) => Math.min(1, Math.max(0, v));

/**
 * A point of a page's reading frame as fractions of the displayed page (origin top left). Turned
 * pages first go back to the page's own frame: the reading frame's x runs down from the top of the
 * page, its y along the page from the left.
 */
function displayed(x: number, y: number, g: PageGeometry): [number, number] {
  // Fractions of the unrotated page, from its bottom left.
  let fx: number;
  let fy: number;
  if (g.turned) {
    fx = y / g.height;
    fy = 1 - x / g.width;
  } else {
    fx = x / g.width;
    fy = y / g.height;
  }
  switch (((g.rotate % 360) + 360) % 360) {
    case 90:
      return [fy, fx];
    case 180:
      return [1 - fx, fy];
    case 270:
      return [1 - fy, 1 - fx];
    default:
      return [fx, 1 - fy];
  }
}

/** A block's boxes as displayed rectangles, fractions of the page (0..1) rounded to 4 places. */
export function toPdfRegions(boxes: PageBox[], geometry: (page: number) => PageGeometry | undefined): PdfRegion[] {
  const out: PdfRegion[] = [];
  for (const box of boxes) {
    const g = geometry(box.page);
    if (!g || !(g.width > 0) || !(g.height > 0)) continue;
    const [ax, ay] = displayed(box.x0, box.bottom, g);
    const [bx, by] = displayed(box.x1, box.top, g);
    const x0 = clamp(Math.min(ax, bx));
    const x1 = clamp(Math.max(ax, bx));
    const y0 = clamp(Math.min(ay, by));
    const y1 = clamp(Math.max(ay, by));
    if (x1 <= x0 || y1 <= y0) continue;
    out.push({ page: box.page, x: round(x0), y: round(y0), w: round(x1 - x0), h: round(y1 - y0) });
  }
  return out;
}
