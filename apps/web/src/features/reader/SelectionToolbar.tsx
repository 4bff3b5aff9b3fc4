import { useLayoutEffect, useRef, type MouseEvent } from 'react';
import { Button, Dropdown, Tooltip } from 'antd';
import {
  BulbOutlined,
  CopyOutlined,
  EditOutlined,
  ExperimentOutlined,
  FileSearchOutlined,
  FlagOutlined,
  ReadOutlined,
  UnderlineOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RestateLevel } from '../../api/reader.ts';
import { RESTATE_LEVELS, type AiKind } from './AiCard.tsx';
import type { SelectionAnchor } from './selection.ts';
import { placeToolbar } from './toolbarPlacement.ts';
import { selectionBox } from './useTextSelection.ts';

export const HIGHLIGHT_COLORS = ['yellow', 'green', 'blue', 'pink', 'purple'] as const;
export type HighlightColor = (typeof HIGHLIGHT_COLORS)[number];

export interface SelectionToolbarProps {
  /** The selection it serves: a new one places the toolbar again. */
  anchor: SelectionAnchor;
  features: ReadonlySet<string>;
  onCopy: () => void;
  onHighlight: (color: HighlightColor) => void;
  onUnderline: () => void;
  onAnnotate: () => void;
  onAi: (kind: AiKind, level?: RestateLevel) => void;
  /** Look the selected word up (offered for selections in the original text). */
  onLookup?: () => void;
  /** "This translation is wrong" (offered for selections in a translation; the phone's way to it). */
  onReportWrong?: () => void;
}

/**
 * Places the toolbar by its selection (toolbarPlacement.ts) inside the visible area, and again as the
 * page scrolls, the window or the visual viewport change (on-screen keyboard, pinch zoom).
 */
function useFollowSelection(anchor: SelectionAnchor) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const viewport = window.visualViewport;
    let frame = 0;
    const place = () => {
      frame = 0;
      const view = viewport
        ? { left: viewport.offsetLeft, top: viewport.offsetTop, width: viewport.width, height: viewport.height }
        : { left: 0, top: 0, width: window.innerWidth, height: window.innerHeight };
      element.style.maxWidth = `${Math.max(0, view.width - 16)}px`;
      const box = selectionBox();
      if (!box) return;
      const bar = document.querySelector('.yd-reader-bar')?.getBoundingClientRect();
      // Touch screens hang their selection handles under the text: keep clear of them.
      const touch = window.matchMedia?.('(pointer: coarse)').matches ?? false;
      const placed = placeToolbar(box, { width: element.offsetWidth, height: element.offsetHeight }, view, {
        above: 8,
        below: touch ? 30 : 8,
        top: bar ? bar.bottom - view.top + 4 : 8,
      });
      element.style.left = `${Math.round(placed.left)}px`;
      element.style.top = `${Math.round(placed.top)}px`;
      element.dataset.side = placed.side;
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(place);
    };
    place();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    viewport?.addEventListener('resize', schedule);
    viewport?.addEventListener('scroll', schedule);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      viewport?.removeEventListener('resize', schedule);
      viewport?.removeEventListener('scroll', schedule);
    };
  }, [anchor]);
  return ref;
}

/** The toolbar over a text selection: copy, highlight, underline, annotate and the AI aids the book has. */
export function SelectionToolbar({ anchor, features, ...on }: SelectionToolbarProps) {
  const { t } = useTranslation();
  const ref = useFollowSelection(anchor);
  const keep = (event: MouseEvent) => event.preventDefault(); // keep the selection while clicking
  return (
    <div
      ref={ref}
      className="yd-sel-toolbar"
      role="toolbar"
      aria-label={t('reader.selection.toolbar')}
      onMouseDown={keep}
    >
      <Tooltip title={t('reader.selection.copy')}>
        <Button
          type="text"
          size="small"
          icon={<CopyOutlined />}
          onClick={on.onCopy}
          aria-label={t('reader.selection.copy')}
        />
      </Tooltip>
      <span className="yd-sel-colors" role="group" aria-label={t('reader.selection.highlight')}>
        {HIGHLIGHT_COLORS.map((color) => (
          <button
            key={color}
            type="button"
            className={`yd-swatch yd-c-${color}`}
            aria-label={t('reader.selection.highlightIn', { color: t(`reader.colors.${color}`) })}
            title={t('reader.selection.highlightIn', { color: t(`reader.colors.${color}`) })}
            onClick={() => on.onHighlight(color)}
          />
        ))}
      </span>
      <Tooltip title={t('reader.selection.underline')}>
        <Button
          type="text"
          size="small"
          icon={<UnderlineOutlined />}
          onClick={on.onUnderline}
          aria-label={t('reader.selection.underline')}
        />
      </Tooltip>
      <Tooltip title={t('reader.selection.annotate')}>
        <Button
          type="text"
          size="small"
          icon={<EditOutlined />}
          onClick={on.onAnnotate}
          aria-label={t('reader.selection.annotate')}
        />
      </Tooltip>
      {on.onLookup && (
        <Button
          type="text"
          size="small"
          icon={<FileSearchOutlined />}
          onClick={on.onLookup}
          aria-label={t('reader.lookup.action')}
        >
          <span className="yd-sel-label">{t('reader.lookup.action')}</span>
        </Button>
      )}
      {on.onReportWrong && (
        <Tooltip title={t('glossary.wrong.mark')}>
          <Button
            type="text"
            size="small"
            icon={<FlagOutlined />}
            onClick={on.onReportWrong}
            aria-label={t('glossary.wrong.mark')}
          />
        </Tooltip>
      )}
      {features.has('explanation') && (
        <Button
          type="text"
          size="small"
          icon={<BulbOutlined />}
          onClick={() => on.onAi('explain')}
          aria-label={t('reader.ai.explain')}
        >
          <span className="yd-sel-label">{t('reader.ai.explain')}</span>
        </Button>
      )}
      {features.has('advancedExplanation') && (
        <Button
          type="text"
          size="small"
          icon={<ExperimentOutlined />}
          onClick={() => on.onAi('advanced')}
          aria-label={t('reader.ai.advanced')}
        >
          <span className="yd-sel-label">{t('reader.ai.advanced')}</span>
        </Button>
      )}
      {features.has('restatement') && (
        <Dropdown
          trigger={['click']}
          menu={{
            items: RESTATE_LEVELS.map((level) => ({ key: level, label: t(`reader.ai.level.${level}`) })),
            onClick: ({ key }) => on.onAi('restate', key as RestateLevel),
          }}
        >
          <Button
            type="text"
            size="small"
            icon={<ReadOutlined />}
            onMouseDown={keep}
            aria-label={t('reader.ai.restate')}
          >
            <span className="yd-sel-label">{t('reader.ai.restate')}</span>
          </Button>
        </Dropdown>
      )}
    </div>
  );
}
