import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContentsEntry } from '@yidu/shared/contents';
import { TocDrawer } from './TocDrawer.tsx';
import { contentsTree } from './contents.ts';

const entry = (title: string, level: number, page: number, blockId: string): ContentsEntry => ({
  title,
  generated: null,
  level,
  page,
  blockId,
});

/** Ulysses as Standard Ebooks declares it: three parts of episodes; one episode with two scenes. */
const ulysses: ContentsEntry[] = [
  entry('Titlepage', 1, 1, 'c1-b1'),
  entry('I', 1, 2, 'c2-b1'),
  entry('I', 2, 3, 'c3-b1'),
  entry('II', 2, 20, 'c4-b1'),
  entry('III', 2, 35, 'c5-b1'),
  entry('II', 1, 50, 'c6-b1'),
  entry('IV', 2, 51, 'c7-b1'),
  entry('Scene one', 3, 51, 'c7-b1'),
  entry('Scene two', 3, 60, 'c7-b40'),
  entry('V', 2, 70, 'c8-b1'),
  { title: '', generated: { kind: 'part', n: 3 }, level: 1, page: 90, blockId: 'c9-b1' },
];

function renderDrawer(props: Partial<Parameters<typeof TocDrawer>[0]> = {}) {
  const onGo = vi.fn();
  const onClose = vi.fn();
  render(<TocDrawer contents={ulysses} page={1} pageBlocks={[]} open onClose={onClose} onGo={onGo} {...props} />);
  return { onGo, onClose, tree: screen.getByRole('tree') };
}

const rowTitles = (tree: HTMLElement) =>
  within(tree)
    .getAllByRole('treeitem')
    .map((row) => `${row.getAttribute('aria-level')}:${row.querySelector('.yd-toc-title')!.textContent}`);

describe('the contents drawer', () => {
  it('shows the top level, opens the ancestors of the place being read and marks it', async () => {
    const { tree } = renderDrawer({ page: 62, pageBlocks: ['c7-b44', 'c7-b45'] });
    // Page 62 is inside "Scene two" (page 60): its part and episode are open, the others closed.
    expect(rowTitles(tree)).toEqual([
      '1:Titlepage',
      '1:I',
      '1:II',
      '2:IV',
      '3:Scene one',
      '3:Scene two',
      '2:V',
      '1:Part 3',
    ]);
    const current = within(tree).getByRole('treeitem', { current: 'location' });
    expect(current.textContent).toContain('Scene two');
    expect(current.getAttribute('tabindex')).toBe('0');
    expect(within(tree).getByRole('treeitem', { name: 'II, page 50' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('is a keyboard tree: arrows move, open and close levels, Enter goes to the entry’s block', async () => {
    const user = userEvent.setup();
    const { tree, onGo } = renderDrawer({ page: 1, pageBlocks: ['c1-b1'] });
    const titlepage = within(tree).getByRole('treeitem', { current: 'location' });
    titlepage.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toContain('I');
    await user.keyboard('{ArrowRight}');
    expect(rowTitles(tree)).toContain('2:III');
    await user.keyboard('{ArrowRight}{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent).toContain('III');
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement?.getAttribute('aria-level')).toBe('1');
    await user.keyboard('{ArrowLeft}');
    expect(rowTitles(tree)).not.toContain('2:III');
    await user.keyboard('{End}{Enter}');
    expect(onGo).toHaveBeenCalledWith(90, 'c9-b1');
  });

  it('opens a third-level entry by clicks: the reader goes to its page and block', async () => {
    const user = userEvent.setup();
    const { tree, onGo, onClose } = renderDrawer();
    const toggle = (name: string) =>
      within(tree).getByRole('treeitem', { name }).querySelector<HTMLElement>('.yd-toc-toggle')!;
    await user.click(toggle('II, page 50'));
    await user.click(toggle('IV, page 51'));
    await user.click(within(tree).getByRole('treeitem', { name: 'Scene two, page 60' }));
    expect(onClose).toHaveBeenCalled();
    expect(onGo).toHaveBeenCalledWith(60, 'c7-b40');
  });

  it('draws only the rows of open levels: 2,000 entries under 20 parts are 20 rows', () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      entry(i % 100 === 0 ? `Part ${i / 100 + 1}` : `Entry ${i}`, i % 100 === 0 ? 1 : 2, i + 1, `c${i}-b1`),
    );
    const { tree } = renderDrawer({ contents: many, page: null });
    expect(within(tree).getAllByRole('treeitem')).toHaveLength(20);
    const shape = contentsTree(many);
    expect(shape.end[0]).toBe(100);
    expect(shape.siblings[1]).toBe(99);
  });
});
