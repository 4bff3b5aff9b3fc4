/**
 * A page's lines in reading order: columns one after the other, never their lines interleaved.
 *
 * Lines crossing a gutter (titles, full-width figures) cut the page into bands; a band is laid out
 * in columns when both sides of the gutter hold several wide lines, else it is read top to bottom.
 * Each side is ordered the same way again, so three or more columns (and a two-column band inside a
 * column) are read one after the other too.
 */
import type { PdfLine } from './pdf-layout.ts';

/** Orders lines for reading and numbers their columns from the left (-1: the line spans columns). */
export function orderLines(lines: PdfLine[]): PdfLine[] {
  const byTop = [...lines].sort((a, b) => b.y - a.y || a.x0 - b.x0);
  const single = () => {
    for (const l of byTop) l.col = 0;
    return byTop;
  };
  if (lines.length < 8) return single();
  let minX = Infinity;
  let maxX = -Infinity;
  for (const l of lines) {
    minX = Math.min(minX, l.x0);
    maxX = Math.max(maxX, l.x1);
  }
  const width = maxX - minX;
  const wide = (l: PdfLine) => l.x1 - l.x0 > width * 0.25;
  const isColumns = (left: PdfLine[], right: PdfLine[]) =>
    left.filter(wide).length >= 3 && right.filter(wide).length >= 3;
  /** Lines read in columns if the gutter were at `gx`. */
  const columnLines = (gx: number): number => {
    let count = 0;
    let band: PdfLine[] = [];
    const flushBand = () => {
      const left = band.filter((x) => x.x1 <= gx);
      const right = band.filter((x) => x.x0 >= gx);
      if (isColumns(left, right)) count += band.length;
      band = [];
    };
    for (const line of byTop) {
      if (line.x0 < gx && line.x1 > gx) flushBand();
      else band.push(line);
    }
    flushBand();
    return count;
  };
  // Which lines lie left, right or across changes only at their edges: between two, the score
  // stays what it was, and the first best place is kept.
  const edges = lines.flatMap((l) => [l.x0, l.x1]).sort((a, b) => a - b);
  let edge = 0;
  let bestGx = 0;
  let bestScore = 0;
  let previous = -Infinity;
  for (let gx = minX + width * 0.25; gx <= minX + width * 0.75; gx += 2) {
    // An edge in [previous, gx]: a line's side may differ from the last place tried.
    while (edge < edges.length && edges[edge]! < previous) edge++;
    const moved = edge < edges.length && edges[edge]! <= gx;
    previous = gx;
    if (!moved) continue;
    const score = columnLines(gx);
    if (score > bestScore) {
      bestScore = score;
      bestGx = gx;
    }
  }
  // A reading in columns needs a real share of the page, not three short lines beside a figure.
  if (bestScore < Math.max(6, lines.length * 0.25)) return single();

  const out: PdfLine[] = [];
  let band: PdfLine[] = [];
  const flushBand = () => {
    const left = band.filter((x) => x.x1 <= bestGx);
    const right = band.filter((x) => x.x0 >= bestGx);
    if (isColumns(left, right)) {
      const leftOrdered = orderLines(left);
      const firstRight = Math.max(0, ...leftOrdered.map((l) => l.col)) + 1;
      const rightOrdered = orderLines(right);
      for (const l of rightOrdered) l.col = l.col === -1 ? -1 : l.col + firstRight;
      out.push(...leftOrdered, ...rightOrdered);
    } else {
      for (const l of band) l.col = 0;
      out.push(...band);
    }
    band = [];
  };
  for (const line of byTop) {
    if (line.x0 < bestGx && line.x1 > bestGx) {
      flushBand();
      line.col = -1;
      out.push(line);
    } else band.push(line);
  }
  flushBand();
  return out;
}
