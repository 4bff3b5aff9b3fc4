import { useCallback, useEffect, useState, type RefObject } from 'react';
import { anchorOfSelection, type SelectionAnchor } from './selection.ts';

export interface SelectionState {
  anchor: SelectionAnchor;
  /** Where the toolbar floats (above the selection); null: docked at the bottom (phones). */
  at: { x: number; y: number } | null;
}

/** The reader's text selection inside `textRef`, read a moment after it settles, for the selection toolbar. */
export function useTextSelection(textRef: RefObject<HTMLElement | null>, docked: boolean) {
  const [selection, setSelection] = useState<SelectionState | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      const current = window.getSelection();
      const anchor = anchorOfSelection(current);
      if (!anchor || !textRef.current?.contains(current!.anchorNode)) {
        setSelection((old) => (old ? null : old));
        return;
      }
      const rect = current!.getRangeAt(0).getBoundingClientRect();
      const at = docked ? null : { x: rect.left + rect.width / 2, y: Math.max(64, rect.top - 8) };
      setSelection({ anchor, at });
    };
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(read, 180);
    };
    document.addEventListener('selectionchange', onChange);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('selectionchange', onChange);
    };
  }, [textRef, docked]);

  const clearSelection = useCallback(() => {
    window.getSelection()?.removeAllRanges();
    setSelection(null);
  }, []);
  return { selection, setSelection, clearSelection };
}
