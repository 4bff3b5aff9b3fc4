import { describe, expect, it } from 'vitest';
import type { Block } from '../../engines/parsers/types.ts';
import { paginate } from './paginate.ts';

const para = (chars: number, type: Block['type'] = 'paragraph'): Block => ({ id: 'x', type, text: 'a'.repeat(chars) });

describe('paginate', () => {
  it('starts every chapter on a new page', () => {
    const result = paginate([{ blocks: [para(100)] }, { blocks: [para(100), para(100)] }]);
    expect(result.pages).toEqual([[1], [2, 2]]);
    expect(result.chapterFirstPage).toEqual([1, 2]);
    expect(result.pageCount).toBe(2);
  });

  it('keeps pages between the target and the maximum size', () => {
    const blocks = Array.from({ length: 40 }, () => para(400));
    const { pages } = paginate([{ blocks }]);
    const sizes = new Map<number, number>();
    pages[0]!.forEach((p) => sizes.set(p, (sizes.get(p) ?? 0) + 400));
    const full = [...sizes.values()].slice(0, -1);
    for (const size of full) {
      expect(size).toBeGreaterThanOrEqual(1500);
      expect(size).toBeLessThanOrEqual(3000);
    }
  });

  it('never splits a block and gives a huge block a page of its own', () => {
    const { pages } = paginate([{ blocks: [para(200), para(9000), para(200)] }]);
    expect(pages[0]).toEqual([1, 2, 3]);
  });

  it('opens a page with a heading rather than ending one with it', () => {
    const { pages } = paginate([{ blocks: [para(1200), para(60, 'heading'), para(300)] }]);
    expect(pages[0]).toEqual([1, 2, 2]);
  });
});
