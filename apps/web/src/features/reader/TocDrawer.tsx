import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Drawer } from 'antd';
import { CaretRightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ContentsEntry } from '@yidu/shared/contents';
import { blockDomId } from './PageView.tsx';
import { contentsTree, currentEntry, titleOf } from './contents.ts';

interface TocDrawerProps {
  contents: readonly ContentsEntry[];
  /** The page on screen and its blocks in order: where the reader is. */
  page: number | null;
  pageBlocks: readonly string[];
  open: boolean;
  onClose: () => void;
  /** Opens the page of an entry at its block. */
  onGo: (page: number, blockId: string) => void;
}

/** A block counts as reached once its top is in the upper half of the screen (a jump centres its block). */
function blockIsAbove(blockId: string): boolean {
  const element = document.getElementById(blockDomId(blockId));
  if (!element) return true;
  return element.getBoundingClientRect().top <= window.innerHeight / 2;
}

/**
 * The contents as a tree, from the left: every entry at its depth with its page, levels that open and
 * close, the entry of the place being read marked and its ancestors opened. A WAI-ARIA tree: one
 * entry in the tab order, arrows to move, open and close, Home and End, Enter to go. Only the rows of
 * open levels are drawn, so a book of thousands of entries opens at once.
 */
export function TocDrawer({ contents, page, pageBlocks, open, onClose, onGo }: TocDrawerProps) {
  const { t } = useTranslation();
  const tree = useMemo(() => contentsTree(contents), [contents]);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  const [focus, setFocus] = useState(0);
  const [current, setCurrent] = useState(-1);
  const listRef = useRef<HTMLDivElement>(null);

  // On opening: find where the reader is, open its ancestors, and bring it into view.
  useEffect(() => {
    if (!open) return;
    const here = currentEntry(contents, page, pageBlocks, blockIsAbove);
    setCurrent(here);
    if (here < 0) return;
    setFocus(here);
    setExpanded((old) => {
      const next = new Set(old);
      for (let p = tree.parent[here]!; p >= 0; p = tree.parent[p]!) next.add(p);
      return next;
    });
    const frame = requestAnimationFrame(() =>
      listRef.current?.querySelector(`[data-entry="${here}"]`)?.scrollIntoView?.({ block: 'center' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [open, contents, page, pageBlocks, tree]);

  // The rows to draw: every entry whose ancestors are all open.
  const rows = useMemo(() => {
    const out: number[] = [];
    for (let i = 0; i < contents.length;) {
      out.push(i);
      i = expanded.has(i) ? i + 1 : tree.end[i]!;
    }
    return out;
  }, [contents.length, expanded, tree]);

  // The one entry in the tab order: the focused one, or its nearest ancestor drawn when it is hidden.
  const drawn = new Set(rows);
  let tabStop = focus < contents.length ? focus : 0;
  while (tabStop >= 0 && !drawn.has(tabStop)) tabStop = tree.parent[tabStop]!;
  const hasChildren = (i: number) => tree.end[i]! > i + 1;
  const toggle = (i: number, to = !expanded.has(i)) =>
    setExpanded((old) => {
      const next = new Set(old);
      if (to) next.add(i);
      else next.delete(i);
      return next;
    });
  const moveFocus = (i: number) => {
    setFocus(i);
    listRef.current?.querySelector<HTMLElement>(`[data-entry="${i}"]`)?.focus();
  };
  const go = (i: number) => {
    onClose();
    onGo(contents[i]!.page, contents[i]!.blockId);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = rows.indexOf(tabStop);
    if (at < 0) return;
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        if (at < rows.length - 1) moveFocus(rows[at + 1]!);
        break;
      case 'ArrowUp':
        if (at > 0) moveFocus(rows[at - 1]!);
        break;
      case 'Home':
        moveFocus(rows[0]!);
        break;
      case 'End':
        moveFocus(rows[rows.length - 1]!);
        break;
      case 'ArrowRight':
        if (hasChildren(tabStop) && !expanded.has(tabStop)) toggle(tabStop, true);
        else if (hasChildren(tabStop)) moveFocus(tabStop + 1);
        break;
      case 'ArrowLeft':
        if (hasChildren(tabStop) && expanded.has(tabStop)) toggle(tabStop, false);
        else if (tree.parent[tabStop]! >= 0) moveFocus(tree.parent[tabStop]!);
        break;
      case 'Enter':
      case ' ':
        go(tabStop);
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  };

  return (
    <Drawer
      title={t('reader.toc.title')}
      placement="left"
      open={open}
      onClose={onClose}
      className="yd-reader-drawer"
      // Antd's 378 px, but on a phone a strip of the page stays in view to tap the drawer shut.
      styles={{ wrapper: { width: 'min(378px, 88vw)' } }}
    >
      {contents.length === 0 ? (
        <p className="yd-muted">{t('reader.toc.empty')}</p>
      ) : (
        <div className="yd-toc" role="tree" aria-label={t('reader.toc.title')} ref={listRef} onKeyDown={onKeyDown}>
          {rows.map((i) => {
            const entry = contents[i]!;
            const parent = hasChildren(i);
            const isOpen = expanded.has(i);
            const title = titleOf(t, entry);
            return (
              <div
                key={i}
                role="treeitem"
                data-entry={i}
                aria-label={t('contents.entry', { title, page: entry.page })}
                aria-level={tree.depth[i]}
                aria-setsize={tree.siblings[i]}
                aria-posinset={tree.position[i]}
                aria-expanded={parent ? isOpen : undefined}
                aria-current={i === current ? 'location' : undefined}
                aria-selected={i === current}
                tabIndex={i === tabStop ? 0 : -1}
                className={`yd-toc-row${i === current ? ' is-current' : ''}`}
                style={{ paddingInlineStart: (tree.depth[i]! - 1) * 16 }}
                onClick={() => go(i)}
                onFocus={() => setFocus(i)}
              >
                {/* For the mouse; the keyboard opens and closes with the arrows. */}
                <span
                  className={`yd-toc-toggle${isOpen ? ' is-open' : ''}`}
                  aria-hidden
                  onClick={(event) => {
                    if (!parent) return;
                    event.stopPropagation();
                    toggle(i);
                  }}
                >
                  {parent && <CaretRightOutlined />}
                </span>
                <span className="yd-toc-title">{title}</span>
                <small>{entry.page}</small>
              </div>
            );
          })}
        </div>
      )}
    </Drawer>
  );
}
