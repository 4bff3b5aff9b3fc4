/**
 * Figures put into the flow of a page's text: their lines taken out, and a FlowFigure (the cropped
 * picture and its caption, in the order they are read) put where the figure stands in reading order:
 * before the first line below its top in its column, else after the last line of that column above
 * it. The picture is a `figure` paragraph whose box is what pdf-crop.ts renders.
 */
import { joinParagraphLines } from './pdf-join.ts';
import type { Lexicon } from './pdf-join.ts';
import type { FlowFigure, PdfLine, PdfParagraph } from './pdf-layout.ts';
import { orderLines } from './pdf-columns.ts';
import { addLineBox } from './pdf-regions.ts';
import { findFigures, isBodyLine, lineBox, union } from './pdf-figures.ts';
import type { PageFigure } from './pdf-figures.ts';
import { findFormulas } from './pdf-math.ts';
import { mergeScripts } from './pdf-scripts.ts';
import type { MathContext, PageFormula } from './pdf-math.ts';
import type { Box, Graphic } from './pdf-graphics.ts';

/** A picture cropped from `page`: a `figure` paragraph whose one box is the region. */
export function figureParagraph(page: number, box: Box, photo?: number, sourcePixels = 0): PdfParagraph {
  const para: PdfParagraph = {
    kind: 'figure',
    text: '',
    page,
    top: box.y1,
    size: 0,
    marks: [],
    boxes: [{ page, col: 0, x0: box.x0, x1: box.x1, bottom: box.y0, top: box.y1 }],
  };
  if (photo !== undefined) para.photo = photo;
  if (sourcePixels) para.sourcePixels = sourcePixels;
  return para;
}

/** A page's figures and displayed formulas, and its lines in reading order. */
export interface PageFigures {
  ordered: PdfLine[];
  figures: PageFigure[];
  formulas: PageFormula[];
}

/** The lines of a page that remain text once its figures (insides and captions) and formulas are taken out. */
export function withoutFigures({ ordered, figures, formulas }: PageFigures): PdfLine[] {
  const gone = new Set([...figures.flatMap((f) => [...f.inside, ...f.caption]), ...formulas.flatMap((f) => f.lines)]);
  return gone.size ? ordered.filter((l) => !gone.has(l)) : ordered;
}

function captionParagraph(lines: PdfLine[], lexicon: Lexicon | undefined): PdfParagraph {
  const first = lines[0]!;
  const para: PdfParagraph = {
    kind: 'paragraph',
    text: joinParagraphLines(
      lines.map((l) => l.text),
      lexicon,
    ),
    page: first.page,
    top: first.y + first.size,
    size: first.size,
    marks: lines.flatMap((l) => l.marks),
    boxes: [],
  };
  for (const l of lines) addLineBox(para.boxes, l);
  return para;
}

/**
 * The page's remaining lines with its figures put in where they are read, and its formulas where
 * their first line stood.
 */
export function placeFigures(
  lines: PdfLine[],
  { ordered, figures, formulas }: PageFigures,
  page: number,
  lexicon?: Lexicon,
): (PdfLine | FlowFigure)[] {
  if (!figures.length && !formulas.length) return lines;
  const flow: (PdfLine | FlowFigure)[] = [...lines];
  const place = new Map(ordered.map((l, i) => [l, i]));
  for (const formula of [...formulas].reverse()) {
    const first = place.get(formula.lines[0]!)!;
    const at = flow.findIndex((item) => 'text' in item && (place.get(item) ?? -1) > first);
    flow.splice(at === -1 ? flow.length : at, 0, { paragraphs: [figureParagraph(page, formula.box)], float: false });
  }
  const sorted = [...figures].sort((a, b) => b.box.y1 - a.box.y1);
  for (const figure of sorted) {
    const picture = figureParagraph(page, figure.box, figure.photo, figure.sourcePixels);
    const paragraphs = !figure.caption.length
      ? [picture]
      : figure.captionFirst
        ? [captionParagraph(figure.caption, lexicon), picture]
        : [picture, captionParagraph(figure.caption, lexicon)];
    const whole = figure.caption.map(lineBox).reduce(union, figure.box);
    const overlaps = (l: PdfLine) => Math.min(l.x1, whole.x1) - Math.max(l.x0, whole.x0) > 0;
    let at = flow.findIndex((item) => 'text' in item && overlaps(item) && lineBox(item).y1 <= whole.y1 + 1);
    if (at === -1) {
      const above = flow.findLastIndex((item) => 'text' in item && overlaps(item));
      at = above === -1 ? flow.length : above + 1;
    }
    flow.splice(at, 0, { paragraphs, float: true });
  }
  return flow;
}

/** A tick label or a legend's value: numbers only. */
const NUMBER_LABEL = /^[-−–+]?[\d.,]+\s*%?$|^[\d\s.,%+\-−–()]+$/u;

/**
 * Numbers standing beside a figure (a chart's ticks between its panels, which its labels missed):
 * the nearest figure's, not paragraphs. Only near a figure: a number elsewhere may be text.
 */
function takeNumberLabels({ ordered, figures }: PageFigures, ctx: MathContext): void {
  if (!figures.length) return;
  const gone = new Set(figures.flatMap((f) => [...f.inside, ...f.caption]));
  for (const l of ordered) {
    if (gone.has(l) || !NUMBER_LABEL.test(l.text.trim()) || isBodyLine(l, ctx)) continue;
    const b = lineBox(l);
    const reach = ctx.bodySize * 3;
    const near = figures.find(
      ({ box }) => b.x0 >= box.x0 - reach && b.x1 <= box.x1 + reach && b.y0 <= box.y1 + reach && b.y1 >= box.y0 - reach,
    );
    if (!near) continue;
    near.inside.push(l);
    near.box = union(near.box, b);
  }
}

/** Pages whose same picture or drawing stands at the same place make a running decoration (a logo). */
const RUNNING_PAGES = 3;

/**
 * Every page's lines in reading order and its figures. An uncaptioned picture or drawing found at the
 * same place on RUNNING_PAGES pages or more is the page's decoration, not a figure: its text stays.
 */
export function pageFigures(
  pages: { page: number; lines: PdfLine[]; graphics: Graphic[] }[],
  ctx: MathContext,
): Map<number, PageFigures> {
  const out = new Map<number, PageFigures>();
  const key = (f: PageFigure) => [f.box.x0, f.box.y0, f.box.x1, f.box.y1].map((v) => Math.round(v / 4)).join(',');
  const seen = new Map<string, number>();
  for (const p of pages) {
    if (!p.graphics.length && !p.lines.length) continue;
    const ordered = orderLines(p.lines);
    const figures = findFigures(ordered, p.graphics, ctx);
    for (const f of figures) if (!f.caption.length) seen.set(key(f), (seen.get(key(f)) ?? 0) + 1);
    out.set(p.page, { ordered, figures, formulas: [] });
  }
  const graphics = new Map(pages.map((p) => [p.page, p.graphics]));
  for (const [n, entry] of out) {
    entry.figures = entry.figures.filter((f) => f.caption.length || seen.get(key(f))! < RUNNING_PAGES);
    takeNumberLabels(entry, ctx);
    entry.formulas = findFormulas(withoutFigures(entry), graphics.get(n) ?? [], ctx);
    const rest = withoutFigures(entry);
    const kept = new Set(mergeScripts(rest));
    if (kept.size < rest.length) entry.ordered = entry.ordered.filter((l) => kept.has(l) || !rest.includes(l));
  }
  return out;
}
