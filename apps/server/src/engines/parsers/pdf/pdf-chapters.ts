/**
 * Where a PDF's chapters start, besides its headings: the outline (bookmarks), resolved to pages and
 * positions, and the by-lines of an anthology ("Title" / "by Author").
 */
import { shorten } from '../builder.ts';
import type { BookBuilder } from '../builder.ts';
import { pickChapterNodes } from '../toc.ts';
import type { BlockDraft } from '../blocks.ts';
import { PARSE_LIMITS } from '../limits.ts';
import type { PdfDocument } from './pdf-text.ts';

export interface OutlineEntry {
  title: string;
  page?: number;
  y?: number;
  children: OutlineEntry[];
}

/** How deep the outline is read (real books: 4 or 5). */
const OUTLINE_DEPTH = 16;

/** The outline at every depth (entries past PARSE_LIMITS.contentsEntries are not resolved). */
export async function readOutline(doc: PdfDocument): Promise<OutlineEntry[]> {
  const outline = await doc.getOutline().catch(() => null);
  if (!outline?.length) return [];
  let count = 0;
  const resolve = async (items: NonNullable<typeof outline>, depth: number): Promise<OutlineEntry[]> => {
    const out: OutlineEntry[] = [];
    for (const item of items) {
      if (++count > PARSE_LIMITS.contentsEntries) break;
      const entry: OutlineEntry = { title: item.title?.trim() ?? '', children: [] };
      try {
        const dest = typeof item.dest === 'string' ? await doc.getDestination(item.dest) : item.dest;
        const ref = dest?.[0];
        if (ref !== undefined && ref !== null) {
          entry.page =
            typeof ref === 'number' ? ref + 1 : (await doc.getPageIndex(ref as { num: number; gen: number })) + 1;
          const kind = (dest?.[1] as { name?: string } | undefined)?.name;
          const y = kind === 'XYZ' ? dest?.[3] : kind === 'FitH' || kind === 'FitBH' ? dest?.[2] : undefined;
          if (typeof y === 'number') entry.y = y;
        }
      } catch {
        // A dangling destination: keep the entry without a page; its children may still resolve.
      }
      if (depth < OUTLINE_DEPTH && item.items?.length) entry.children = await resolve(item.items, depth + 1);
      out.push(entry);
    }
    return out;
  };
  return resolve(outline, 0);
}

/** Every entry of the outline in order, an entry before its children, with its depth (1 = top). */
export function flattenOutline(outline: OutlineEntry[]): (OutlineEntry & { level: number })[] {
  const out: (OutlineEntry & { level: number })[] = [];
  const walk = (entries: OutlineEntry[], level: number) => {
    for (const entry of entries) {
      out.push({ ...entry, level });
      walk(entry.children, level + 1);
    }
  };
  walk(outline, 1);
  return out;
}

const BYLINE = /^[Bb]y\s+\p{Lu}[\p{L}.'’ -]{2,50}$/u;
const TITLE_WITH_BYLINE = /^(.{3,80}?)[\s,–—-]+[Bb]y\s+\p{Lu}[\p{L}.'’ -]{2,40}$/u;

/** Chapter starts of an anthology: a by-line, with the short title line(s) just above it. */
export function bylineChapters(drafts: (BlockDraft & { byWeight?: boolean })[]): { index: number; title: string }[] {
  const out: { index: number; title: string }[] = [];
  drafts.forEach((d, i) => {
    if (d.type === 'footnote') return;
    const text = d.text.trim();
    if (BYLINE.test(text)) {
      let start = i;
      const titleParts: string[] = [];
      for (let k = i - 1; k >= Math.max(0, i - 2); k--) {
        const prev = drafts[k]!.text.trim();
        // Display-font headings above a title are ornaments (often garbled glyphs), not the title.
        // A title set in bold body type is a heading by weight; larger display type is not a title part.
        const type = drafts[k]!.type;
        if (prev.length > 70 || /[.!?]$/.test(prev) || (type !== 'paragraph' && !drafts[k]!.byWeight)) break;
        // Source notes and decorative glyph lines ("kikikikik") are not part of a title.
        if (/^\(|source:|e?book\s*#/i.test(prev) || /(..)\1{2,}|[bcdfghjklmnpqrstvwxz]{5,}/i.test(prev)) break;
        start = k;
        titleParts.unshift(prev.replace(/[\s,:;–—-]+$/, ''));
      }
      out.push({ index: start, title: shorten(titleParts.join(' - ') || text, 120) });
    } else if (text.length <= 110 && TITLE_WITH_BYLINE.test(text)) {
      out.push({ index: i, title: shorten(TITLE_WITH_BYLINE.exec(text)![1]!.replace(/[,\s]+$/, ''), 120) });
    }
  });
  // A piece needs some body: by-lines a few blocks apart belong to one piece.
  return out.filter((c, k) => (out[k + 1]?.index ?? drafts.length) - c.index >= 4);
}

/** Parts of this many pages make the chapters of a PDF with neither outline nor headings. */
const PAGES_PER_PART = 10;

/**
 * Cuts the blocks into chapters: at the outline's chapter entries where it has two or more; else at
 * an anthology's by-lines; else at the headings of the highest level that recurs (body-size bold
 * headings, `weightLevel`, only in documents of four pages or more); else in parts of ten pages.
 * The whole outline becomes the contents, each entry leading to the first block at its place.
 */
export function addChapters(
  book: BookBuilder,
  drafts: (BlockDraft & { top: number; byWeight?: boolean })[],
  outline: OutlineEntry[],
  weightLevel: number,
  numPages: number,
): void {
  const byPlace = (a: OutlineEntry, b: OutlineEntry) => a.page! - b.page! || (b.y ?? Infinity) - (a.y ?? Infinity);
  // A block at or below where an entry points (PDF y grows upwards) is where the entry leads.
  const reached = (d: (typeof drafts)[number], entry: OutlineEntry) =>
    d.pdfPage! > entry.page! || (d.pdfPage === entry.page && (entry.y === undefined || d.top <= entry.y + 2));
  // The contents are the whole outline (of two entries or more; else the chapters stand in for it),
  // each entry leading to the first block at its place.
  const flat = flattenOutline(outline);
  const listed = flat.length >= 2 ? flat.map((e) => ({ ...e, draft: book.entry(e.title, e.level) })) : [];
  const placed = listed.filter((e) => e.page !== undefined).sort(byPlace);
  let nextListed = 0;
  for (const d of drafts) {
    while (nextListed < placed.length && reached(d, placed[nextListed]!)) placed[nextListed++]!.draft.target = d;
  }
  const entries = pickChapterNodes(outline)
    .map(({ node, level }) => ({ ...node, level }))
    .filter((e) => e.page !== undefined && e.title)
    .sort(byPlace);
  if (entries.length >= 2) {
    let next = 0;
    book.startChapter('');
    for (const d of drafts) {
      while (next < entries.length && reached(d, entries[next]!)) {
        const entry = entries[next]!;
        book.startChapter(shorten(entry.title, 120), entry.level);
        next++;
      }
      book.add(d);
    }
  } else if (bylineChapters(drafts).length >= 3) {
    // Anthologies: "Title" / "by Author" lines open each piece.
    const starts = new Map(bylineChapters(drafts).map((c) => [c.index, c.title]));
    book.startChapter('');
    drafts.forEach((d, i) => {
      const title = starts.get(i);
      if (title !== undefined) book.startChapter(title, 1);
      book.add(d);
    });
  } else {
    const headings = drafts.filter((d) => d.type === 'heading');
    const counts = new Map<number, number>();
    for (const h of headings) counts.set(h.level!, (counts.get(h.level!) ?? 0) + 1);
    // Bold body-size headings cut chapters only in documents long enough to have chapters (a one-page
    // form has bold labels, not chapters).
    const level = [...counts.keys()]
      .sort((a, b) => a - b)
      .find(
        (l) =>
          counts.get(l)! >= 2 && counts.get(l)! <= Math.max(3, numPages * 2) && (l !== weightLevel || numPages >= 4),
      );
    if (level !== undefined) {
      book.startChapter('');
      for (const d of drafts) {
        if (d.type === 'heading' && d.level! <= level) book.startChapter(shorten(d.text, 120), 1);
        book.add(d);
      }
    } else if (numPages > PAGES_PER_PART * 1.5) {
      let current = -1;
      for (const d of drafts) {
        const part = Math.floor((d.pdfPage! - 1) / PAGES_PER_PART);
        if (part !== current) {
          current = part;
          const first = part * PAGES_PER_PART + 1;
          book.startChapter('', undefined, {
            kind: 'pages',
            from: first,
            to: Math.min(numPages, first + PAGES_PER_PART - 1),
          });
        }
        book.add(d);
      }
    } else {
      book.startChapter('');
      for (const d of drafts) book.add(d);
    }
  }
}
