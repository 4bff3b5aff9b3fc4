/**
 * Line breaks inside a block (verse, addresses, Word's manual line breaks) are `\n` in its text and in
 * its inline markup. An engine given such a block whole may join, drop or move its lines, so a block
 * with lines is sent line by line: each line one segment, with its own markup closed at the line's end
 * and opened again on the next line, and the translated lines are joined with `\n` again. Every engine
 * answers one text per segment, so the translation has exactly the lines of the original.
 */

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
