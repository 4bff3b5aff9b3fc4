import type { Selectable } from 'kysely';
import type { BookChaptersTable } from '../../db/schema.ts';
import { documentPlan, type PlannedDocument } from '../export/epub-book.ts';
import { renderedElements, type ExportBlock, type ExportMode } from '../export/epub-content.ts';

/**
 * KOReader names a place in a reflowable book by an XPointer of its rendering engine (crengine):
 * `/body/DocFragment[n]/body/p[k]`, where DocFragment n is the n-th document of the reading order
 * and p[k] the k-th <p> among its body's children. Yidu knows the shape of the EPUBs it exports
 * (modules/export: a cover document when there is a cover, then content documents of at most 20
 * pages of one chapter, each block one or two elements), so it can say where a block is in them.
 */

/** What the reading order of an export depends on. */
export interface ExportLayout {
  chapters: Selectable<BookChaptersTable>[];
  pageCount: number;
  /** Pages that hold blocks (a document without any is left out of the book). */
  pagesWithBlocks: ReadonlySet<number>;
  hasCover: boolean;
}

/** The content document holding a reader page, and its place in the reading order (from 1). */
export function documentOfPage(
  layout: ExportLayout,
  page: number,
): { fragment: number; document: PlannedDocument } | undefined {
  let fragment = layout.hasCover ? 1 : 0;
  for (const document of documentPlan(layout.chapters, layout.pageCount)) {
    let written = false;
    for (let p = document.from; p <= document.to && !written; p += 1) written = layout.pagesWithBlocks.has(p);
    if (!written) continue;
    fragment += 1;
    if (page >= document.from && page <= document.to) return { fragment, document };
  }
  return undefined;
}

/**
 * The path, inside its document's body, of the first element written for a block (or for the first
 * block after it that writes one): `p[3]`, `h2[1]`.
 */
export function elementPath(
  blocks: ExportBlock[],
  blockId: string,
  ctx: { mode: ExportMode; imageHref: (imageId: string) => string | undefined },
): string | undefined {
  const counts = new Map<string, number>();
  let reached = false;
  for (const block of blocks) {
    reached ||= block.blockId === blockId;
    const elements = renderedElements(block, ctx);
    if (reached && elements.length > 0) return `${elements[0]}[${(counts.get(elements[0]!) ?? 0) + 1}]`;
    for (const element of elements) counts.set(element, (counts.get(element) ?? 0) + 1);
  }
  return undefined;
}

export const xpointer = (fragment: number, path: string | undefined): string =>
  `/body/DocFragment[${fragment}]/body${path ? `/${path}` : ''}`;
