/**
 * Text written into a Markdown document as text. A reader's note or a book's words may hold
 * Markdown or HTML of their own — `![x](http://…)`, `<img src=…>`, a reference definition — and a
 * Markdown viewer would fetch the remote files they name (telling their owner who opened the notes,
 * and when). Brackets are escaped, so that no image, link or reference can start; `<` becomes an
 * entity, so that no tag or autolink can; backslashes first, so that the text cannot undo either.
 */
export function markdownText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/[[\]]/g, (c) => `\\${c}`)
    .replace(/</g, '&lt;');
}
