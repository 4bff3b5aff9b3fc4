import type { ReactNode } from 'react';

export interface Highlight {
  start: number;
  end: number;
}

/**
 * Text with some ranges marked. Book text is never parsed as HTML: every piece is a React text
 * node (escaped by React), and the marks are elements we make. Ranges out of bounds, empty or
 * overlapping an earlier one are ignored, so a bad answer can never cut the text wrongly.
 */
export function HighlightedText({ text, highlights }: { text: string; highlights: readonly Highlight[] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  const sorted = [...highlights].sort((a, b) => a.start - b.start);
  for (const { start, end } of sorted) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < at || end <= start || end > text.length) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <mark key={start} className="yd-hl">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
