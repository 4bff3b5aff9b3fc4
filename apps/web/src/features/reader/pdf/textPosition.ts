import { blockDomId } from '../PageView.tsx';

/**
 * Where the reflowed text is on screen: its blocks are elements `yd-b-<id>` (PageView), under the
 * reader's sticky bar.
 */
const BLOCK_PREFIX = blockDomId('');

const barBottom = () => document.querySelector('.yd-reader-bar')?.getBoundingClientRect().bottom ?? 0;

/** The id of the first block of the text in view (below the reader's bar), or null when none is shown. */
export function firstBlockInView(container: HTMLElement | null): string | null {
  if (!container) return null;
  const top = barBottom() + 4;
  for (const element of container.querySelectorAll<HTMLElement>(`[id^="${BLOCK_PREFIX}"]`)) {
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    if (rect.bottom > top) return element.id.slice(BLOCK_PREFIX.length);
  }
  return null;
}

/** Whether a block of the text is wholly in view. */
export function blockInView(blockId: string): boolean {
  const element = document.getElementById(blockDomId(blockId));
  if (!element) return false;
  const rect = element.getBoundingClientRect();
  return rect.top >= barBottom() && rect.bottom <= window.innerHeight;
}

/** The block id of an element of the text (a click's target), when it lies in a block. */
export function blockIdOf(target: EventTarget | null): string | null {
  const element = target instanceof Element ? target.closest(`[id^="${BLOCK_PREFIX}"]`) : null;
  return element ? element.id.slice(BLOCK_PREFIX.length) : null;
}
