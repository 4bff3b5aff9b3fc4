/**
 * Figures and tables of a page, found from what it paints (pdf-graphics.ts), its captions and its
 * lines. Each becomes a picture cropped from the page (pdf-crop.ts) with its caption as a paragraph
 * of its own beside it; the text inside a figure (axis labels, the words of a diagram, the cells of
 * a captioned table) is no paragraph of the book.
 *
 * - A picture (an image) or a drawing (paths with little text among them) is a figure, captioned or
 *   not; a frame or grid around text (a code box, an uncaptioned table) is a figure only when a
 *   caption claims it: such text stays text.
 * - A caption ("Figure 3.", "Table I", "图 2", "Abbildung 4:"…) claims the nearest figure above,
 *   below or beside it with no body text between; without one, the lines next to it that are not
 *   body text (a code listing, a table drawn without rules) up to the body text. A line that starts
 *   like a caption with body text on both sides ("Figure 3. shows…" in a paragraph) is not one.
 * - The labels around a chart (ticks, axis titles, legends) go with it.
 */
import type { PdfLine } from './pdf-layout.ts';
import { area } from './pdf-graphics.ts';
import type { Box, Graphic } from './pdf-graphics.ts';

export interface FigureContext {
  bodySize: number;
  /** The font of the body text (most characters at body size), when known. */
  bodyFont?: string;
}

export interface PageFigure {
  kind: 'figure' | 'table';
  /** What is cropped: the figure with its labels, without its caption. */
  box: Box;
  /** The caption's lines, in reading order (none for an uncaptioned picture or drawing). */
  caption: PdfLine[];
  /** The caption stands above or beside the figure: read first. */
  captionFirst: boolean;
  /** The lines inside the figure, left out of the text. */
  inside: PdfLine[];
  /** Mostly a photograph: how many pixels per point it has (encoded lossy, and no finer). */
  photo?: number;
  /** Pixels of the pictures in it, as stored in the PDF (what rendering it must decode). */
  sourcePixels: number;
}

const CAPTION =
  /^(?:(?:fig(?:ure|\.)?|abbildung|abb\.|figura|rysunek|рис(?:унок|\.)|table|tab\.|tabelle|tableau|tabla|tabela|tabulka|таблица|obrázek|listing|exhibit|chart|plate|scheme)\s*(?:\d+(?:[.\-–]\d+)*[a-z]?|[IVXLC]+)\b\s*(?:[.:：|—–-]|$)|(?:图|表|圖|図|그림|표)\s*\d+(?:[.\-–]\d+)*(?=\s|[.:：、\u3000]|$))/iu;
const TABLE_LABEL = /^(?:tab|表|таб|표)/iu;

export const isCaptionStart = (text: string) => CAPTION.test(text.trim());

/**
 * A line's box: descender bottom to ascender top, at most an em per character wide (some fonts give
 * pdf.js widths far past their glyphs, which would put a table's row across the page and beyond).
 */
export function lineBox(l: PdfLine): Box {
  const x1 = Math.min(l.x1, l.x0 + [...l.text].length * l.size * 1.1);
  return { x0: l.x0, x1, y0: l.y - l.size * 0.25, y1: l.y + l.size * 0.85 };
}

export function union(a: Box, b: Box): Box {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

const overlapX = (a: Box, b: Box) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
const overlapY = (a: Box, b: Box) => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
const inside = (b: Box, outer: Box, slack = 1) =>
  (b.x0 + b.x1) / 2 >= outer.x0 - slack &&
  (b.x0 + b.x1) / 2 <= outer.x1 + slack &&
  (b.y0 + b.y1) / 2 >= outer.y0 - slack &&
  (b.y0 + b.y1) / 2 <= outer.y1 + slack;

/**
 * A line of the running text: body size and face, and prose: in scripts with spaces, words mostly
 * in lower case with few numbers (a table's row or header is neither), else mostly letters.
 */
export function isBodyLine(l: PdfLine, ctx: FigureContext): boolean {
  if (Math.abs(l.size - ctx.bodySize) > Math.max(0.6, ctx.bodySize * 0.08)) return false;
  if (ctx.bodyFont !== undefined && l.font !== undefined && l.font !== ctx.bodyFont) return false;
  const letters = (l.text.match(/\p{L}/gu) ?? []).length;
  if (letters < 12 || letters < l.text.replace(/\s/g, '').length * 0.6) return false;
  const cjk = (l.text.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/gu) ?? []).length;
  if (cjk >= letters * 0.5) return true;
  const tokens = l.text.split(/\s+/).filter(Boolean);
  if (tokens.length < 4) return false;
  const words = tokens.filter((t) => /\p{L}{2}/u.test(t));
  const numbers = tokens.filter((t) => /\d/.test(t) && !/\p{L}{2}/u.test(t));
  const lower = words.filter((t) => /^[("'“‘]?\p{Ll}/u.test(t));
  return numbers.length <= tokens.length * 0.2 && lower.length >= words.length * 0.4;
}

const isHeadingLine = (l: PdfLine, ctx: FigureContext) => l.size >= ctx.bodySize * 1.15 && /\p{L}/u.test(l.text);

/** Two boxes of about the same size: panels of one grid of charts. */
const samePanel = (a: Box, b: Box) =>
  Math.abs(a.x1 - a.x0 - (b.x1 - b.x0)) <= (b.x1 - b.x0) * 0.2 &&
  Math.abs(a.y1 - a.y0 - (b.y1 - b.y0)) <= (b.y1 - b.y0) * 0.2;

type Body = { box: Box; kind: 'picture' | 'drawing' | 'frame'; graphic: Graphic };

/** Of a figure that is mostly pictures: their pixels per point (0 when their size is unknown). */
function photoDensity(g: Graphic, box: Box): number | undefined {
  if (g.imageArea < area(box) * 0.7) return undefined;
  return g.imagePixels ? Math.sqrt(g.imagePixels / g.imageArea) : 0;
}

/** Rules (thin paints along the axes) around text, or boxes holding it: a table's grid, not a drawing. */
function isGrid(g: Graphic, texts: number): boolean {
  const drawn = g.paints - g.texts;
  return (texts >= 1 && g.thin >= drawn * 0.9) || (texts >= 2 && (g.thin >= drawn * 0.8 || g.cells >= texts * 0.3));
}

/** What each graphic of the page is: a picture, a drawing, a frame around text, or nothing (rules, specks). */
function classify(graphics: Graphic[], lines: PdfLine[], ctx: FigureContext): Body[] {
  const out: Body[] = [];
  for (const g of graphics) {
    const w = g.x1 - g.x0;
    const h = g.y1 - g.y0;
    if (w < 12 || h < 8) continue;
    const within = lines.filter((l) => inside(lineBox(l), g));
    const textArea = within.reduce((s, l) => s + area(lineBox(l)), 0);
    const bodyLines = within.filter((l) => isBodyLine(l, ctx)).length;
    // Lines in it as the page was read (running heads and the like taken out since).
    const texts = Math.max(within.length, g.lines);
    // Sentences in it: a table's cells, a text box; a chart has labels.
    const prose = within.filter(isProse);
    if (g.imageArea >= area(g) * 0.4) {
      // Text set over a picture is a scanned page or a background, not a figure.
      if (bodyLines >= 3 || w < 24 || h < 24) continue;
      out.push({ box: g, kind: 'picture', graphic: g });
    } else if (
      textArea <= area(g) * 0.3 &&
      bodyLines <= 2 &&
      (g.paints >= 4 || area(g) >= 2500) &&
      h >= 16 &&
      prose.length < 4 &&
      // Rules around text and boxes holding it are a table's grid, not a drawing.
      !isGrid(g, texts)
    ) {
      out.push({ box: g, kind: 'drawing', graphic: g });
    } else if (within.length) out.push({ box: g, kind: 'frame', graphic: g });
  }
  return out;
}

/** The caption's paragraph: the caption line and the lines after it in the same column and type. */
function captionLines(lines: PdfLine[], start: number): PdfLine[] {
  const out = [lines[start]!];
  for (let i = start + 1; i < lines.length && out.length < 12; i++) {
    const prev = out[out.length - 1]!;
    const l = lines[i]!;
    if (l.col !== prev.col || Math.abs(l.size - prev.size) > prev.size * 0.12 || isCaptionStart(l.text)) break;
    const gap = prev.y - l.y;
    if (gap <= 0 || gap > Math.max(l.size, prev.size) * 1.6) break;
    out.push(l);
  }
  return out;
}

/**
 * How far a figure may stand from its caption, and its parts from one another (points): the
 * space LaTeX leaves between a float and its caption, with a row of panel labels ("(a)") in it.
 */
const gapLimit = (ctx: FigureContext) => ctx.bodySize * 5;

/** Whether body text stands between two boxes (above/below each other). */
function bodyBetween(a: Box, b: Box, lines: PdfLine[], ctx: FigureContext): boolean {
  const top = Math.min(Math.max(a.y0, b.y0), Math.max(a.y1, b.y1));
  const low = Math.max(Math.min(a.y1, b.y1), Math.min(a.y0, b.y0));
  const span = { x0: Math.max(a.x0, b.x0), x1: Math.min(a.x1, b.x1), y0: low, y1: top };
  return lines.some((l) => {
    const box = lineBox(l);
    return isBodyLine(l, ctx) && box.y0 >= span.y0 - 1 && box.y1 <= span.y1 + 1 && overlapX(box, span) > 0;
  });
}

/** The distance from a caption to a figure that may be its, or undefined; `above`: the figure is above it. */
function placement(
  caption: Box,
  body: Box,
  ctx: FigureContext,
): { gap: number; side: 'above' | 'below' | 'beside' } | undefined {
  const limit = gapLimit(ctx);
  const wide = Math.min(caption.x1 - caption.x0, body.x1 - body.x0);
  if (overlapX(caption, body) >= wide * 0.3) {
    if (body.y0 >= caption.y1 - 2 && body.y0 - caption.y1 <= limit) return { gap: body.y0 - caption.y1, side: 'above' };
    if (body.y1 <= caption.y0 + 2 && caption.y0 - body.y1 <= limit) return { gap: caption.y0 - body.y1, side: 'below' };
  }
  // A caption in the margin beside its figure (journals), level with some of it.
  if (overlapY(caption, body) >= Math.min(caption.y1 - caption.y0, body.y1 - body.y0) * 0.5) {
    const gap = Math.max(body.x0 - caption.x1, caption.x0 - body.x1);
    if (gap >= -2 && gap <= limit * 1.5) return { gap, side: 'beside' };
  }
  return undefined;
}

/**
 * A figure made of text only, above or below its caption (a code listing, a table without a
 * frame): the lines and rules next to it that are not body text, up to the body text.
 */
function textFigure(
  caption: Box,
  below: boolean,
  lines: PdfLine[],
  taken: Set<PdfLine>,
  rules: Box[],
  ctx: FigureContext,
): Box | undefined {
  const span = caption;
  const near = [
    ...lines.map((l) => ({ box: lineBox(l), line: l as PdfLine | undefined })),
    ...rules.map((box) => ({ box, line: undefined })),
  ]
    .filter(({ box }) => overlapX(box, span) > Math.min(box.x1 - box.x0, span.x1 - span.x0) * 0.3)
    .filter(({ box }) => (below ? box.y1 <= caption.y0 + 1 : box.y0 >= caption.y1 - 1))
    .sort((a, b) => (below ? b.box.y1 - a.box.y1 : a.box.y0 - b.box.y0));
  let found: Box | undefined;
  let edge = below ? caption.y0 : caption.y1;
  for (const { box, line } of near) {
    const gap = below ? edge - box.y1 : box.y0 - edge;
    if (gap > (line ? Math.max(line.size * 2.2, 14) : gapLimit(ctx))) break;
    if (line && (taken.has(line) || isBodyLine(line, ctx) || isHeadingLine(line, ctx))) break;
    found = found ? union(found, box) : box;
    edge = below ? Math.min(edge, box.y0) : Math.max(edge, box.y1);
  }
  // A lone rule or one short line is not a figure.
  if (!found || found.y1 - found.y0 < ctx.bodySize * 1.5) return undefined;
  return found;
}

/** A line of sentences: long, mostly letters, with words in lower case. */
const isProse = (l: PdfLine) =>
  l.text.length >= 30 &&
  (l.text.match(/\p{L}/gu) ?? []).length >= l.text.length * 0.6 &&
  /(^|\s)\p{Ll}{2,}/u.test(l.text);

/** Not set like the body: smaller, or in another face. */
const labelLike = (l: PdfLine, ctx: FigureContext) =>
  l.size < ctx.bodySize * 0.95 || (ctx.bodyFont !== undefined && l.font !== undefined && l.font !== ctx.bodyFont);

/**
 * Where a figure's labels may reach sideways: up to the body text of the columns beside it (the
 * nearest body line level with it on either side).
 */
function walls(box: Box, lines: PdfLine[], ctx: FigureContext): [number, number] {
  let left = -Infinity;
  let right = Infinity;
  const band = { ...box, y0: box.y0 - 30, y1: box.y1 + 30 };
  for (const l of lines) {
    const b = lineBox(l);
    if (overlapY(b, band) <= 0 || overlapX(b, box) > 0 || !isBodyLine(l, ctx)) continue;
    if (b.x1 <= box.x0) left = Math.max(left, b.x1);
    else if (b.x0 >= box.x1) right = Math.min(right, b.x0);
  }
  return [left, right];
}

/**
 * Lines standing around a chart (ticks, axis titles, a legend, its title), taken into its box: set
 * unlike the body, level with it or just above or below it, never past the text beside it nor into
 * another figure. Lines inside the box as it grows are its own, whatever they are.
 */
function withLabels(box: Box, lines: PdfLine[], taken: Set<PdfLine>, others: Box[], ctx: FigureContext): Box {
  const [left, right] = walls(box, lines, ctx);
  let out = box;
  for (let changed = true, round = 0; changed && round < 20; round++) {
    changed = false;
    for (const l of lines) {
      if (taken.has(l)) continue;
      const b = lineBox(l);
      if (b.x0 < left || b.x1 > right || others.some((o) => inside(b, o))) continue;
      const short = l.text.length <= 16;
      const level = overlapY(b, out) > 0 && Math.max(out.x0 - b.x1, b.x0 - out.x1) <= (short ? 30 : 6);
      const stacked =
        overlapX(b, { ...out, x0: out.x0 - 8, x1: out.x1 + 8 }) >= (b.x1 - b.x0) * 0.6 &&
        Math.max(out.y0 - b.y1, b.y0 - out.y1) <= l.size * 1.2;
      const label =
        labelLike(l, ctx) && !isProse(l) && !isHeadingLine(l, ctx) && !isCaptionStart(l.text) && (level || stacked);
      if (!inside(b, out) && !label) continue;
      taken.add(l);
      out = union(out, b);
      changed = true;
    }
  }
  return out;
}

/**
 * The figures and tables of one page. `lines` are the page's lines in reading order; the figures'
 * lines (inside and caption) are to be taken out of the text by the caller.
 */
export function findFigures(lines: PdfLine[], graphics: Graphic[], ctx: FigureContext): PageFigure[] {
  const bodies = classify(graphics, lines, ctx);
  const rules = graphics.filter((g) => g.rules > 0 && g.y1 - g.y0 < 3);
  const claimed = new Set<Body>();
  const taken = new Set<PdfLine>();
  const figures: PageFigure[] = [];

  // Captions, each with the nearest unclaimed figure next to it.
  const captions: { lines: PdfLine[]; box: Box; table: boolean }[] = [];
  lines.forEach((l, i) => {
    if (!isCaptionStart(l.text) || taken.has(l)) return;
    const caption = captionLines(lines, i);
    for (const c of caption) taken.add(c);
    captions.push({ lines: caption, box: caption.map(lineBox).reduce(union), table: TABLE_LABEL.test(l.text.trim()) });
  });
  type Caption = (typeof captions)[number];
  /** The other parts of a figure (the panels of a grid of charts), on the caption's side of it. */
  const grow = (start: Box, side: string, caption: Caption): Box => {
    let box = start;
    for (let grown = true; grown;) {
      grown = false;
      for (const other of bodies) {
        // A chart with a legend in it reads as a frame around text: a panel the size of the first is one.
        if (claimed.has(other) || (other.kind === 'frame' && !samePanel(other.box, start))) continue;
        const beside =
          overlapY(other.box, box) > 0 && Math.max(other.box.x0 - box.x1, box.x0 - other.box.x1) <= gapLimit(ctx);
        const onward =
          overlapX(other.box, box) > 0 &&
          Math.max(other.box.y0 - box.y1, box.y0 - other.box.y1) <= gapLimit(ctx) &&
          (side === 'above'
            ? other.box.y0 >= caption.box.y1
            : side === 'below'
              ? other.box.y1 <= caption.box.y0
              : true);
        if ((beside || onward) && !bodyBetween(box, other.box, lines, ctx)) {
          box = union(box, other.box);
          claimed.add(other);
          grown = true;
        }
      }
    }
    return box;
  };
  // Tables are captioned above, figures below: a figure on the other side must be much nearer.
  const usual = (caption: Caption, side: string) =>
    side === 'beside' || (caption.table ? side === 'below' : side === 'above');
  const options = captions.flatMap((caption) =>
    bodies.flatMap((body) => {
      const place = placement(caption.box, body.box, ctx);
      if (!place || (place.side !== 'beside' && bodyBetween(caption.box, body.box, lines, ctx))) return [];
      return [{ caption, body, place, rank: place.gap + (usual(caption, place.side) ? 0 : ctx.bodySize * 2) }];
    }),
  );
  options.sort((a, b) => a.rank - b.rank);
  const placed = new Map<Caption, { box: Box; side: string; body: Body }>();
  for (const { caption, body, place } of options) {
    if (placed.has(caption) || claimed.has(body)) continue;
    // A listing on the usual side is the caption's figure, not a drawing on the other.
    if (!usual(caption, place.side) && textFigure(caption.box, caption.table, lines, taken, rules, ctx)) continue;
    claimed.add(body);
    placed.set(caption, { box: grow(body.box, place.side, caption), side: place.side, body });
  }

  for (const caption of captions) {
    const found = placed.get(caption);
    let box: Box | undefined;
    let captionFirst: boolean;
    if (found) {
      box = found.box;
      captionFirst = found.side !== 'above';
      // What stands between the figure and its caption (the labels of its panels) is the figure's.
      if (found.side !== 'beside') {
        const [y0, y1] = found.side === 'above' ? [caption.box.y1, box.y0] : [box.y1, caption.box.y0];
        for (const l of lines) {
          const b = lineBox(l);
          if (!taken.has(l) && !isBodyLine(l, ctx) && inside(b, { x0: box.x0, x1: box.x1, y0, y1 }))
            box = union(box, b);
        }
      }
    } else {
      // No picture or drawing: the text next to the caption, on the side it is usually found.
      const first = textFigure(caption.box, caption.table, lines, taken, rules, ctx);
      const second = first ?? textFigure(caption.box, !caption.table, lines, taken, rules, ctx);
      box = second;
      captionFirst = first ? caption.table : !caption.table;
    }
    if (!box) {
      for (const l of caption.lines) taken.delete(l);
      continue;
    }
    const photo = found?.body.kind === 'picture' ? photoDensity(found.body.graphic, box) : undefined;
    figures.push({
      kind: caption.table ? 'table' : 'figure',
      box,
      caption: caption.lines,
      captionFirst,
      inside: [],
      photo,
      sourcePixels: found?.body.graphic.imagePixels ?? 0,
    });
  }

  // Pictures and drawings without a caption.
  for (const body of bodies) {
    if (claimed.has(body) || body.kind === 'frame') continue;
    const w = body.box.x1 - body.box.x0;
    const h = body.box.y1 - body.box.y0;
    if (body.kind === 'picture' ? w < 40 || h < 40 : area(body.box) < 4000 || body.graphic.paints < 6) continue;
    const photo = body.kind === 'picture' ? photoDensity(body.graphic, body.box) : undefined;
    const sourcePixels = body.graphic.imagePixels;
    figures.push({ kind: 'figure', box: body.box, caption: [], captionFirst: false, inside: [], photo, sourcePixels });
  }

  for (const figure of figures) {
    for (const l of lines) if (!taken.has(l) && inside(lineBox(l), figure.box)) taken.add(l);
  }
  for (const figure of figures) {
    const others = figures.filter((f) => f !== figure).map((f) => f.box);
    figure.box = withLabels(figure.box, lines, taken, others, ctx);
    figure.inside = lines.filter((l) => taken.has(l) && inside(lineBox(l), figure.box) && !figure.caption.includes(l));
  }
  return figures;
}
