/** Choosing which table-of-contents entries become chapters (EPUB nav/NCX and PDF outlines). */

export interface TocNode {
  title: string;
  children: TocNode[];
}

const CHAPTER_LIKE = /^(chapter|canto|book|part|letter|act|chap\.)\b|^\d{1,3}\s*[:.]\s|^第.{1,8}[章回卷部篇]/i;
/** A title that is a number alone ("IV", "12."): how many novels name their chapters. */
const NUMBER_TITLE = /^(?:[IVXLC]{1,7}|\d{1,3})\.?(?:\s|$)/;

const chapterLike = (title: string) => {
  const t = title.trim().replace(/^["“]/, '');
  return CHAPTER_LIKE.test(t) || NUMBER_TITLE.test(t);
};

/**
 * Chapters are the top-level entries, except that wrappers are opened: a few roots ("Book", "Part I")
 * holding everything, parts whose children are themselves chapters ("PIRACY" → "Chapter 1: …"), or
 * parts whose children each begin a document of their own (`ownsDocument`, EPUB).
 */
export function pickChapterNodes<T extends TocNode>(
  toc: T[],
  ownsDocument?: (node: T) => boolean,
): { node: T; level: number }[] {
  let level: { node: T; level: number }[] = toc.map((node) => ({ node, level: 1 }));
  const expanded = new Set<TocNode>();
  const expand = (target: { node: T; level: number }) => {
    level = level.flatMap((e) =>
      e === target
        ? [{ node: e.node, level: e.level }, ...(e.node.children as T[]).map((c) => ({ node: c, level: e.level + 1 }))]
        : [e],
    );
  };
  for (let guard = 0; guard < 1000; guard++) {
    const chapterParts = level.filter(
      (e) =>
        !expanded.has(e.node) &&
        e.node.children.length >= 2 &&
        (e.node.children.filter((c) => chapterLike(c.title)).length >= e.node.children.length * 0.5 ||
          (ownsDocument !== undefined &&
            (e.node.children as T[]).filter(ownsDocument).length >= e.node.children.length * 0.5)),
    );
    const target =
      chapterParts[0] ??
      (level.length < 8
        ? level
            .filter((e) => !expanded.has(e.node) && e.node.children.length >= 3)
            .sort((a, b) => b.node.children.length - a.node.children.length)[0]
        : undefined);
    if (!target) break;
    expanded.add(target.node);
    expand(target);
  }
  return level;
}
