/**
 * An EPUB's table of contents: the EPUB 3 navigation document or the EPUB 2 NCX, read into a tree of
 * entries (title, target path and fragment, level) at every depth, and the entries that become chapters.
 */
import { byLocalName, findAll, findFirst, localName, textContent } from '../markup.ts';
import type { MarkupElement } from '../markup.ts';
import { pickChapterNodes } from '../toc.ts';
import { resolveZipPath } from '../zip.ts';

export interface TocEntry {
  title: string;
  /** Where it leads; a wrapper with no link of its own ("Part I" as a label) borrows its first child's. */
  path: string;
  fragment?: string;
  level: number;
  children: TocEntry[];
}

/** The epub:type and ARIA role of an element, lower-cased: what it says it is (note, toc...). */
export function epubType(e: MarkupElement): string {
  return `${e.attrs['epub:type'] ?? ''} ${e.attrs.role ?? ''}`.toLowerCase();
}

/** A link or source outside the book (a URL with a scheme, or protocol-relative). */
export function isRemote(src: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('//');
}

export function readNav(root: MarkupElement, navPath: string): TocEntry[] {
  const navs = findAll(root, byLocalName('nav'));
  const nav = navs.find((n) => /\btoc\b/.test(epubType(n))) ?? navs[0];
  if (!nav) return [];
  const list = findFirst(nav, (e) => localName(e.name) === 'ol' || localName(e.name) === 'ul');
  if (!list) return [];
  const readList = (ol: MarkupElement, level: number): TocEntry[] => {
    const out: TocEntry[] = [];
    for (const li of ol.children) {
      if (li.kind !== 'element' || localName(li.name) !== 'li') continue;
      const link = findFirst(li, (e) => localName(e.name) === 'a' && !!e.attrs.href);
      const label = li.children.find(
        (c): c is MarkupElement => c.kind === 'element' && (localName(c.name) === 'a' || localName(c.name) === 'span'),
      );
      const sub = li.children.find(
        (c): c is MarkupElement => c.kind === 'element' && (localName(c.name) === 'ol' || localName(c.name) === 'ul'),
      );
      const children = sub ? readList(sub, level + 1) : [];
      const href = link?.attrs.href;
      if (href && !isRemote(href)) {
        const hash = href.indexOf('#');
        const entry: TocEntry = {
          title: textContent(label ?? link!),
          path: resolveZipPath(navPath, href),
          level,
          children,
        };
        if (hash !== -1) entry.fragment = href.slice(hash + 1);
        out.push(entry);
      } else if (children.length) {
        out.push({
          title: textContent(label ?? li),
          path: children[0]!.path,
          level,
          children,
          fragment: children[0]!.fragment,
        });
      }
    }
    return out;
  };
  return readList(list, 1);
}

export function readNcx(root: MarkupElement, ncxPath: string): TocEntry[] {
  const navMap = findFirst(root, byLocalName('navmap'));
  if (!navMap) return [];
  const readPoints = (parent: MarkupElement, level: number): TocEntry[] => {
    const out: TocEntry[] = [];
    for (const point of parent.children) {
      if (point.kind !== 'element' || localName(point.name) !== 'navpoint') continue;
      const label = point.children.find(
        (c): c is MarkupElement => c.kind === 'element' && localName(c.name) === 'navlabel',
      );
      const content = point.children.find(
        (c): c is MarkupElement => c.kind === 'element' && localName(c.name) === 'content',
      );
      const src = content?.attrs.src;
      const children = readPoints(point, level + 1);
      const title = label ? textContent(label) : '';
      if (!src || isRemote(src)) {
        // A navPoint without a target of its own still stands for its children (a part's label).
        if (children.length)
          out.push({ title, path: children[0]!.path, fragment: children[0]!.fragment, level, children });
        continue;
      }
      const hash = src.indexOf('#');
      const entry: TocEntry = { title, path: resolveZipPath(ncxPath, src), level, children };
      if (hash !== -1) entry.fragment = src.slice(hash + 1);
      out.push(entry);
    }
    return out;
  };
  return readPoints(navMap, 1);
}

/** Every entry of the tree, in the book's order (an entry before its children). */
export function flattenToc(toc: TocEntry[]): TocEntry[] {
  const out: TocEntry[] = [];
  const walk = (entries: TocEntry[]) => {
    for (const entry of entries) {
      out.push(entry);
      walk(entry.children);
    }
  };
  walk(toc);
  return out;
}

/**
 * Chapters are the TOC entries picked by pickChapterNodes, limited to those that point into the spine
 * (each place once), with the depth they have among the chapters. A part whose children each open a
 * content document of their own is opened: each child starts a file, and so a chapter.
 */
export function pickChapterEntries(toc: TocEntry[], spinePaths: Set<string>): Map<TocEntry, number> {
  const ownsFile = new Set<TocEntry>();
  const markFiles = (parent: TocEntry | undefined, children: TocEntry[]) => {
    const count = new Map<string, number>();
    for (const child of children) count.set(child.path, (count.get(child.path) ?? 0) + 1);
    for (const child of children) {
      if (count.get(child.path) === 1 && child.path !== parent?.path) ownsFile.add(child);
      markFiles(child, child.children);
    }
  };
  markFiles(undefined, toc);
  const seen = new Set<string>();
  const chapters = new Map<TocEntry, number>();
  for (const { node, level } of pickChapterNodes(toc, (e) => ownsFile.has(e))) {
    if (!spinePaths.has(node.path)) continue;
    const key = `${node.path}#${node.fragment ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    chapters.set(node, level);
  }
  return chapters;
}
