/**
 * Title and authors read from page 1, for PDFs whose metadata has none (most LaTeX and arXiv PDFs)
 * or only a file name ("paper_v2.dvi", "Microsoft Word - draft.doc"): the largest text in the top
 * part of page 1 is the title, the lines under it, up to the abstract or the body text, the authors.
 */
import type { PdfLine } from './pdf-layout.ts';
import { joinParagraphLines } from './pdf-join.ts';
import { isCaptionStart } from './pdf-figures.ts';

const FILE_NAME = /\.(pdf|dvi|tex|docx?|odt|rtf|ps|indd|qxd|pages)$|^microsoft (word|powerpoint) - |^untitled/i;

/** A metadata title that names a file or nothing: not the document's title. */
export function isPlaceholderTitle(title: string | undefined): boolean {
  if (!title) return true;
  const t = title.trim();
  return FILE_NAME.test(t) || (!/\s/.test(t) && /[_]|\d{4}/.test(t)) || !/\p{L}{2}/u.test(t);
}

/** Where an author block ends: an abstract, a heading of the paper, an e-mail or a date line. */
const AUTHORS_END =
  /^(abstract|summary|keywords?|index terms|introduction|1\.?\s+introduction|摘\s*要|概要|zusammenfassung|résumé|аннотация)\b/iu;
/** Affiliation and contact lines under the names: not authors. */
const NOT_NAMES =
  /@|https?:|www\.|universit|institut|college|school|department|dept\.|laborator|corporation|inc\.|ltd|gmbh|research|大学|研究|学院/iu;
/** Society grades after a name ("Jordi Soria-Comas, Fellow, IEEE"). */
const MEMBERSHIP = /,?\s*(?:(?:senior|student|life)\s+)?(?:member|fellow),\s*(?:IEEE|ACM)\b/giu;
/** Marks after names pointing to affiliations and notes. */
const NAME_MARKS = /[∗*†‡§¶#+$]|\d+(?=\s*(,|$|\s+and\b))/gu;

const PARTICLE = /^(von|van|der|den|de|del|della|da|di|du|le|la|bin|al|y|zu)$/u;

/** Names: "Ada Lovelace, Alan M. Turing and Grace Hopper", "青木 修": capitalised words, no numbers. */
function isNameList(text: string): boolean {
  if (!text || /\d/.test(text)) return false;
  const parts = text
    .split(/,|;|\band\b|&|、|，/u)
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.every((part) => {
    if (/^[\p{Script=Han}\p{Script=Hangul}\p{Script=Katakana}\p{Script=Hiragana}・·\s()（）]{2,12}$/u.test(part))
      return true;
    const words = part.split(/\s+/);
    return words.length <= 5 && words.every((w) => /^[\p{Lu}(]/u.test(w) || PARTICLE.test(w));
  });
}

/** Title and authors from page 1's lines (in reading order), or nothing when no line stands out. */
export function titleFromFirstPage(
  lines: PdfLine[],
  pageHeight: number,
  bodySize: number,
): { title?: string; author?: string } {
  const top = lines.filter((l) => l.y >= pageHeight * 0.35 && /\p{L}{2}/u.test(l.text) && !isCaptionStart(l.text));
  if (!top.length) return {};
  const largest = Math.max(...top.map((l) => l.size));
  if (largest < bodySize * 1.15) return {};
  const start = top.findIndex((l) => l.size >= largest - 0.5);
  const titleLines = [top[start]!];
  for (const l of top.slice(start + 1)) {
    const prev = titleLines[titleLines.length - 1]!;
    if (l.size < largest - 0.5 || prev.y - l.y > l.size * 2.2 || l.y > prev.y) break;
    titleLines.push(l);
  }
  const title = joinParagraphLines(titleLines.map((l) => l.text.trim())).slice(0, 300);

  // The lines under the title, up to the abstract or the body: names, with affiliations left out.
  const last = titleLines[titleLines.length - 1]!;
  const names: string[] = [];
  for (const l of top.slice(top.indexOf(last) + 1)) {
    const text = l.text.trim();
    if (l.y > last.y || last.y - l.y > pageHeight * 0.25 || AUTHORS_END.test(text)) break;
    if (l.size >= largest - 0.5 || text.length > 160 || (/[.!?]$/.test(text) && text.split(/\s+/).length > 8)) break;
    if (names.length >= 4) break;
    if (NOT_NAMES.test(text)) continue;
    const cleaned = text
      .replace(MEMBERSHIP, '')
      .replace(NAME_MARKS, '')
      .replace(/\s+,/g, ',')
      .replace(/\s{2,}/g, ' ')
      .trim();
    // A subtitle, a date or a journal line ends the names.
    if (!isNameList(cleaned)) break;
    names.push(cleaned);
  }
  const author = names.length ? names.join(', ').replace(/,\s*,/g, ',').slice(0, 300) : undefined;
  return { title, ...(author && { author }) };
}
