import type { MouseEvent } from 'react';
import { Button, Dropdown, Tooltip } from 'antd';
import {
  BulbOutlined,
  CopyOutlined,
  EditOutlined,
  ExperimentOutlined,
  FileSearchOutlined,
  ReadOutlined,
  UnderlineOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RestateLevel } from '../../api/reader.ts';
import { RESTATE_LEVELS, type AiKind } from './AiCard.tsx';

export const HIGHLIGHT_COLORS = ['yellow', 'green', 'blue', 'pink', 'purple'] as const;
export type HighlightColor = (typeof HIGHLIGHT_COLORS)[number];

export interface SelectionToolbarProps {
  /** Viewport position of the selection (top centre), or null for the docked (phone) toolbar. */
  at: { x: number; y: number } | null;
  features: ReadonlySet<string>;
  onCopy: () => void;
  onHighlight: (color: HighlightColor) => void;
  onUnderline: () => void;
  onAnnotate: () => void;
  onAi: (kind: AiKind, level?: RestateLevel) => void;
  /** Look the selected word up (offered for selections in the original text). */
  onLookup?: () => void;
}

/** The toolbar over a text selection: copy, highlight, underline, annotate and the AI aids the book has. */
export function SelectionToolbar({ at, features, ...on }: SelectionToolbarProps) {
  const { t } = useTranslation();
  const style = at ? { left: at.x, top: at.y } : undefined;
  const keep = (event: MouseEvent) => event.preventDefault(); // keep the selection while clicking
  return (
    <div
      className={`yd-sel-toolbar${at ? '' : ' is-docked'}`}
      style={style}
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
