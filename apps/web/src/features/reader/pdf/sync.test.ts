import { describe, expect, it } from 'vitest';
import type { PageBlock } from '@yidu/shared/reader';
import { blockAt, firstBlockOn, holdsPdfPage, placeOf } from './sync.ts';

const block = (id: string, pdfPage: number | null, pdfRegions: PageBlock['pdfRegions'] = null): PageBlock => ({
  id,
  type: 'paragraph',
  text: id,
  html: null,
  translation: null,
  status: 'done',
  level: null,
  imageUrl: null,
  noteLabel: null,
  noteRefs: null,
  pdfPage,
  pdfRegions,
});

// A reader page of a two-column paper: a paragraph ending page 4's right column, two paragraphs of
// page 5 (the second going on into the right column), a figure with its caption inside its box.
const blocks = [
  block('c2-b1', 4, [{ page: 4, x: 0.52, y: 0.8, w: 0.4, h: 0.12 }]),
  block('c2-b2', 5, [{ page: 5, x: 0.08, y: 0.06, w: 0.4, h: 0.2 }]),
  block('c2-b3', 5, [
    { page: 5, x: 0.08, y: 0.7, w: 0.4, h: 0.22 },
    { page: 5, x: 0.52, y: 0.06, w: 0.4, h: 0.1 },
  ]),
  block('c2-b4', 5, [{ page: 5, x: 0.52, y: 0.2, w: 0.4, h: 0.4 }]),
  block('c2-b5', 5, [{ page: 5, x: 0.55, y: 0.5, w: 0.34, h: 0.05 }]),
  block('c2-b6', null),
];

describe('a paragraph and its place on the pages', () => {
  it('goes to a paragraph’s first piece, or to the top of its page when its place is not known', () => {
    expect(placeOf(blocks[2]!)).toEqual({ pdfPage: 5, region: blocks[2]!.pdfRegions![1] });
    expect(placeOf(block('x', 7))).toEqual({ pdfPage: 7, region: null });
    expect(placeOf(blocks[5]!)).toBeNull();
  });

  it('finds the paragraph under a click, in any of its pieces, the smallest when boxes nest', () => {
    expect(blockAt(blocks, 5, 0.3, 0.1)?.id).toBe('c2-b2');
    expect(blockAt(blocks, 5, 0.3, 0.8)?.id).toBe('c2-b3');
    expect(blockAt(blocks, 5, 0.7, 0.1)?.id).toBe('c2-b3');
    // The caption inside the figure's box.
    expect(blockAt(blocks, 5, 0.7, 0.52)?.id).toBe('c2-b5');
    expect(blockAt(blocks, 5, 0.7, 0.3)?.id).toBe('c2-b4');
    // A hair outside a box still counts; the same point on another page does not.
    expect(blockAt(blocks, 5, 0.3, 0.264)?.id).toBe('c2-b2');
    expect(blockAt(blocks, 6, 0.3, 0.1)).toBeUndefined();
    // Far from every paragraph of this reader page: the server is asked.
    expect(blockAt(blocks, 5, 0.3, 0.45)).toBeUndefined();
  });

  it('knows whether the reader page holds a PDF page, and its first paragraph there', () => {
    expect(holdsPdfPage(blocks, 4)).toBe(true);
    expect(holdsPdfPage(blocks, 5)).toBe(true);
    expect(holdsPdfPage(blocks, 6)).toBe(false);
    expect(firstBlockOn(blocks, 5)?.id).toBe('c2-b2');
    // A paragraph that began on the page before, going on here.
    const across = [
      block('a', 8, [
        { page: 8, x: 0.5, y: 0.9, w: 0.4, h: 0.05 },
        { page: 9, x: 0.1, y: 0.05, w: 0.4, h: 0.05 },
      ]),
    ];
    expect(holdsPdfPage(across, 9)).toBe(true);
    expect(firstBlockOn(across, 9)?.id).toBe('a');
  });
});
