import { useEffect, useRef, type TouchEvent } from 'react';

/**
 * Turning pages without the pager: ←/→ and PgUp/PgDn (not while typing or in a dialog), and a
 * horizontal swipe on touch screens (not while text is selected). Returns the touch handlers.
 */
export function usePageTurns(prev: () => void, next: () => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable=true], .ant-modal, .ant-drawer, .ant-select'))
        return;
      if (event.key === 'ArrowLeft' || event.key === 'PageUp') {
        event.preventDefault();
        prev();
      } else if (event.key === 'ArrowRight' || event.key === 'PageDown') {
        event.preventDefault();
        next();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [prev, next]);

  const touch = useRef<{ x: number; y: number; at: number } | null>(null);
  const onTouchStart = (event: TouchEvent) => {
    const p = event.touches[0];
    touch.current = p ? { x: p.clientX, y: p.clientY, at: Date.now() } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touch.current;
    const p = event.changedTouches[0];
    touch.current = null;
    if (!start || !p || Date.now() - start.at > 700) return;
    if (window.getSelection()?.isCollapsed === false) return;
    const dx = p.clientX - start.x;
    const dy = p.clientY - start.y;
    if (Math.abs(dx) > 60 && Math.abs(dy) < 50) {
      if (dx < 0) next();
      else prev();
    }
  };
  return { onTouchStart, onTouchEnd };
}
