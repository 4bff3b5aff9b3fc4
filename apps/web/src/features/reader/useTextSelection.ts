import { useCallback, useEffect, useState, type RefObject } from 'react';
import { anchorOfSelection, type SelectionAnchor } from './selection.ts';

export interface SelectionState {
  anchor: SelectionAnchor;
}

/** Where the current selection is on screen (the toolbar follows it), or null without one. */
export function selectionBox(): DOMRect | null {
  const current = window.getSelection();
  return current && current.rangeCount > 0 ? current.getRangeAt(0).getBoundingClientRect() : null;
}

/** The reader's text selection inside `textRef`, read a moment after it settles, for the selection toolbar. */
export function useTextSelection(textRef: RefObject<HTMLElement | null>) {
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
      setSelection({ anchor });
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
  }, [textRef]);

  const clearSelection = useCallback(() => {
    window.getSelection()?.removeAllRanges();
    setSelection(null);
  }, []);
  return { selection, setSelection, clearSelection };
}
