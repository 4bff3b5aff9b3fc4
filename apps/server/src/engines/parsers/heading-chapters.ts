/**
 * Chapters of documents whose structure is their headings (DOCX, web pages, Word XML), from a flat
 * list of block drafts.
 */
import type { BlockDraft } from './blocks.ts';
import { shorten, type BookBuilder } from './builder.ts';

/**
 * Chapters start at the highest heading level used at least twice (a single Heading 1 is usually the
 * document title). `minor` headings (titles, direct outline levels) never set that level. Without such
 * headings a long document is cut into parts of about 40,000 characters, preferably at a heading so
 * parts start where the author started something. Footnotes go to the end of the chapter that first
 * cites them. The contents are the headings at every level, as Word's navigation pane shows them
 * (but `unlisted` ones: a document's Title), a deeper level under the one above it.
 */
export function splitByHeadings(
  book: BookBuilder,
  drafts: BlockDraft[],
  minor?: ReadonlySet<BlockDraft>,
  unlisted?: ReadonlySet<BlockDraft>,
): void {
  const notes = drafts.filter((d) => d.type === 'footnote');
  const body = drafts.filter((d) => d.type !== 'footnote');
  const listed = body.filter((d) => d.type === 'heading' && d.level && d.text.trim() && !unlisted?.has(d));
  const top = listed.reduce((min, d) => Math.min(min, d.level!), 9);
  const listHeadings = () => {
    for (const d of listed) book.entry(shorten(d.text, 100), d.level! - top + 1, d);
  };
  const counts = new Map<number, number>();
  for (const d of body) {
    if (d.type === 'heading' && d.level && !minor?.has(d)) counts.set(d.level, (counts.get(d.level) ?? 0) + 1);
  }
  const level = [...counts.keys()].sort((a, b) => a - b).find((l) => counts.get(l)! >= 2);
  if (level !== undefined) {
    listHeadings();
    book.startChapter('');
    for (const d of body) {
      if (d.type === 'heading' && d.level !== undefined && d.level <= level && !minor?.has(d)) {
        book.startChapter(shorten(d.text, 100), 1);
      }
      book.add(d);
    }
  } else {
    // The section level: the highest heading level used more than once, minor headings included.
    const all = new Map<number, number>();
    for (const d of body) if (d.type === 'heading' && d.level) all.set(d.level, (all.get(d.level) ?? 0) + 1);
    const sectionLevel = [...all.keys()].sort((a, b) => a - b).find((l) => all.get(l)! >= 2) ?? 0;
    // A few headings are the contents; without them, the parts (and their generated titles) are.
    const partsListed = listed.length < 2;
    if (!partsListed) listHeadings();
    let chars = 0;
    let part = 0;
    for (const d of body) {
      const atHeading = d.type === 'heading' && (d.level ?? 9) <= sectionLevel && chars > 25000;
      if (part === 0 || chars > 40000 || atHeading) {
        part++;
        const chapter = atHeading
          ? book.startChapter(shorten(d.text, 100))
          : book.startChapter('', undefined, part === 1 ? undefined : { kind: 'part', n: part });
        if (partsListed) book.listChapter(chapter, 1);
        chars = 0;
      }
      book.add(d);
      chars += d.text.length;
    }
    const first = book.chapters[0];
    if (part > 1 && first && !first.title) first.generated = { kind: 'part', n: 1 };
  }
  if (!notes.length) return;
  const chapterOf = new Map<string, (typeof book.chapters)[number]>();
  for (const chapter of book.chapters)
    for (const d of chapter.blocks)
      for (const key of d.noteRefKeys ?? []) if (!chapterOf.has(key)) chapterOf.set(key, chapter);
  const last = book.chapters[book.chapters.length - 1];
  for (const note of notes) {
    const chapter = (note.noteKey && chapterOf.get(note.noteKey)) || last;
    if (chapter) chapter.blocks.push(note);
    else book.add(note);
  }
}
