/**
 * Geometry of the page view: where regions of a page are drawn at a zoom and rotation, where a click
 * fell on a page, and which pages of a long document are in view (only those are rendered).
 */

import type { PdfRegion } from '@yidu/shared/reader';

/** A rectangle of a PDF page in fractions (0..1) of the displayed page, origin top-left; page from 1. */
export type { PdfRegion };

/** How far the reader turned the pages, clockwise. */
export type Rotation = 0 | 90 | 180 | 270;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export const nextRotation = (rotation: Rotation): Rotation => ((rotation + 90) % 360) as Rotation;

/** A region of the page (fractions) as it lies once the page is turned `rotation` degrees clockwise. */
export function rotateRegion(region: PdfRegion, rotation: Rotation): PdfRegion {
  const { x, y, w, h } = region;
  switch (rotation) {
    case 90:
      return { ...region, x: 1 - y - h, y: x, w: h, h: w };
    case 180:
      return { ...region, x: 1 - x - w, y: 1 - y - h };
    case 270:
      return { ...region, x: y, y: 1 - x - w, w: h, h: w };
    default:
      return region;
  }
}

/** Where to draw a region, in CSS pixels within the page as shown (`shown`: its size, turned). */
export function regionBox(region: PdfRegion, shown: Size, rotation: Rotation): Box {
  const turned = rotateRegion(region, rotation);
  return {
    left: turned.x * shown.width,
    top: turned.y * shown.height,
    width: turned.w * shown.width,
    height: turned.h * shown.height,
  };
}

/** A point of the page as shown (CSS pixels within it) in fractions of the page before it was turned. */
export function pointOnPage(px: number, py: number, shown: Size, rotation: Rotation): { x: number; y: number } {
  const u = clamp01(px / shown.width);
  const v = clamp01(py / shown.height);
  switch (rotation) {
    case 90:
      return { x: v, y: 1 - u };
    case 180:
      return { x: 1 - u, y: 1 - v };
    case 270:
      return { x: 1 - v, y: u };
    default:
      return { x: u, y: v };
  }
}

/** A page's size once turned by the reader. */
export const turned = (size: Size, rotation: Rotation): Size =>
  rotation === 90 || rotation === 270 ? { width: size.height, height: size.width } : size;

const clamp01 = (n: number) => Math.min(1, Math.max(0, Number.isFinite(n) ? n : 0));

/** Pages one under the other: the top of each (CSS pixels at `scale`) and the whole height. */
export interface PagesLayout {
  tops: number[];
  heights: number[];
  widths: number[];
  total: number;
}

export function layoutPages(sizes: Size[], scale: number, gap: number): PagesLayout {
  const tops: number[] = [];
  const heights: number[] = [];
  const widths: number[] = [];
  let y = gap;
  for (const size of sizes) {
    tops.push(y);
    heights.push(Math.round(size.height * scale));
    widths.push(Math.round(size.width * scale));
    y += heights.at(-1)! + gap;
  }
  return { tops, heights, widths, total: y };
}

/** The index of the page at a height of the layout (the last page whose top is above it). */
export function pageAt(layout: PagesLayout, y: number): number {
  let low = 0;
  let high = layout.tops.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (layout.tops[middle]! <= y) low = middle;
    else high = middle - 1;
  }
  return Math.max(0, low);
}

/** Indexes of the pages seen in a viewport of the layout, first and last (inclusive). */
export function pagesInView(layout: PagesLayout, scrollTop: number, height: number): { first: number; last: number } {
  const first = pageAt(layout, scrollTop);
  const firstShown = layout.tops[first]! + layout.heights[first]! <= scrollTop ? first + 1 : first;
  const last = pageAt(layout, scrollTop + height);
  return { first: Math.min(firstShown, last), last };
}

/** The scale at which a page fills the pane's width (less its margins). */
export const fitWidthScale = (pageWidth: number, paneWidth: number, margin: number) =>
  Math.max(0.1, (paneWidth - 2 * margin) / Math.max(1, pageWidth));

/** Device pixels per CSS pixel for a page's canvas: the screen's, unless the canvas would grow too large. */
export function canvasPixelRatio(cssWidth: number, cssHeight: number, devicePixelRatio: number, maxPixels: number) {
  const area = Math.max(1, cssWidth * cssHeight);
  return Math.max(0.25, Math.min(devicePixelRatio, Math.sqrt(maxPixels / area)));
}
