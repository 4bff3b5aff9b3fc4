import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Spin } from 'antd';
import { CloseOutlined, RollbackOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { BlockLocation } from '@yidu/shared/reader';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { readerApi } from '../../api/reader.ts';
import { parseInline, renderInline } from './inlineMarkup.tsx';
import { isConfirmationRequired, isConfirmedForSession } from './paid.tsx';
import { confirmPage, usePage } from './usePage.ts';
import './bookStructure.css';

/** Where the reader was when they went to a note: the marker's page and paragraph. */
interface Place {
  page: number;
  blockId: string;
}

interface Opened {
  noteId: string;
  /** The marker it was opened from (focus goes back to it), and the place around it. */
  marker: HTMLElement | null;
  from: Place | null;
}

interface NotesOptions {
  bookCode: string;
  language: string;
  originalLang?: string;
  targetLang?: string;
  /** The page on screen. */
  page: number | null;
  /** A phone-width screen: the note opens as a sheet at the bottom. */
  narrow: boolean;
  goTo: (page: number, blockId: string) => void;
}

const blockQueryKey = (bookCode: string, language: string, blockId: string) =>
  ['readerBlock', bookCode, language, blockId] as const;

/**
 * Notes wherever they are: a marker opens its note in a popover (the original at once, free; the
 * translation with the note's page, paid as any page), from which the reader goes to the note and,
 * with the "back to the text" button that then appears, back to the marker. A note shown on its page
 * leads back to its marker too (onBackLink).
 */
export function useNotes(options: NotesOptions) {
  const { bookCode, language, page, goTo } = options;
  const client = useQueryClient();
  const { message } = App.useApp();
  const [opened, setOpened] = useState<Opened | null>(null);
  const [returnTo, setReturnTo] = useState<Place | null>(null);

  const openNote = useCallback(
    (noteId: string, marker: HTMLElement) => {
      const blockId = marker.closest('[data-block]')?.getAttribute('data-block');
      setOpened({ noteId, marker, from: page !== null && blockId ? { page, blockId } : null });
    },
    [page],
  );

  // Focus goes back to the marker the note was opened from.
  const close = useCallback(() => {
    opened?.marker?.focus({ preventScroll: true });
    setOpened(null);
  }, [opened]);

  const goToNote = useCallback(
    (note: BlockLocation) => {
      setReturnTo(opened?.from ?? null);
      setOpened(null);
      goTo(note.page, note.id);
    },
    [opened, goTo],
  );

  /** From a note on its page, back to (the first of) the places that refer to it. */
  const backLink = useCallback(
    (noteId: string) =>
      void (async () => {
        try {
          const note = await client.fetchQuery({
            queryKey: blockQueryKey(bookCode, language, noteId),
            queryFn: ({ signal }) => readerApi.block({ bookCode, language, blockId: noteId }, signal),
            staleTime: 10 * 60_000,
          });
          const back = returnTo && note.referencedBy.some((r) => r.id === returnTo.blockId) ? returnTo : undefined;
          const first = note.referencedBy[0];
          const target = back ?? (first ? { page: first.page, blockId: first.id } : undefined);
          if (!target) return;
          setReturnTo(null);
          goTo(target.page, target.blockId);
        } catch (error) {
          void message.error(errorMessage(error));
        }
      })(),
    [client, bookCode, language, returnTo, goTo, message],
  );

  const layer = (
    <>
      {opened && (
        <NotePopover
          key={opened.noteId}
          options={options}
          noteId={opened.noteId}
          marker={opened.marker}
          onClose={close}
          onGoTo={goToNote}
          onOpenNote={(noteId) => setOpened({ ...opened, noteId })}
        />
      )}
      {returnTo && (
        <ReturnButton
          onBack={() => {
            setReturnTo(null);
            goTo(returnTo.page, returnTo.blockId);
          }}
          onDismiss={() => setReturnTo(null)}
        />
      )}
    </>
  );
  return { openNote, backLink, layer };
}

interface PopoverProps {
  options: NotesOptions;
  noteId: string;
  marker: HTMLElement | null;
  onClose: () => void;
  onGoTo: (note: BlockLocation) => void;
  onOpenNote: (noteId: string) => void;
}

/** Where the popover goes: under its marker (or above it when there is more room there), on screen. */
function placeBy(marker: HTMLElement | null, narrow: boolean): CSSProperties {
  if (narrow || !marker) return {};
  const rect = marker.getBoundingClientRect();
  const width = Math.min(380, window.innerWidth - 16);
  const left = Math.min(Math.max(8, rect.left + rect.width / 2 - width / 2), window.innerWidth - width - 8);
  const below = window.innerHeight - rect.bottom - 14;
  const above = rect.top - 14;
  return below >= 240 || below >= above
    ? { left, width, top: rect.bottom + 6, maxHeight: Math.max(160, below) }
    : { left, width, bottom: window.innerHeight - rect.top + 6, maxHeight: Math.max(160, above) };
}

function NotePopover({ options, noteId, marker, onClose, onGoTo, onOpenNote }: PopoverProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { bookCode, language, narrow } = options;
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<CSSProperties>(() => placeBy(marker, narrow));

  const note = useQuery({
    queryKey: blockQueryKey(bookCode, language, noteId),
    queryFn: ({ signal }) => readerApi.block({ bookCode, language, blockId: noteId }, signal),
    staleTime: 10 * 60_000,
    retry: false,
  });
  // The translation comes with the note's page, through the page path: paid as any page (once), in
  // confirmation mode after the reader confirms its price.
  const pageKey = note.data?.translated ? { bookCode, language, page: note.data.page } : null;
  const notePage = usePage(pageKey, isConfirmedForSession(bookCode));
  const translatedBlock = notePage.data?.blocks.find((b) => b.id === noteId);

  // Keyboard first: focus comes into the note, Esc closes it; a tap or click outside closes it too.
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (ref.current?.contains(target) || marker?.contains(target)) return;
      onClose();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer, true);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer, true);
    };
  }, [marker, onClose]);
  // It follows its marker when the page scrolls or the window changes size.
  useLayoutEffect(() => {
    if (narrow) return;
    const follow = () => setPlace(placeBy(marker, narrow));
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    return () => {
      window.removeEventListener('scroll', follow, true);
      window.removeEventListener('resize', follow);
    };
  }, [marker, narrow]);

  const label = note.data?.noteLabel ?? marker?.textContent?.trim() ?? '';
  const data = note.data;
  const original = data && (
    <div className={`yd-note-popover-text${data.text.includes('\n') ? ' has-lines' : ''}`} lang={options.originalLang}>
      {renderInline(parseInline(data.html, data.text), { onLink: (target) => onOpenNote(target) })}
    </div>
  );

  let translation = null;
  if (data?.translated) {
    const error = notePage.error;
    if (isConfirmationRequired(error)) {
      const points = typeof error.data?.points === 'number' ? error.data.points : 0;
      translation = (
        <div className="yd-note-popover-price">
          <p>{t('notes.confirm', { page: data.page, points })}</p>
          <Button size="small" type="primary" onClick={() => void confirmPage(client, pageKey!)}>
            {t('notes.translate')}
          </Button>
        </div>
      );
    } else if (error instanceof ApiError && error.key === 'insufficientPoints') {
      translation = (
        <p className="yd-note-popover-muted">
          {t('notes.insufficient', {
            points: typeof error.data?.points === 'number' ? error.data.points : 0,
            balance: typeof error.data?.balance === 'number' ? error.data.balance : 0,
          })}
        </p>
      );
    } else if (error) {
      translation = <p className="yd-note-popover-muted">{errorMessage(error)}</p>;
    } else if (translatedBlock?.status === 'done' && translatedBlock.translation !== null) {
      const charge = notePage.data?.charge;
      translation = (
        <>
          <div
            className={`yd-note-popover-text yd-translation${translatedBlock.translation.includes('\n') ? ' has-lines' : ''}`}
            lang={options.targetLang}
          >
            {renderInline(parseInline(translatedBlock.translation), { onLink: (target) => onOpenNote(target) })}
          </div>
          {charge?.charged && charge.points > 0 && data.page !== options.page && (
            <p className="yd-note-popover-muted">{t('notes.charged', { page: data.page, points: charge.points })}</p>
          )}
        </>
      );
    } else if (translatedBlock?.status === 'failed') {
      translation = <p className="yd-note-popover-muted">{t('notes.failed')}</p>;
    } else {
      translation = (
        <p className="yd-note-popover-muted" role="status">
          <Spin size="small" /> {t('notes.translating')}
        </p>
      );
    }
  }

  return (
    <div
      ref={ref}
      className={`yd-note-popover${narrow ? ' is-sheet' : ''}`}
      role="dialog"
      aria-labelledby={titleId}
      tabIndex={-1}
      style={place}
    >
      <header>
        <strong id={titleId}>{label ? t('notes.title', { label }) : t('notes.titleBare')}</strong>
        <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('notes.close')} onClick={onClose} />
      </header>
      <div className="yd-note-popover-body">
        {note.isPending && <Spin size="small" />}
        {note.error && <p className="yd-note-popover-muted">{errorMessage(note.error)}</p>}
        {original}
        {translation}
      </div>
      {data && (
        <footer>
          <Button size="small" onClick={() => onGoTo(data)}>
            {data.page === options.page ? t('notes.goTo') : t('notes.goToPage', { page: data.page })}
          </Button>
        </footer>
      )}
    </div>
  );
}

/** After going to a note: one tap back to the paragraph of its marker. */
function ReturnButton({ onBack, onDismiss }: { onBack: () => void; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="yd-note-return" role="group" aria-label={t('notes.backToText')}>
      <Button type="primary" shape="round" icon={<RollbackOutlined />} onClick={onBack}>
        {t('notes.backToText')}
      </Button>
      <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('notes.close')} onClick={onDismiss} />
    </div>
  );
}
