/**
 * Collects chapters of draft blocks and turns them into the final ParsedBook: stable ids, note links
 * resolved, empty chapters dropped, stats computed. Every parser ends here so the rules hold for all.
 */
import type { BlockDraft } from './blocks.ts';
import { NOTE_LINK_MARK } from './blocks.ts';
import { ParseError } from './errors.ts';
import { PARSE_LIMITS } from './limits.ts';
import { ContentsPlaces, type ContentsDraft } from './contents-drafts.ts';
import { sanitizeText } from './sanitize.ts';
import type { Block, BookFormat, BookImage, BookMetadata, Chapter, GeneratedTitle, ParsedBook } from './types.ts';

export type { ContentsDraft };

export interface ChapterDraft {
  title: string;
  generated?: GeneratedTitle;
  level?: number;
  blocks: BlockDraft[];
}

export class BookBuilder {
  readonly chapters: ChapterDraft[] = [];
  /** The contents in the book's order; left empty, the chapters stand in for them. */
  readonly contents: ContentsDraft[] = [];
  readonly images: BookImage[] = [];
  readonly warnings: string[] = [];
  metadata: BookMetadata = {};
  cover?: { data: Buffer; mediaType: string };
  private current?: ChapterDraft;
  private blockCount = 0;
  /** Entries that lead to the next block added. */
  private waiting: ContentsDraft[] = [];

  startChapter(title: string, level?: number, generated?: GeneratedTitle): ChapterDraft {
    const chapter: ChapterDraft = { title: title.replace(/\s+/g, ' ').trim(), blocks: [] };
    if (level) chapter.level = level;
    if (generated) chapter.generated = generated;
    this.chapters.push(chapter);
    this.current = chapter;
    return chapter;
  }

  /** Adds an entry to the contents, leading to `target` (a block added or to be added). */
  entry(title: string, level: number, target?: BlockDraft): ContentsDraft {
    const entry: ContentsDraft = { title: title.replace(/\s+/g, ' ').trim(), level };
    if (target) entry.target = target;
    this.contents.push(entry);
    return entry;
  }

  /** Lists a chapter in the contents: the entry leads to its first block and takes its final title. */
  listChapter(chapter: ChapterDraft, level = chapter.level ?? 1): ContentsDraft {
    const entry: ContentsDraft = { title: '', level, chapter };
    this.contents.push(entry);
    return entry;
  }

  /** The entry (already in the contents) leads to the next block added. */
  pointAtNext(entry: ContentsDraft): void {
    if (!entry.target) this.waiting.push(entry);
  }

  get currentChapter(): ChapterDraft | undefined {
    return this.current;
  }

  /** Adds a block to the current chapter; a book past PARSE_LIMITS.blocksPerBook is refused at once. */
  add(block: BlockDraft): void {
    if (++this.blockCount > PARSE_LIMITS.blocksPerBook) {
      throw new ParseError('fileTooComplex', `The book has more than ${PARSE_LIMITS.blocksPerBook} blocks`);
    }
    (this.current ?? this.startChapter('')).blocks.push(block);
    if (this.waiting.length) {
      for (const entry of this.waiting) entry.target ??= block;
      this.waiting = [];
    }
  }

  warn(message: string): void {
    if (this.warnings.length < 200 && !this.warnings.includes(message)) this.warnings.push(message);
  }

  finish(format: BookFormat, started: number, extra: Partial<ParsedBook['stats']> = {}): ParsedBook {
    return finalizeBook({
      format,
      metadata: this.metadata,
      cover: this.cover,
      chapters: this.chapters,
      contents: this.contents,
      images: this.images,
      warnings: this.warnings,
      started,
      extra,
    });
  }
}

/** Illustration notes ("[Illustration: …]") and rules ("-----") are never a chapter's name. */
export function isMarkerText(text: string): boolean {
  const t = text.trim();
  return !/\p{L}/u.test(t) || /^\[(illustration|image|picture|figure|pic)\b/i.test(t);
}

/** A chapter title from its first heading, else its first words. */
export function titleFromBlocks(blocks: BlockDraft[], fallback: string): string {
  const heading = blocks.find((b) => b.type === 'heading' && b.text.trim() && !isMarkerText(b.text));
  if (heading) return shorten(heading.text, 80);
  const first = blocks.find(
    (b) => b.type !== 'image' && b.type !== 'footnote' && b.text.trim() && !isMarkerText(b.text),
  );
  return first ? shorten(first.text, 40) : fallback;
}

const TOC_TITLE =
  /^(?:table\s+of\s+contents|contents|目\s*[录錄次]|目\s*次|inhalt(?:sverzeichnis)?|sommaire|table des matières|índice|indice|содержание|оглавление|차례|목차)[.:：]?$/i;

/** The heading of a table of contents among a chapter's first blocks ("Contents", "目录"...). */
export function tocTitleOf(blocks: BlockDraft[]): string | undefined {
  return blocks
    .slice(0, 8)
    .map((b) => b.text.trim())
    .find((t) => TOC_TITLE.test(t));
}

/**
 * A chapter that is mostly a table of contents (a title page with the TOC, a "目录" page) is named
 * after the TOC, not after the book title or its first line: its lines are other chapters' titles.
 */
export function nameTocChapters(chapters: ChapterDraft[]): void {
  const normalize = (t: string) => t.replace(/[\s\d.:：·…-]+/g, '').toLowerCase();
  const titles = new Set(chapters.map((c) => normalize(c.title)).filter(Boolean));
  for (const chapter of chapters) {
    const toc = tocTitleOf(chapter.blocks);
    if (!toc || normalize(chapter.title) === normalize(toc)) continue;
    const lines = chapter.blocks.filter((b) => b.type !== 'image' && b.text.trim());
    const listed = lines.filter((b) => b.text.length <= 120 && titles.has(normalize(b.text))).length;
    if (lines.length >= 4 && listed >= Math.min(lines.length * 0.4, 10)) chapter.title = toc;
  }
}

export function shorten(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.5 ? cut.slice(0, space) : cut) + '…';
}

interface FinalizeInput {
  format: BookFormat;
  metadata: BookMetadata;
  cover?: { data: Buffer; mediaType: string };
  chapters: ChapterDraft[];
  /** Empty: the chapters stand in for the contents. */
  contents?: ContentsDraft[];
  images: BookImage[];
  warnings: string[];
  started: number;
  extra?: Partial<ParsedBook['stats']>;
}

/**
 * Every parser's book ends here. Text, html, note labels, titles and metadata are made safe to store
 * and show once, here (sanitize.ts), whatever the parser let through.
 */
export function finalizeBook(input: FinalizeInput): ParsedBook {
  for (const draft of input.chapters) {
    draft.title = sanitizeText(draft.title);
    for (const d of draft.blocks) {
      d.text = sanitizeText(d.text);
      if (d.html !== undefined) d.html = sanitizeText(d.html, NOTE_LINK_MARK);
      if (d.noteLabel !== undefined) d.noteLabel = sanitizeText(d.noteLabel);
    }
  }
  const kept = input.chapters.filter((c) => c.blocks.some((b) => b.text.trim() || b.imageId));
  const noteIds = new Map<string, string>();
  const chapters: Chapter[] = [];
  const finalChapters = new Map<ChapterDraft, Chapter>();
  const pending: { block: Block; keys: string[] }[] = [];
  const contents: ContentsDraft[] = input.contents?.length
    ? input.contents
    : kept.map((chapter) => ({ title: '', level: 1, chapter }));
  const places = new ContentsPlaces(contents);
  const keptSet = new Set(kept);
  let ci = -1;
  for (const draft of input.chapters) {
    if (!keptSet.has(draft)) {
      // A chapter left out (no text): entries leading into it lead to the next block kept.
      for (const d of draft.blocks) places.pass(d);
      continue;
    }
    ci++;
    const blocks: Block[] = [];
    let n = 0;
    for (const original of draft.blocks) {
      places.pass(original);
      const parts = original.text.length > PARSE_LIMITS.blockChars ? splitLongBlocks([original]) : [original];
      for (const d of parts) {
        if (!d.text.trim() && !d.imageId) continue;
        n++;
        const block: Block = { id: `c${ci + 1}-b${n}`, type: d.type, text: d.text };
        places.land(block);
        if (d.html !== undefined) block.html = d.html;
        if (d.level !== undefined) block.level = d.level;
        if (d.imageId !== undefined) block.imageId = d.imageId;
        if (d.noteLabel !== undefined) block.noteLabel = d.noteLabel;
        if (d.pdfPage !== undefined) block.pdfPage = d.pdfPage;
        if (d.pdfRegions?.length) block.pdfRegions = d.pdfRegions;
        if (d.noteKey !== undefined && !noteIds.has(d.noteKey)) noteIds.set(d.noteKey, block.id);
        if (d.noteRefKeys?.length) pending.push({ block, keys: d.noteRefKeys });
        blocks.push(block);
      }
    }
    const chapter: Chapter = { title: draft.generated ? '' : draft.title || titleFromBlocks(draft.blocks, ''), blocks };
    if (draft.generated) chapter.generated = draft.generated;
    else if (!chapter.title) {
      const imageOnly = draft.blocks.every((b) => b.type === 'image');
      chapter.generated = imageOnly && ci === 0 ? { kind: 'cover' } : { kind: 'part', n: ci + 1 };
    }
    if (draft.level !== undefined) chapter.level = draft.level;
    chapters.push(chapter);
    finalChapters.set(draft, chapter);
  }
  const byId = new Map<string, Block>();
  for (const c of chapters) for (const b of c.blocks) byId.set(b.id, b);
  for (const { block, keys } of pending) {
    const refs = keys.map((k) => noteIds.get(k)).filter((id): id is string => id !== undefined && id !== block.id);
    if (refs.length) {
      block.noteRefs = refs;
      for (const id of refs) {
        const note = byId.get(id)!;
        note.referencedBy = [...(note.referencedBy ?? []), block.id];
      }
    }
  }
  // Swap note-link placeholders for real ids, or unwrap the link when the note was not found.
  const linkRe = new RegExp(
    `<a href="#${NOTE_LINK_MARK}([^${NOTE_LINK_MARK}]*)${NOTE_LINK_MARK}">([\\s\\S]*?)</a>`,
    'g',
  );
  for (const c of chapters)
    for (const b of c.blocks) {
      if (!b.html?.includes(NOTE_LINK_MARK)) continue;
      b.html = b.html.replace(linkRe, (_m, key: string, inner: string) => {
        const id = noteIds.get(key.replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
        return id ? `<a href="#${id}">${inner}</a>` : inner;
      });
    }
  const usedImages = new Set(chapters.flatMap((c) => c.blocks.map((b) => b.imageId).filter(Boolean)));
  const images = input.images.filter((img) => usedImages.has(img.id));
  let characters = 0;
  let blocks = 0;
  let footnotes = 0;
  for (const c of chapters)
    for (const b of c.blocks) {
      blocks++;
      characters += b.text.length;
      if (b.type === 'footnote') footnotes++;
    }
  const metadata: BookMetadata = {};
  for (const [k, v] of Object.entries(input.metadata) as [keyof BookMetadata, string | undefined][]) {
    const clean = v === undefined ? undefined : sanitizeText(v).replace(/\s+/g, ' ').trim();
    if (clean) metadata[k] = clean;
  }
  const book: ParsedBook = {
    format: input.format,
    metadata,
    chapters,
    contents: places.resolve(finalChapters, input.warnings),
    images,
    warnings: input.warnings,
    stats: {
      format: input.format,
      chapters: chapters.length,
      blocks,
      characters,
      images: images.length,
      footnotes,
      ...input.extra,
      durationMs: Math.round(performance.now() - input.started),
    },
  };
  if (input.cover) book.cover = input.cover;
  return book;
}

/**
 * Blocks longer than PARSE_LIMITS.blockChars cut into several of the same type, at a sentence end
 * if there is one in the second half of the allowance, else at a space, else anywhere (never inside
 * a surrogate pair). The parts lose their inline html (tags could not be cut safely) and only the
 * first keeps the block's note links and label.
 */
function* splitLongBlocks(blocks: BlockDraft[]): Generator<BlockDraft> {
  const max = PARSE_LIMITS.blockChars;
  for (const block of blocks) {
    if (block.text.length <= max) {
      yield block;
      continue;
    }
    let rest = block.text;
    let first = true;
    while (rest.length > 0) {
      const cut = rest.length <= max ? rest.length : cutPoint(rest, max);
      const text = rest.slice(0, cut).trim();
      const part: BlockDraft = first ? { ...block, text } : { type: block.type, text };
      delete part.html;
      if (!first && block.pdfPage !== undefined) part.pdfPage = block.pdfPage;
      // The parts of a cut block stand where it stood: each keeps its rectangles.
      if (!first && block.pdfRegions !== undefined) part.pdfRegions = block.pdfRegions;
      if (!first && block.level !== undefined) part.level = block.level;
      yield part;
      rest = rest.slice(cut);
      first = false;
    }
  }
}

function cutPoint(text: string, max: number): number {
  const window = text.slice(Math.floor(max / 2), max);
  const sentence = /[.!?。！？…][”"’')）」』]*\s|[。！？]/g;
  let end = -1;
  for (let m = sentence.exec(window); m; m = sentence.exec(window)) end = m.index + m[0].length;
  if (end === -1) {
    const space = window.lastIndexOf(' ');
    end = space === -1 ? -1 : space + 1;
  }
  let cut = end === -1 ? max : Math.floor(max / 2) + end;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1; // never split a surrogate pair
  return cut;
}

/** Concatenated body text of a book, for language detection and tests. */
export function bookText(book: ParsedBook): string {
  return book.chapters
    .flatMap((c) => c.blocks.filter((b) => b.type !== 'code' && b.type !== 'footnote').map((b) => b.text))
    .join('\n');
}
