/**
 * The contents before block ids exist, and where each entry leads once they do (`finalizeBook`).
 */
import type { BlockDraft } from './blocks.ts';
import type { ChapterDraft } from './builder.ts';
import { shorten } from './builder.ts';
import { PARSE_LIMITS } from './limits.ts';
import { sanitizeText } from './sanitize.ts';
import type { Block, Chapter, ContentsEntry, GeneratedTitle } from './types.ts';

/**
 * An entry of the contents before block ids exist. It leads to `target` (a draft block), else to
 * the first block of `chapter` (whose final title it also takes), else to where the entry after it
 * leads (a wrapper such as "Part I" with no place of its own, a link to a file that is not read).
 */
export interface ContentsDraft {
  title: string;
  generated?: GeneratedTitle;
  level: number;
  target?: BlockDraft;
  chapter?: ChapterDraft;
}

/**
 * Follows the drafts as `finalizeBook` turns them into blocks, in reading order: an entry leads to the
 * first block kept at or after its target (a target left out, empty or in a chapter without text,
 * hands its entries on to the next block kept).
 */
export class ContentsPlaces {
  private readonly drafts: ContentsDraft[];
  private readonly byTarget = new Map<BlockDraft, ContentsDraft[]>();
  private readonly leadsTo = new Map<ContentsDraft, Block>();
  private carried: ContentsDraft[] = [];

  constructor(drafts: ContentsDraft[]) {
    this.drafts = drafts;
    for (const entry of drafts) {
      if (!entry.target) continue;
      const list = this.byTarget.get(entry.target);
      if (list) list.push(entry);
      else this.byTarget.set(entry.target, [entry]);
    }
  }

  /** A draft is reached (kept or not): the entries leading to it wait for the next block kept. */
  pass(draft: BlockDraft): void {
    const entries = this.byTarget.get(draft);
    if (entries) this.carried.push(...entries);
  }

  /** A block is kept: the entries waiting lead to it. */
  land(block: Block): void {
    if (!this.carried.length) return;
    for (const entry of this.carried) this.leadsTo.set(entry, block);
    this.carried = [];
  }

  /**
   * The final contents: each entry with the block it leads to and its title. An entry without a place
   * of its own leads where the entry after it leads (a wrapper to its first child); an entry without a
   * title is named by the block it leads to. Levels step down one at a time (a heading 3 right under a
   * heading 1 is its child), and past PARSE_LIMITS.contentsEntries entries the rest are left out.
   */
  resolve(chapters: Map<ChapterDraft, Chapter>, warnings: string[]): ContentsEntry[] {
    const drafts = this.drafts;
    const leadsTo = this.leadsTo;
    if (drafts.length > PARSE_LIMITS.contentsEntries && warnings.length < 200) {
      warnings.push(`The contents have ${drafts.length} entries; the first ${PARSE_LIMITS.contentsEntries} are kept`);
    }
    // An entry standing for a chapter that was left out (no text) goes with it.
    const listed = drafts
      .slice(0, PARSE_LIMITS.contentsEntries)
      .filter((entry) => !entry.chapter || chapters.has(entry.chapter));
    const blocks: (Block | undefined)[] = listed.map((entry) =>
      entry.chapter ? chapters.get(entry.chapter)!.blocks[0] : leadsTo.get(entry),
    );
    for (let i = blocks.length - 2; i >= 0; i--) blocks[i] ??= blocks[i + 1];
    const out: ContentsEntry[] = [];
    listed.forEach((draft, i) => {
      const block = blocks[i];
      if (!block) return;
      const chapter = draft.chapter ? chapters.get(draft.chapter) : undefined;
      const generated = chapter ? chapter.generated : draft.generated;
      let title = generated
        ? ''
        : sanitizeText(chapter ? chapter.title : draft.title)
            .replace(/\s+/g, ' ')
            .trim();
      if (!title && !generated) title = shorten(block.text, 40);
      const level = Math.max(1, Math.min(Math.round(draft.level) || 1, (out.at(-1)?.level ?? 0) + 1));
      const entry: ContentsEntry = { title: shorten(title, 200), level, blockId: block.id };
      if (generated) entry.generated = generated;
      out.push(entry);
    });
    return out;
  }
}
