/**
 * Line breaks inside a block (verse, addresses, Word's manual line breaks) are `\n` in its text and in
 * its inline markup. An engine given such a block whole may join, drop or move its lines, so a block
 * with lines is sent line by line: each line one segment, with its own markup closed at the line's end
 * and opened again on the next line, and the translated lines are joined with `\n` again. Every engine
 * answers one text per segment, so the translation has exactly the lines of the original.
 */

import type { ChainOutput, TranslationChain } from './resilient.ts';
import type { TranslateInput } from './types.ts';

/** A tag of the inline whitelist, as the parsers and cleanTranslation write it. */
const TAG = /<\/?([a-zA-Z][a-zA-Z0-9]*)(?:\s[^<>]*)?\/?>/g;
const BREAK = /<br\s*\/?>/gi;

/** Whether a text (plain or inline markup) holds more than one line. */
export function hasLines(text: string): boolean {
  return text.includes('\n') || /<br\s*\/?>/i.test(text);
}

/**
 * The lines of inline markup, each well-formed on its own: the elements open at a line break are
 * closed before it and opened again (same tag, same attributes) after it. `<br>` counts as a break.
 */
export function splitMarkupLines(markup: string): string[] {
  const source = markup.replace(BREAK, '\n');
  const lines: string[] = [];
  /** Open elements: their name and the opening tag as written. */
  const open: { name: string; tag: string }[] = [];
  let line = '';
  let at = 0;
  const text = (piece: string) => {
    const parts = piece.split('\n');
    line += parts[0];
    for (const part of parts.slice(1)) {
      lines.push(
        line +
          open
            .map((o) => `</${o.name}>`)
            .reverse()
            .join(''),
      );
      line = open.map((o) => o.tag).join('') + part;
    }
  };
  TAG.lastIndex = 0;
  for (let m = TAG.exec(source); m; m = TAG.exec(source)) {
    text(source.slice(at, m.index));
    at = m.index + m[0].length;
    const tag = m[0];
    const name = m[1]!.toLowerCase();
    line += tag;
    if (tag.startsWith('</')) {
      const index = open.map((o) => o.name).lastIndexOf(name);
      if (index !== -1) open.splice(index, 1);
    } else if (!tag.endsWith('/>')) open.push({ name, tag });
  }
  text(source.slice(at));
  lines.push(line);
  return lines;
}

/**
 * A line's translation as one line: an engine may still break a long line or end it with a newline;
 * a `<br>` it adds is a break too.
 */
export function asOneLine(translation: string): string {
  return translation
    .replace(BREAK, ' ')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** Translated lines back into one text: blank lines of the original stay blank. */
export function joinLines(lines: readonly string[]): string {
  return lines.map(asOneLine).join('\n');
}

/** A line with no text, only markup (or nothing): kept as it is, never sent to an engine. */
const isBlankMarkup = (line: string): boolean => line.replace(/<[^>]*>/g, '').trim() === '';

/**
 * A chain call where each text with line breaks goes line by line: every line one segment (blank
 * lines are not sent), the translated lines joined again. Answers one translation per text, with the
 * engine of its first line. Texts without lines are sent as they are.
 */
export async function translateByLines(
  chain: Pick<TranslationChain, 'translate'>,
  input: TranslateInput,
): Promise<ChainOutput> {
  const lined = input.texts.map(hasLines);
  if (!lined.includes(true)) return chain.translate(input);
  const segments: string[] = [];
  const parts = input.texts.map((text, i) =>
    lined[i]
      ? splitMarkupLines(text).map((line) => (isBlankMarkup(line) ? -1 : segments.push(line) - 1))
      : [segments.push(text) - 1],
  );
  const output = await chain.translate({ ...input, texts: segments, lines: true });
  const first = (indexes: number[]) => indexes.find((i) => i >= 0) ?? -1;
  return {
    ...output,
    texts: parts.map((indexes, i) =>
      lined[i]
        ? joinLines(indexes.map((k) => (k >= 0 ? (output.texts[k] ?? '') : '')))
        : (output.texts[indexes[0]!] ?? ''),
    ),
    sources: parts.map((indexes) => output.sources[first(indexes)] ?? { engine: output.engine, model: output.model }),
  };
}
