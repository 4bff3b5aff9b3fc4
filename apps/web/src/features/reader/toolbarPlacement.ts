/** A rectangle in the layout viewport's coordinates (what getBoundingClientRect answers). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface ToolbarPlacement {
  left: number;
  top: number;
  /** Where it went: above the selection, below it, or over it (a selection taller than the view). */
  side: 'above' | 'below' | 'over';
}

/** Kept between the toolbar and the edges of the visible area. */
const MARGIN = 8;

/**
 * Where the selection toolbar goes: centred above the selection, below it when there is no room
 * above, and over it when there is room on neither side (a selection taller than the view) — always
 * inside `view`, the visible area (the visual viewport: it shrinks with the on-screen keyboard and
 * moves with pinch zoom). `below` is the gap under the selection: wider on touch screens, whose
 * selection handles hang below the text. `top` keeps clear of the reader bar at the top of the view.
 */
export function placeToolbar(
  selection: Box,
  toolbar: { width: number; height: number },
  view: Box,
  gaps: { above: number; below: number; top: number },
): ToolbarPlacement {
  const minLeft = view.left + MARGIN;
  const maxLeft = view.left + view.width - MARGIN - toolbar.width;
  const left = Math.max(minLeft, Math.min(maxLeft, selection.left + selection.width / 2 - toolbar.width / 2));
  const minTop = view.top + Math.max(MARGIN, gaps.top);
  const maxTop = view.top + view.height - MARGIN - toolbar.height;
  const above = selection.top - gaps.above - toolbar.height;
  if (above >= minTop && above <= maxTop) return { left, top: above, side: 'above' };
  const below = selection.top + selection.height + gaps.below;
  if (below >= minTop && below <= maxTop) return { left, top: below, side: 'below' };
  // Neither fits (or the selection is scrolled out of view): inside the view, nearest the selection.
  return { left, top: Math.max(minTop, Math.min(maxTop, above)), side: 'over' };
}
