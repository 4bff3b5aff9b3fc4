/**
 * Right-to-left lines (Arabic, Hebrew) in reading order. A PDF places text where it is seen; pdf.js
 * puts the characters of each text item in logical order (its own bidi pass), but the items of a
 * line come in the order they were drawn, and sorting them by x reads a Hebrew line backwards,
 * word group by word group. A line whose letters are mostly right-to-left is read from its right
 * end; numbers and Latin words inside it keep their own left-to-right order, and the neutral
 * punctuation between two of them goes with them (the Unicode bidi algorithm's rule for neutrals).
 */

const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;
const RTL_LETTERS = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/gu;
/** Letters and digits written left to right (digits run left to right inside right-to-left text too). */
const LTR_STRONG = /[\p{N}\p{L}]/u;
const LTR_STRONGS = /[\p{N}\p{L}]/gu;

type Direction = 'L' | 'R' | 'N';

function directionOf(text: string): Direction {
  if (RTL_LETTER.test(text)) return 'R';
  return LTR_STRONG.test(text) ? 'L' : 'N';
}

/** Whether any of the texts has a right-to-left letter (most lines have none: nothing more to do). */
export function hasRightToLeft(texts: string[]): boolean {
  return texts.some((text) => RTL_LETTER.test(text));
}

/** Whether a line's letters are mostly right-to-left ones. */
export function isRightToLeftText(texts: string[]): boolean {
  let rtl = 0;
  let all = 0;
  for (const text of texts) {
    const r = text.match(RTL_LETTERS)?.length ?? 0;
    rtl += r;
    all += text.match(LTR_STRONGS)?.length ?? 0;
  }
  return rtl > 0 && rtl * 2 > all;
}

/**
 * The items of one line (sorted left to right) in reading order. In a right-to-left line, runs of
 * left-to-right items are kept as they are and the runs are read from the right; in a left-to-right
 * line, runs of right-to-left items are read from their right end.
 */
export function readingOrder<T extends { str: string }>(items: T[], rightToLeft: boolean): T[] {
  const types = items.map((item) => directionOf(item.str));
  if (!types.includes('R')) return items;
  const base: Direction = rightToLeft ? 'R' : 'L';
  const embedded: Direction = rightToLeft ? 'L' : 'R';
  // A neutral between two items of the embedded direction joins them; any other takes the line's.
  const resolved = types.map((type, i) => {
    if (type !== 'N') return type;
    let before: Direction | undefined;
    for (let k = i - 1; k >= 0 && before === undefined; k--) if (types[k] !== 'N') before = types[k];
    let after: Direction | undefined;
    for (let k = i + 1; k < types.length && after === undefined; k++) if (types[k] !== 'N') after = types[k];
    return before === embedded && after === embedded ? embedded : base;
  });
  // Runs of one direction, left to right; the line reads them from its starting side.
  const runs: { direction: Direction; items: T[] }[] = [];
  items.forEach((item, i) => {
    const last = runs[runs.length - 1];
    if (last && last.direction === resolved[i]) last.items.push(item);
    else runs.push({ direction: resolved[i]!, items: [item] });
  });
  const out: T[] = [];
  const orderedRuns = rightToLeft ? runs.reverse() : runs;
  for (const run of orderedRuns) out.push(...(run.direction === 'R' ? run.items.reverse() : run.items));
  return out;
}
