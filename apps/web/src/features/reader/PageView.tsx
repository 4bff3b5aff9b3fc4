import { memo, useMemo, type MouseEvent, type ReactNode } from 'react';
import { FlagOutlined, ReloadOutlined, TranslationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PageBlock, PageData } from '@yidu/shared/reader';
import type { Mark } from '@yidu/shared/marks';
import type { AiAnnotation } from '@yidu/shared/ai';
import type { ReaderMode } from '../../stores/readerSettings.ts';
import { parseInline, renderInline, type Decoration } from './inlineMarkup.tsx';
import { SIDE_ATTR, TEXT_ATTR } from './selection.ts';

export interface PageViewProps {
  data: PageData;
  mode: ReaderMode;
  /** BCP 47-ish tags for lang attributes (hyphenation, CJK glyphs). */
  originalLang?: string;
  targetLang?: string;
  marks: Mark[];
  aiNotes: AiAnnotation[];
  /** Blocks whose original is shown in default mode. */
  expanded: ReadonlySet<string>;
  onToggleOriginal: (blockId: string) => void;
  onRetry: (blockId: string) => void;
  onMarkClick?: (mark: Mark, event: MouseEvent<HTMLElement>) => void;
  onNoteClick?: (note: AiAnnotation, event: MouseEvent<HTMLElement>) => void;
  onLink?: (targetId: string, marker: HTMLElement) => void;
  /** A note's way back to the places that refer to it (its markers). */
  onBackLink?: (noteId: string, button: HTMLElement) => void;
  /** An image failed to load (its signed URL may have expired). */
  onImageError?: (url: string) => void;
  /** "This translation is wrong": offered on each translated paragraph when given. */
  onReportWrong?: (blockId: string) => void;
  flashId?: string | null;
}

export const blockDomId = (blockId: string) => `yd-b-${blockId}`;

/**
 * What each mode shows of a translated paragraph (SPEC §3.10): simple = translation; default =
 * translation, original on demand; advanced = both. Until its translation is there (still coming, or
 * failed for now), a paragraph shows its original in every mode: the page is readable at once.
 */
export function sidesOf(mode: ReaderMode, translated: boolean, expanded: boolean) {
  if (!translated) return { original: true, translation: false };
  return { original: mode === 'advanced' || (mode === 'default' && expanded), translation: true };
}

const TEXTLESS = new Set(['image', 'separator']);

/** Renders the blocks of one page. */
export function PageView(props: PageViewProps) {
  const { data, marks, aiNotes } = props;
  const marksByBlock = useMemo(() => groupBy(marks, (m) => m.blockId), [marks]);
  const notesByBlock = useMemo(() => groupBy(aiNotes, (n) => n.blockId), [aiNotes]);
  return (
    <div className={`yd-page yd-mode-${props.mode}`}>
      {data.blocks.map((block) => (
        <Block
          key={block.id}
          block={block}
          translated={data.translated}
          mode={props.mode}
          expanded={props.expanded.has(block.id)}
          marks={marksByBlock.get(block.id)}
          notes={notesByBlock.get(block.id)}
          flash={props.flashId === block.id}
          originalLang={props.originalLang}
          targetLang={props.targetLang}
          onToggleOriginal={props.onToggleOriginal}
          onRetry={props.onRetry}
          onMarkClick={props.onMarkClick}
          onNoteClick={props.onNoteClick}
          onLink={props.onLink}
          onBackLink={props.onBackLink}
          onImageError={props.onImageError}
          onReportWrong={props.onReportWrong}
        />
      ))}
    </div>
  );
}

function groupBy<T>(list: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of list) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}

interface BlockProps {
  block: PageBlock;
  translated: boolean;
  mode: ReaderMode;
  expanded: boolean;
  marks?: Mark[];
  notes?: AiAnnotation[];
  flash: boolean;
  originalLang?: string;
  targetLang?: string;
  onToggleOriginal: (blockId: string) => void;
  onRetry: (blockId: string) => void;
  onMarkClick?: PageViewProps['onMarkClick'];
  onNoteClick?: PageViewProps['onNoteClick'];
  onLink?: (targetId: string, marker: HTMLElement) => void;
  onBackLink?: (noteId: string, button: HTMLElement) => void;
  onImageError?: (url: string) => void;
  onReportWrong?: (blockId: string) => void;
}

function markDecorations(marks: Mark[] | undefined, inTranslation: boolean, onClick?: BlockProps['onMarkClick']) {
  const out: Decoration[] = [];
  for (const mark of marks ?? []) {
    if (mark.kind === 'bookmark' || mark.inTranslation !== inTranslation) continue;
    if (mark.start === null || mark.end === null) continue;
    // The server keeps no colour for underlines: they get the default ink.
    const color = mark.color || (mark.kind === 'highlight' ? 'yellow' : null);
    const className =
      mark.kind === 'highlight'
        ? `yd-hl yd-c-${color}`
        : mark.kind === 'underline'
          ? `yd-ul${color ? ` yd-c-${color}` : ''}`
          : 'yd-anno';
    out.push({
      start: mark.start,
      end: mark.end,
      className,
      id: String(mark.id),
      title: mark.kind === 'annotation' ? (mark.content ?? undefined) : undefined,
      onClick: onClick ? (event) => onClick(mark, event) : undefined,
    });
  }
  return out;
}

const Block = memo(function Block(props: BlockProps) {
  const { t } = useTranslation();
  const { block, translated, mode } = props;
  const textless = TEXTLESS.has(block.type);
  // Its translation is not there yet (pending, or failed for now): the original stands in for it.
  const awaited = translated && block.type !== 'code' && !textless && block.status !== 'done';
  const sides = awaited
    ? { original: true, translation: false }
    : sidesOf(mode, translated && block.type !== 'code', props.expanded);

  const originalNodes = useMemo(() => parseInline(block.html, block.text), [block.html, block.text]);
  const translationNodes = useMemo(() => parseInline(block.translation), [block.translation]);

  const originalDecorations = useMemo(() => {
    const list = markDecorations(props.marks, false, props.onMarkClick);
    for (const note of props.notes ?? []) {
      if (note.start < 0 || note.end <= note.start) continue;
      list.push({
        start: note.start,
        end: note.end,
        className: 'yd-ainote',
        title: note.note,
        onClick: props.onNoteClick ? (event) => props.onNoteClick!(note, event) : undefined,
      });
    }
    return list;
  }, [props.marks, props.notes, props.onMarkClick, props.onNoteClick]);
  const translationDecorations = useMemo(
    () => markDecorations(props.marks, true, props.onMarkClick),
    [props.marks, props.onMarkClick],
  );

  // Lines of verse (and of any paragraph broken into lines) are shown as lines, in both languages.
  const lines = block.text.includes('\n') || !!block.translation?.includes('\n');
  const className = `yd-block yd-block-${block.type}${props.flash ? ' is-flash' : ''}${
    sides.original && sides.translation ? ' is-both' : ''
  }${awaited ? (block.status === 'failed' ? ' is-untranslated' : ' is-translating') : ''}${lines ? ' has-lines' : ''}`;

  if (block.type === 'separator') return <hr id={blockDomId(block.id)} className={className} />;
  if (block.type === 'image') {
    // Its text is the picture's text alternative (alt, an SVG's title): said, not printed under it.
    return (
      <figure id={blockDomId(block.id)} className={className}>
        {!block.imageUrl && block.imagePending && (
          <div className="yd-image-pending" role="status" aria-busy="true">
            {t('reader.imagePending')}
          </div>
        )}
        {block.imageUrl && (
          <img
            src={block.imageUrl}
            alt={block.text}
            title={block.text || undefined}
            loading="lazy"
            onError={() => props.onImageError?.(block.imageUrl!)}
          />
        )}
      </figure>
    );
  }

  const Tag = tagOf(block);
  const original = (
    <Tag className="yd-original" lang={props.originalLang} {...{ [TEXT_ATTR]: block.id, [SIDE_ATTR]: 'text' }}>
      {block.type === 'footnote' && block.noteLabel && <span className="yd-note-label">{block.noteLabel}</span>}
      {renderInline(originalNodes, { decorations: originalDecorations, onLink: props.onLink })}
    </Tag>
  );

  let translation: ReactNode = null;
  if (sides.translation && !textless) {
    if (block.status === 'done' && block.translation !== null) {
      translation = (
        <Tag
          className="yd-translation"
          lang={props.targetLang}
          {...{ [TEXT_ATTR]: block.id, [SIDE_ATTR]: 'translation' }}
          onClick={
            mode === 'default'
              ? () => {
                  if (window.getSelection()?.isCollapsed !== false) props.onToggleOriginal(block.id);
                }
              : undefined
          }
        >
          {block.type === 'footnote' && block.noteLabel && <span className="yd-note-label">{block.noteLabel}</span>}
          {renderInline(translationNodes, { decorations: translationDecorations, onLink: props.onLink })}
        </Tag>
      );
    }
  }

  // A quiet mark in the margin: a thin line that breathes while the translation comes; after a
  // failure, a small button that tries this paragraph again now (the server also does by itself).
  const awaitedMark = !awaited ? null : block.status === 'failed' ? (
    <button
      type="button"
      className="yd-untranslated-mark"
      title={t('reader.block.untranslated')}
      aria-label={t('reader.block.retryOne')}
      onClick={() => props.onRetry(block.id)}
    >
      <ReloadOutlined />
    </button>
  ) : (
    <span className="yd-translating-mark" role="status" aria-label={t('reader.block.pending')} />
  );

  return (
    <div
      id={blockDomId(block.id)}
      className={className}
      data-block={block.id}
      data-status={block.status}
      aria-busy={awaited && block.status === 'pending' ? true : undefined}
    >
      {sides.original && original}
      {translation}
      {block.type === 'footnote' && !!block.referencedBy?.length && props.onBackLink && (
        <button
          type="button"
          className="yd-note-back"
          aria-label={t('notes.backToText')}
          title={t('notes.backToText')}
          onClick={(event) => props.onBackLink!(block.id, event.currentTarget)}
        >
          ↩
        </button>
      )}
      {awaitedMark}
      {mode === 'default' && translated && block.type !== 'code' && !awaited && (
        <button
          type="button"
          className={`yd-original-toggle${props.expanded ? ' is-on' : ''}`}
          aria-pressed={props.expanded}
          aria-label={props.expanded ? t('reader.block.hideOriginal') : t('reader.block.showOriginal')}
          title={props.expanded ? t('reader.block.hideOriginal') : t('reader.block.showOriginal')}
          onClick={() => props.onToggleOriginal(block.id)}
        >
          <TranslationOutlined />
        </button>
      )}
      {props.onReportWrong && translated && block.status === 'done' && block.translation !== null && !textless && (
        <button
          type="button"
          className={`yd-wrong-toggle${mode === 'default' ? '' : ' is-alone'}`}
          aria-label={t('glossary.wrong.mark')}
          title={t('glossary.wrong.mark')}
          onClick={() => props.onReportWrong!(block.id)}
        >
          <FlagOutlined />
        </button>
      )}
    </div>
  );
});

function tagOf(block: PageBlock): 'h2' | 'h3' | 'h4' | 'p' | 'blockquote' | 'pre' | 'aside' {
  switch (block.type) {
    case 'heading': {
      const level = block.level ?? 2;
      return level <= 1 ? 'h2' : level === 2 ? 'h3' : 'h4';
    }
    case 'quote':
      return 'blockquote';
    case 'code':
    case 'table':
      return 'pre';
    case 'footnote':
      return 'aside';
    default:
      return 'p';
  }
}
