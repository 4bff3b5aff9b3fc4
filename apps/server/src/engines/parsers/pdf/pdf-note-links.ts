/**
 * A PDF paragraph's note calls as links: the raised marks ("1", "*") that pdf-lines.ts found in its
 * lines stand in the text where they were printed; each one whose note was found on the page becomes
 * `<sup><a href="#note">1</a></sup>` in the html, so the reader can open the note from its mark.
 */
import { NOTE_LINK_MARK } from '../blocks.ts';
import { escapeHtml } from '../markup.ts';

/**
 * Where `label` stands as a mark from `from` on: glued to the word or sign before it ("double.1") is
 * sure, after a space is taken only when no glued one follows; never inside a number ("1660").
 */
function markAt(text: string, label: string, from: number): number {
  let spaced = -1;
  for (let i = text.indexOf(label, from); i !== -1; i = text.indexOf(label, i + 1)) {
    const before = text[i - 1] ?? '';
    const after = text[i + label.length] ?? '';
    if (i === 0 || /\d/.test(before) || /\d/.test(after)) continue;
    if (!/\s/.test(before)) return i;
    if (spaced === -1) spaced = i;
  }
  return spaced;
}

/** The html of a paragraph whose marks call the notes of `keys` (label → note key), or undefined. */
export function linkNoteMarks(
  text: string,
  marks: readonly string[],
  keys: ReadonlyMap<string, string>,
): string | undefined {
  let html = '';
  let at = 0;
  for (const label of marks) {
    const key = keys.get(label);
    if (!key) continue;
    const found = markAt(text, label, at);
    if (found === -1) continue;
    html += `${escapeHtml(text.slice(at, found))}<sup><a href="#${NOTE_LINK_MARK}${escapeHtml(key)}${NOTE_LINK_MARK}">${escapeHtml(label)}</a></sup>`;
    at = found + label.length;
  }
  return at === 0 ? undefined : html + escapeHtml(text.slice(at));
}
