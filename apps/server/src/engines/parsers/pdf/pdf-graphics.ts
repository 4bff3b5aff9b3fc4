/**
 * What a page draws besides its text: pictures (image XObjects, inline images), vector paths (fills
 * and strokes) and shadings, and rotated text (axis labels), as boxes. Yidu's patch of pdf.js
 * (patches/) has getTextContent report them when `__yiduPaintBoxes` is set, while it reads the page's
 * text anyway: knowing where a page's figures are costs no second pass over it.
 *
 * A page may paint tens of thousands of paths (a map, a chart of many points), so the reading thread
 * reduces them at once to a few graphics: boxes of paint that touch or nearly touch, with what they
 * are made of. pdf-figures.ts decides which are figures and tables.
 */

/** A paint as the pdf.js patch reports it, in PDF user space. */
export interface PaintItem {
  type: 'yiduPaint';
  kind: 'image' | 'path' | 'shading';
  fill: boolean;
  stroke: boolean;
  /** A fill in white: a background or a mask, not something seen. */
  white: boolean;
  box: [number, number, number, number];
  /** Of strokes, in user space units. */
  lineWidth: number;
  /** Of images: their width and height in pixels, when known. */
  pixels: [number, number] | null;
}

export function isPaintItem(item: unknown): item is PaintItem {
  return (item as { type?: unknown }).type === 'yiduPaint';
}

/** A box on the page (PDF points from the bottom left of the crop box, y upwards). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Paint extends Box {
  kind: 'image' | 'path' | 'shading' | 'text';
  /** Of images: how many pixels it has. */
  pixels?: number;
}

/** Touching paints of a page, taken together. */
export interface Graphic extends Box {
  /** Paints in it. */
  paints: number;
  /** Area of its pictures (images), in square points, and the pixels they have (where known). */
  imageArea: number;
  imagePixels: number;
  /** Thin horizontal paints at least 20 pt long: table rules, fraction bars, underlines. */
  rules: number;
  /** Rotated text in it (axis labels), which the lines of the page leave out. */
  texts: number;
  /** Thin paints along an axis, of any length: the rules of a grid (and a chart's axes and ticks). */
  thin: number;
  /** Lines of text each inside a box it paints (a shaded or framed cell of a table, a box of a flowchart). */
  cells: number;
  /** Lines of text starting inside it. */
  lines: number;
}

/** Paints nearer than this (points) belong to one graphic. */
const TOUCH = 3;
/** Grid cell of the clustering, in points. */
const CELL = 3;
/** Paints over this share of the page are its background (or a scan under an OCR layer), not a graphic. */
const BACKGROUND_SHARE = 0.85;

export const area = (b: Box) => Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
export const isRule = (b: Box) => b.y1 - b.y0 < 1.6 && b.x1 - b.x0 >= 20;
const isThin = (b: Box) => {
  const w = b.x1 - b.x0;
  const h = b.y1 - b.y0;
  return (h < 2 && w >= h * 4) || (w < 2 && h >= w * 4);
};

/** Paints of a page in the page's frame (crop box origin), without the invisible and the background. */
export function pagePaints(items: PaintItem[], origin: [number, number], width: number, height: number): Paint[] {
  const out: Paint[] = [];
  const pageArea = width * height;
  for (const item of items) {
    if (item.white) continue;
    const half = item.stroke ? item.lineWidth / 2 : 0;
    const box: Paint = {
      kind: item.kind,
      x0: Math.max(0, item.box[0] - origin[0] - half),
      y0: Math.max(0, item.box[1] - origin[1] - half),
      x1: Math.min(width, item.box[2] - origin[0] + half),
      y1: Math.min(height, item.box[3] - origin[1] + half),
    };
    if (box.x1 < box.x0 || box.y1 < box.y0) continue;
    const [w, h] = item.pixels ?? [];
    if (typeof w === 'number' && typeof h === 'number' && w > 0 && h > 0) box.pixels = w * h;
    if (area(box) > pageArea * BACKGROUND_SHARE) continue;
    out.push(box);
  }
  return out;
}

/**
 * Paints that touch (within TOUCH points) taken together, by connected cells of a grid: linear in
 * the paints and the page's area, whatever their number.
 */
export function clusterPaints(paints: Paint[], width: number, height: number, lines: Box[] = []): Graphic[] {
  if (!paints.length) return [];
  const cols = Math.max(1, Math.ceil(width / CELL));
  const rows = Math.max(1, Math.ceil(height / CELL));
  /** Per cell: the first paint marking it + 1 (0: empty). */
  const owner = new Int32Array(cols * rows);
  const parent = paints.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const cell = (v: number, n: number) => Math.min(n - 1, Math.max(0, Math.floor(v / CELL)));
  paints.forEach((p, i) => {
    const cx0 = cell(p.x0 - TOUCH, cols);
    const cx1 = cell(p.x1 + TOUCH, cols);
    const cy0 = cell(p.y0 - TOUCH, rows);
    const cy1 = cell(p.y1 + TOUCH, rows);
    // A long thin paint marks its outline only: a frame around a page of text must not join what it frames.
    const hollow = p.kind !== 'image' && cx1 - cx0 > 8 && cy1 - cy0 > 8 && p.kind !== 'shading';
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        if (hollow && cy > cy0 && cy < cy1 && cx > cx0 && cx < cx1) continue;
        const at = cy * cols + cx;
        const other = owner[at]! - 1;
        if (other === -1) owner[at] = i + 1;
        else parent[find(i)] = find(other);
      }
    }
  });
  const groups = new Map<number, Graphic>();
  paints.forEach((p, i) => {
    const root = find(i);
    const g = groups.get(root) ?? {
      ...{ x0: p.x0, y0: p.y0, x1: p.x1, y1: p.y1 },
      ...{ paints: 0, imageArea: 0, imagePixels: 0, rules: 0, texts: 0, thin: 0, cells: 0, lines: 0 },
    };
    g.x0 = Math.min(g.x0, p.x0);
    g.y0 = Math.min(g.y0, p.y0);
    g.x1 = Math.max(g.x1, p.x1);
    g.y1 = Math.max(g.y1, p.y1);
    g.paints++;
    if (p.kind === 'image') {
      g.imageArea += area(p);
      g.imagePixels += p.pixels ?? 0;
    }
    if (p.kind === 'text') g.texts++;
    else if (isRule(p)) g.rules++;
    if (p.kind !== 'text' && isThin(p)) g.thin++;
    groups.set(root, g);
  });
  // A line starting inside a box that a path paints, a few lines high: a cell. (Where a line ends is
  // less sure: some fonts give pdf.js widths far past their glyphs.)
  for (const line of lines) {
    const x = line.x0 + 1;
    const y = (line.y0 + line.y1) / 2;
    const height = line.y1 - line.y0;
    const cell = paints.findIndex(
      (p) =>
        p.kind === 'path' &&
        !isThin(p) &&
        p.x0 <= x &&
        p.x1 >= x + height &&
        p.y0 <= y &&
        p.y1 >= y &&
        p.y1 - p.y0 <= height * 5,
    );
    if (cell !== -1) groups.get(find(cell))!.cells++;
  }
  for (const line of lines) {
    const x = line.x0 + 1;
    const y = (line.y0 + line.y1) / 2;
    for (const g of groups.values()) if (g.x0 <= x && g.x1 >= x && g.y0 <= y && g.y1 >= y) g.lines++;
  }
  return [...groups.values()].map((g) => ({
    ...g,
    x0: round(g.x0),
    y0: round(g.y0),
    x1: round(g.x1),
    y1: round(g.y1),
    imageArea: Math.round(g.imageArea),
  }));
}

const round = (v: number) => Math.round(v * 10) / 10;
