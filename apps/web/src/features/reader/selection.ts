/** Where a selection sits: a block, the side it was made in, and character offsets in that side's text. */
export interface SelectionAnchor {
  blockId: string;
  inTranslation: boolean;
  start: number;
  end: number;
  quote: string;
}

/** The rendered text of one side of a block carries these attributes. */
export const TEXT_ATTR = 'data-block-text';
export const SIDE_ATTR = 'data-side';

function closestText(node: Node | null): HTMLElement | null {
  const element = node?.nodeType === 1 ? (node as Element) : (node?.parentElement ?? null);
  return (element?.closest(`[${TEXT_ATTR}]`) as HTMLElement | null) ?? null;
}

/**
 * Character offsets of a range relative to a container's rendered text (textContent), clamped to
 * the container. Returns null when the range does not touch it.
 */
export function offsetsWithin(container: Node, range: Range): { start: number; end: number } | null {
  const doc = container.ownerDocument ?? document;
  const whole = doc.createRange();
  whole.selectNodeContents(container);
  if (!range.intersectsNode(container)) return null;
  const clamped = range.cloneRange();
  if (clamped.compareBoundaryPoints(Range.START_TO_START, whole) < 0) clamped.setStart(container, 0);
  if (clamped.compareBoundaryPoints(Range.END_TO_END, whole) > 0)
    clamped.setEnd(container, container.childNodes.length);
  const before = doc.createRange();
  before.selectNodeContents(container);
  before.setEnd(clamped.startContainer, clamped.startOffset);
  const start = before.toString().length;
  const end = start + clamped.toString().length;
  return { start, end };
}

/** The anchor of a DOM selection: the block where it starts, offsets clamped to that block's side. */
export function anchorOfSelection(selection: Selection | null): SelectionAnchor | null {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  const container = closestText(range.startContainer) ?? closestText(range.commonAncestorContainer);
  if (!container) return null;
  const blockId = container.getAttribute(TEXT_ATTR);
  if (!blockId) return null;
  const offsets = offsetsWithin(container, range);
  if (!offsets || offsets.end <= offsets.start) return null;
  const text = container.textContent ?? '';
  const quote = text.slice(offsets.start, offsets.end);
  if (!quote.trim()) return null;
  return {
    blockId,
    inTranslation: container.getAttribute(SIDE_ATTR) === 'translation',
    start: offsets.start,
    end: offsets.end,
    quote,
  };
}
