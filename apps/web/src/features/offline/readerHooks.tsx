import { useEffect, useRef } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { resolveConflict, useConflicts } from './sync.ts';

let lastLink: { search: string; target: { page: number; blockId: string } | undefined } | undefined;

/**
 * The paragraph a link names (`?page=12&block=c3-b4`, as Readwise and Obsidian notes link back), the
 * same object for the same address so that the reader jumps once per arrival.
 */
export function paragraphLinkTarget(search: string): { page: number; blockId: string } | undefined {
  if (lastLink?.search === search) return lastLink.target;
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const blockId = params.get('block');
  const target = Number.isInteger(page) && page > 0 && blockId ? { page, blockId } : undefined;
  lastLink = { search, target };
  return target;
}

/**
 * After reading offline, the server may hold a further position (read on another device): the reader
 * is asked before being moved — go to the further page, or stay (and this page becomes the position).
 */
export function usePositionConflict(bookCode: string, goTo: (page: number, blockId?: string | null) => void): void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const conflict = useConflicts((s) => s.conflicts.find((c) => c.bookCode === bookCode));
  const asked = useRef<string | null>(null);
  const go = useRef(goTo);
  go.current = goTo;
  useEffect(() => {
    if (!conflict) return;
    const id = `${conflict.bookCode}:${conflict.serverPage}:${conflict.localPage}`;
    if (asked.current === id) return;
    asked.current = id;
    modal.confirm({
      title: t('offline.conflictTitle'),
      content: t('offline.conflictText', { further: conflict.serverPage, here: conflict.localPage }),
      okText: t('offline.conflictGo', { page: conflict.serverPage }),
      cancelText: t('offline.conflictStay', { page: conflict.localPage }),
      onOk: () => {
        go.current(conflict.serverPage, conflict.serverBlockId);
        void resolveConflict(conflict, false);
      },
      onCancel: () => void resolveConflict(conflict, true),
    });
  }, [conflict, modal, t]);
}
