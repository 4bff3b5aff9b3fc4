/**
 * PDF fonts whose codes are mapped to Latin-1 or WinAnsi while they draw the letters of another code
 * page: a LaTeX T2A font whose ToUnicode map says Latin-1, a Word "Cyrillic" font embedded with
 * WinAnsiEncoding. pdf.js then gives "Íå î÷åíü êðàòêîå" for "Не очень краткое" (mojibake.ts).
 *
 * The fault is a font's encoding, so the text is judged per font: on each page, the text of every
 * font that has characters another code page reads differently is scored, and a font whose text is
 * clearly another code page is read in it. A font with too little text on the page to tell (a
 * heading, a running head) follows the code page of the page's other fonts when that reads much
 * better (`repairIfBetter`);
 * a font whose text reads as it is (a French quotation, a maths font's × and ±) is left alone. Pages
 * with no verdict of their own (a title page of a few words) are read with the book's code page
 * afterwards, line by line, again only where that reads much better.
 */
import { detectMojibake, mayBeMojibake, recode, repairIfBetter } from '../mojibake.ts';
import type { MojibakeCodePage } from '../mojibake.ts';
import type { PdfLine, PdfTextItem } from './pdf-layout.ts';

/**
 * Puts the items of a page's mis-mapped fonts in their code page, in place. Returns the code page
 * the page's text was read in (the one that spoke for most letters), if any.
 */
export function repairPageMojibake(items: PdfTextItem[]): MojibakeCodePage | undefined {
  if (!items.some((item) => mayBeMojibake(item.str))) return undefined;
  const byFont = new Map<string, PdfTextItem[]>();
  for (const item of items) {
    const font = item.font ?? '';
    const list = byFont.get(font);
    if (list) list.push(item);
    else byFont.set(font, [item]);
  }
  const suspects = [...byFont.values()]
    .filter((fontItems) => fontItems.some((item) => mayBeMojibake(item.str)))
    .map((fontItems) => ({ items: fontItems, text: fontItems.map((item) => item.str).join(' ') }));
  if (!suspects.length) return undefined;

  const votes = new Map<MojibakeCodePage, number>();
  const verdicts = suspects.map(({ text }) => detectMojibake(text));
  for (const verdict of verdicts) {
    if (verdict) votes.set(verdict.codePage, (votes.get(verdict.codePage) ?? 0) + verdict.letters);
  }
  // No font says it alone: the page's suspect fonts together may.
  if (!votes.size) {
    const pooled = detectMojibake(suspects.map(({ text }) => text).join('\n'));
    if (pooled) votes.set(pooled.codePage, pooled.letters);
  }
  const pageCodePage = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!pageCodePage) return undefined;

  suspects.forEach(({ items: fontItems, text }, i) => {
    const codePage = verdicts[i]?.codePage;
    if (!codePage && repairIfBetter(text, pageCodePage) === text) return;
    for (const item of fontItems) item.str = recode(item.str, codePage ?? pageCodePage);
  });
  return pageCodePage;
}

/** The page's lines, its verdict (repairPageMojibake) and nothing else: what the book-wide pass needs. */
interface PageOfLines {
  lines: PdfLine[];
  mojibake?: MojibakeCodePage;
}

/**
 * Reads the lines of pages that had no verdict of their own in the code page most pages were read
 * in, where a line reads better in it. Returns that code page and the pages read in it, if any.
 */
export function repairBookMojibake(pages: PageOfLines[]): { codePage: MojibakeCodePage; pages: number } | undefined {
  const counts = new Map<MojibakeCodePage, number>();
  for (const page of pages) if (page.mojibake) counts.set(page.mojibake, (counts.get(page.mojibake) ?? 0) + 1);
  const [codePage, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!codePage || !count) return undefined;
  let repaired = count;
  for (const page of pages) {
    if (page.mojibake) continue;
    let changed = false;
    for (const line of page.lines) {
      const text = repairIfBetter(line.text, codePage);
      if (text === line.text) continue;
      line.text = text;
      changed = true;
    }
    if (changed) repaired++;
  }
  return { codePage, pages: repaired };
}
