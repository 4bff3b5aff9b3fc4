import type { TFunction } from 'i18next';
import type { ContentsEntry, GeneratedTitle } from '@yidu/shared/contents';

/** A title as the reader sees it: the book's own, or the one Yidu made, in the interface's language. */
export function titleOf(t: TFunction, item: { title: string; generated?: GeneratedTitle | null }): string {
  const generated = item.generated;
  if (generated) {
    switch (generated.kind) {
      case 'part':
        return t('contents.generated.part', { n: generated.n });
      case 'pages':
        return t('contents.generated.pages', { from: generated.from, to: generated.to });
      case 'cover':
        return t('contents.generated.cover');
      case 'notes':
        return t('contents.generated.notes');
    }
  }
  return item.title || t('contents.untitled');
}

/** The contents as a tree over the flat list (an entry before its children, each at its level). */
export interface ContentsTree {
  /** The parent entry's index, -1 at the top. */
  parent: Int32Array;
  /** The index after an entry's last descendant: where the next entry not under it starts. */
  end: Int32Array;
  /** Depth from 1, an entry never more than one below the one before. */
  depth: Int32Array;
  /** Position among its siblings (from 1) and how many siblings it has, for assistive technology. */
  position: Int32Array;
  siblings: Int32Array;
}

export function contentsTree(entries: readonly ContentsEntry[]): ContentsTree {
  const n = entries.length;
  const tree: ContentsTree = {
    parent: new Int32Array(n).fill(-1),
    end: new Int32Array(n),
    depth: new Int32Array(n),
    position: new Int32Array(n),
    siblings: new Int32Array(n),
  };
  const stack: number[] = [];
  const children = new Map<number, number[]>([[-1, []]]);
  for (let i = 0; i < n; i++) {
    const depth = Math.max(1, Math.min(entries[i]!.level, stack.length + 1));
    while (stack.length >= depth) tree.end[stack.pop()!] = i;
    const parent = stack.at(-1) ?? -1;
    tree.parent[i] = parent;
    tree.depth[i] = depth;
    const list = children.get(parent)!;
    list.push(i);
    tree.position[i] = list.length;
    children.set(i, []);
    stack.push(i);
  }
  for (const open of stack) tree.end[open] = n;
  for (const list of children.values()) for (const i of list) tree.siblings[i] = list.length;
  return tree;
}

/**
 * The entry of the place being read: the last one (in reading order) that starts at or before the
 * top of what is on screen. Entries on earlier pages count by their page; entries on this page by
 * their block, those whose block is not below `isAbove` (the top part of the screen).
 */
export function currentEntry(
  entries: readonly ContentsEntry[],
  page: number | null,
  pageBlocks: readonly string[],
  isAbove: (blockId: string) => boolean,
): number {
  if (page === null) return -1;
  const order = new Map(pageBlocks.map((id, i) => [id, i]));
  let best = -1;
  let bestKey = -Infinity;
  let firstHere = -1;
  entries.forEach((entry, i) => {
    let key: number;
    if (entry.page < page) key = entry.page * 1e6;
    else if (entry.page === page) {
      if (firstHere === -1) firstHere = i;
      if (!isAbove(entry.blockId)) return;
      key = page * 1e6 + 1 + (order.get(entry.blockId) ?? 0);
    } else return;
    if (key >= bestKey) {
      best = i;
      bestKey = key;
    }
  });
  return best === -1 ? firstHere : best;
}
