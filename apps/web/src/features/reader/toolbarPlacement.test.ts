import { describe, expect, it } from 'vitest';
import { placeToolbar, type Box } from './toolbarPlacement.ts';

const phone: Box = { left: 0, top: 0, width: 375, height: 812 };
const toolbar = { width: 300, height: 40 };
const gaps = { above: 8, below: 28, top: 50 };
const inside = (p: { left: number; top: number }, view: Box) =>
  p.left >= view.left &&
  p.top >= view.top &&
  p.left + toolbar.width <= view.left + view.width &&
  p.top + toolbar.height <= view.top + view.height;

describe('where the selection toolbar goes', () => {
  it('goes above the selection, centred, when there is room', () => {
    const placed = placeToolbar({ left: 150, top: 400, width: 80, height: 20 }, toolbar, phone, gaps);
    expect(placed).toEqual({ left: 40, top: 352, side: 'above' });
    // Near the left edge it slides right rather than leave the screen.
    expect(placeToolbar({ left: 10, top: 400, width: 20, height: 20 }, toolbar, phone, gaps).left).toBe(8);
  });

  it('goes below when the selection is near the top (under the reader bar), clear of the handles', () => {
    const placed = placeToolbar({ left: 20, top: 70, width: 120, height: 22 }, toolbar, phone, gaps);
    expect(placed.side).toBe('below');
    expect(placed.top).toBe(70 + 22 + 28);
    expect(inside(placed, phone)).toBe(true);
  });

  it('stays inside the screen at its edges and at 320, 375 and 414 px', () => {
    for (const width of [320, 375, 414]) {
      const view = { left: 0, top: 0, width, height: 700 };
      for (const x of [0, width / 2, width - 10]) {
        for (const y of [0, 60, 350, 680, 790]) {
          const placed = placeToolbar(
            { left: x, top: y, width: 10, height: 20 },
            { width: 290, height: 40 },
            view,
            gaps,
          );
          expect(placed.left).toBeGreaterThanOrEqual(8);
          expect(placed.left + 290).toBeLessThanOrEqual(width - 8);
          expect(placed.top).toBeGreaterThanOrEqual(50);
          expect(placed.top + 40).toBeLessThanOrEqual(700 - 8);
        }
      }
    }
  });

  it('goes over a selection taller than the view, inside it', () => {
    const placed = placeToolbar({ left: 0, top: -300, width: 375, height: 1500 }, toolbar, phone, gaps);
    expect(placed.side).toBe('over');
    expect(inside(placed, phone)).toBe(true);
  });

  it('follows the visual viewport: the keyboard shortens it, zoom moves it', () => {
    // The keyboard took the lower half; the selection sits where the keyboard is now.
    const withKeyboard = { left: 0, top: 0, width: 375, height: 400 };
    const low = placeToolbar({ left: 100, top: 390, width: 50, height: 20 }, toolbar, withKeyboard, gaps);
    expect(low.top + toolbar.height).toBeLessThanOrEqual(392);
    // Pinch-zoomed into the lower right: the visible area starts at (150, 500).
    const zoomed = { left: 150, top: 500, width: 225, height: 312 };
    const placed = placeToolbar(
      { left: 300, top: 700, width: 40, height: 20 },
      { width: 200, height: 40 },
      zoomed,
      gaps,
    );
    expect(placed.left).toBeGreaterThanOrEqual(158);
    expect(placed.left + 200).toBeLessThanOrEqual(367);
    expect(placed.top).toBeGreaterThanOrEqual(550);
  });
});
