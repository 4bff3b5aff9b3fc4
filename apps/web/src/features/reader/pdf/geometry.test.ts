import { describe, expect, it } from 'vitest';
import {
  canvasPixelRatio,
  fitWidthScale,
  layoutPages,
  pageAt,
  pagesInView,
  pointOnPage,
  regionBox,
  rotateRegion,
  turned,
  type PdfRegion,
  type Rotation,
} from './geometry.ts';

const ROTATIONS: Rotation[] = [0, 90, 180, 270];
/** A paragraph in the left column, upper half, of an A4 page (595 × 842 points). */
const REGION: PdfRegion = { page: 3, x: 0.1, y: 0.2, w: 0.35, h: 0.1 };
const A4 = { width: 595, height: 842 };

describe('region outlines at a zoom and a turn', () => {
  it('draws a region where it lies on the page, scaled with the zoom', () => {
    for (const scale of [0.5, 1, 1.5, 2.75]) {
      const shown = { width: A4.width * scale, height: A4.height * scale };
      const box = regionBox(REGION, shown, 0);
      expect(box.left).toBeCloseTo(0.1 * 595 * scale);
      expect(box.top).toBeCloseTo(0.2 * 842 * scale);
      expect(box.width).toBeCloseTo(0.35 * 595 * scale);
      expect(box.height).toBeCloseTo(0.1 * 842 * scale);
    }
  });

  it('turns a region with the page: a corner goes where a clockwise turn takes it', () => {
    const corner: PdfRegion = { page: 1, x: 0, y: 0, w: 0.2, h: 0.1 };
    // Top left → top right → bottom right → bottom left.
    expect(rotateRegion(corner, 90)).toMatchObject({ x: 0.9, y: 0, w: 0.1, h: 0.2 });
    expect(rotateRegion(corner, 180)).toMatchObject({ x: 0.8, y: 0.9, w: 0.2, h: 0.1 });
    expect(rotateRegion(corner, 270)).toMatchObject({ x: 0, y: 0.8, w: 0.1, h: 0.2 });
    // Four quarter turns are none.
    let r = REGION;
    for (let i = 0; i < 4; i++) r = rotateRegion(r, 90);
    for (const key of ['x', 'y', 'w', 'h'] as const) expect(r[key]).toBeCloseTo(REGION[key]);
  });

  it('draws a turned page’s region in the turned page’s pixels', () => {
    const shown = turned({ width: A4.width * 2, height: A4.height * 2 }, 90);
    expect(shown).toEqual({ width: 1684, height: 1190 });
    const box = regionBox(REGION, shown, 90);
    // The left column's paragraph of an upright page is near the top, right of the middle, once turned.
    expect(box.left).toBeCloseTo((1 - 0.2 - 0.1) * 1684);
    expect(box.top).toBeCloseTo(0.1 * 1190);
    expect(box.width).toBeCloseTo(0.1 * 1684);
    expect(box.height).toBeCloseTo(0.35 * 1190);
  });

  it('reads a click inside an outline as a point inside its region, at every zoom and turn', () => {
    for (const rotation of ROTATIONS) {
      for (const scale of [0.6, 1, 2.2]) {
        const shown = turned({ width: A4.width * scale, height: A4.height * scale }, rotation);
        const box = regionBox(REGION, shown, rotation);
        for (const [fx, fy] of [
          [0.5, 0.5],
          [0.05, 0.05],
          [0.95, 0.9],
        ] as const) {
          const point = pointOnPage(box.left + fx * box.width, box.top + fy * box.height, shown, rotation);
          expect(point.x, `${rotation}° ×${scale}`).toBeGreaterThan(REGION.x);
          expect(point.x).toBeLessThan(REGION.x + REGION.w);
          expect(point.y).toBeGreaterThan(REGION.y);
          expect(point.y).toBeLessThan(REGION.y + REGION.h);
        }
      }
    }
  });

  it('keeps a click on the page edge on the page', () => {
    expect(pointOnPage(-5, 2000, A4, 0)).toEqual({ x: 0, y: 1 });
    expect(pointOnPage(0, 0, A4, 90)).toEqual({ x: 0, y: 1 });
  });
});

describe('pages one under the other', () => {
  const sizes = [A4, A4, { width: 842, height: 595 }, A4];

  it('places each page below the one before, at the zoom', () => {
    const layout = layoutPages(sizes, 0.5, 10);
    expect(layout.tops).toEqual([10, 10 + 421 + 10, 10 + 2 * (421 + 10), 10 + 2 * (421 + 10) + 298 + 10]);
    expect(layout.heights).toEqual([421, 421, 298, 421]);
    expect(layout.total).toBe(layout.tops[3]! + 421 + 10);
  });

  it('finds the pages in view of a scroll position', () => {
    const layout = layoutPages(sizes, 1, 10);
    expect(pageAt(layout, 0)).toBe(0);
    expect(pageAt(layout, 860)).toBe(0);
    expect(pageAt(layout, 862)).toBe(1);
    expect(pagesInView(layout, 0, 800)).toEqual({ first: 0, last: 0 });
    expect(pagesInView(layout, 700, 1200)).toEqual({ first: 0, last: 2 });
    // Scrolled into the gap after page 1: page 1 is out of view.
    expect(pagesInView(layout, 853, 100)).toEqual({ first: 1, last: 1 });
    expect(pagesInView(layout, 1e6, 800)).toEqual({ first: 3, last: 3 });
  });

  it('finds a page among 600 without walking them', () => {
    const layout = layoutPages(
      Array.from({ length: 600 }, () => A4),
      1,
      12,
    );
    expect(pageAt(layout, layout.tops[417]! + 5)).toBe(417);
    expect(pagesInView(layout, layout.tops[300]!, 900)).toEqual({ first: 300, last: 301 });
  });

  it('fits the widest page to the pane and keeps canvases within their budget', () => {
    expect(fitWidthScale(595, 619, 12)).toBeCloseTo(1);
    expect(canvasPixelRatio(600, 800, 2, 4096 * 4096)).toBe(2);
    const capped = canvasPixelRatio(3000, 4000, 3, 4096 * 4096);
    expect(3000 * capped * 4000 * capped).toBeLessThanOrEqual(4096 * 4096 + 1);
  });
});
