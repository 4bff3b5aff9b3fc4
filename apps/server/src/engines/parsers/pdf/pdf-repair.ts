/**
 * A PDF cut short (an upload or a download that stopped) has lost its end: the cross-reference
 * table, the trailer, and most often the page tree and the catalog, which most producers write
 * last. pdf.js rebuilds the table by scanning the objects, but with no trailer and no page tree it
 * finds no pages. The pages themselves are still there, in the order they were written: a page
 * tree listing them, a catalog and a trailer are appended, and the book is read as far as it goes
 * (pages whose content was cut off fail on their own, with a warning).
 */

const PAGE = /\/Type\s*\/Page(?![A-Za-z])/g;
const OBJECT_HEAD = /(\d+)\s+(\d+)\s+obj\b/g;
/** How far before "/Type /Page" its object's "n g obj" may be (page dictionaries are short). */
const HEAD_WINDOW = 4096;

/** The bytes with a page tree of the pages found, or undefined when there is no page to be found. */
export function withRebuiltPageTree(input: Uint8Array): Uint8Array | undefined {
  // Latin-1: one character per byte, so positions in the text are positions in the file.
  const text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('latin1');
  const kids: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(PAGE)) {
    const start = Math.max(0, match.index - HEAD_WINDOW);
    const window = text.slice(start, match.index);
    const heads = [...window.matchAll(OBJECT_HEAD)];
    const head = heads[heads.length - 1];
    // The page's own object: no "endobj" between its head and its /Type.
    if (!head || window.slice(head.index).includes('endobj')) continue;
    const ref = `${head[1]} ${head[2]} R`;
    if (!seen.has(ref)) kids.push(ref);
    seen.add(ref);
  }
  if (!kids.length) return undefined;
  let last = 0;
  for (const match of text.matchAll(OBJECT_HEAD)) last = Math.max(last, Number(match[1]));
  const pages = last + 1;
  const catalog = last + 2;
  const tail =
    `\n${pages} 0 obj\n<</Type/Pages/Kids[${kids.join(' ')}]/Count ${kids.length}>>\nendobj\n` +
    `${catalog} 0 obj\n<</Type/Catalog/Pages ${pages} 0 R>>\nendobj\n` +
    `trailer\n<</Size ${catalog + 1}/Root ${catalog} 0 R>>\n%%EOF\n`;
  const out = new Uint8Array(input.byteLength + tail.length);
  out.set(input);
  out.set(Buffer.from(tail, 'latin1'), input.byteLength);
  return out;
}
