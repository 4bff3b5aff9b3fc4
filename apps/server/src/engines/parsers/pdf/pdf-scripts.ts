/**
 * Sub- and superscripts of inline mathematics that pdf.js gave lines of their own ("M2" set as "M"
 * on the line and a "2" 3 points lower): put back into their line where it left a gap for them, so
 * that no paragraph is a lone "2" and the sentence reads "M2(i)".
 */
import type { PdfLine } from './pdf-layout.ts';

/** A script: at most 3 characters, smaller than the line it hangs on. */
const isScript = (l: PdfLine) => {
  const text = l.text.trim();
  return text.length > 0 && text.length <= 3 && !/\p{L}{3}/u.test(text);
};

/** The line a script hangs on: larger type, level with it (a subscript reaches half an em below). */
function hostOf(script: PdfLine, lines: PdfLine[]): PdfLine | undefined {
  return lines.find(
    (l) =>
      l !== script &&
      !isScript(l) &&
      l.size >= script.size * 1.15 &&
      script.x0 >= l.x0 &&
      script.x1 <= l.x1 + l.size &&
      script.y >= l.y - l.size * 0.5 &&
      script.y <= l.y + l.size * 0.7,
  );
}

/** Where in the host's text the script goes: the gap nearest its place along the line. */
function insertAt(host: PdfLine, script: PdfLine): string {
  const text = host.text;
  const estimate = Math.round(((script.x0 - host.x0) / Math.max(1, host.x1 - host.x0)) * text.length);
  let best = -1;
  for (let d = 0; d <= 4 && best === -1; d++) {
    for (const i of [estimate - d, estimate + d]) if (text[i] === ' ' && i > 0) best = best === -1 ? i : best;
  }
  const piece = script.text.trim();
  if (best === -1) return text.slice(0, estimate) + piece + text.slice(estimate);
  // A gap before a bracket or punctuation was the script's own; before a word it stays a space.
  const closing = /[)\]},.;:]/.test(text[best + 1] ?? '');
  return text.slice(0, best) + piece + (closing ? '' : ' ') + text.slice(best + 1);
}

/** The page's lines with its stray scripts put back into their lines (the lines' text changed). */
export function mergeScripts(lines: PdfLine[]): PdfLine[] {
  const merged = new Set<PdfLine>();
  // Right to left, so that an earlier script's place along the line is still where it was.
  const scripts = lines.filter(isScript).sort((a, b) => b.x0 - a.x0);
  for (const script of scripts) {
    const host = hostOf(script, lines);
    if (!host) continue;
    host.text = insertAt(host, script);
    merged.add(script);
  }
  return merged.size ? lines.filter((l) => !merged.has(l)) : lines;
}
