import { useEffect, useRef } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { resolveConflict, useConflicts } from './sync.ts';

/**
 * After reading offline, the server may hold a further position (read on another device): the reader
 * is asked before being moved — go to the further page, or stay (and this page becomes the position).
 */
export function PositionConflictPrompt({
  bookCode,
  goTo,
}: {
  bookCode: string;
  goTo: (page: number, blockId?: string | null) => void;
}): null {
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
  return null;
}
