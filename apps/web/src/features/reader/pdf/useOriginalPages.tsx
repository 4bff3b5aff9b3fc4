import { lazy, Suspense, useCallback, useEffect, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { Button, Tooltip } from 'antd';
import { FilePdfOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { BookDetail } from '@yidu/shared/books';
import type { PageData } from '@yidu/shared/reader';
import { useMediaQuery } from '../../../shell/useMediaQuery.ts';
import { blockIdOf, firstBlockInView } from './textPosition.ts';
import './pdf.css';

// pdf.js is loaded with the page view, only for PDF books whose pages are shown.
const OriginalPageView = lazy(() => import('./OriginalPageView.tsx'));

/** Whether the pages are shown beside the text on wide screens (kept per browser). */
const SHOWN_KEY = 'yd-original-pages';

interface UseOriginalPagesArgs {
  book: BookDetail;
  data: PageData | undefined;
  page: number | null;
  textRef: RefObject<HTMLElement | null>;
  goTo: (page: number, blockId?: string | null, options?: { flash?: boolean }) => void;
}

/**
 * The original page view of a PDF book, for the reader: the control that shows or hides it (named
 * 原文页 / "Original page"), the pane itself, and what the text must do. On wide screens the pages
 * stand beside the text (shown unless the reader hid them); on narrower ones they replace the text
 * until toggled back, which then opens at the paragraph the pages were at.
 */
export function useOriginalPages({ book, data, page, textRef, goTo }: UseOriginalPagesArgs) {
  const { t } = useTranslation();
  const isPdf = book.format === 'pdf';
  const sideBySide = useMediaQuery('(min-width: 960px)');
  const [wideShown, setWideShown] = useState(() => localStorage.getItem(SHOWN_KEY) !== 'hidden');
  const [narrowShown, setNarrowShown] = useState(false);
  const shown = isPdf && (sideBySide ? wideShown : narrowShown);
  const [focus, setFocus] = useState<{ blockId: string } | null>(null);
  const [startBlockId, setStartBlockId] = useState<string | null>(null);
  const textPlace = useRef<string | null>(null);
  const [backToText, setBackToText] = useState(false);

  const toggle = () => {
    if (sideBySide) {
      localStorage.setItem(SHOWN_KEY, wideShown ? 'hidden' : 'shown');
      setWideShown(!wideShown);
      return;
    }
    if (!narrowShown) {
      setStartBlockId(firstBlockInView(textRef.current));
      textPlace.current = null;
    } else setBackToText(true);
    setNarrowShown(!narrowShown);
  };

  // Back to the text on a phone: at the paragraph the pages were at.
  useEffect(() => {
    if (!backToText || shown) return;
    setBackToText(false);
    if (textPlace.current && page !== null) goTo(page, textPlace.current, { flash: false });
  }, [backToText, shown, page, goTo]);

  const onTextPlace = useCallback((blockId: string) => {
    textPlace.current = blockId;
  }, []);

  /** A click in the text: its paragraph is outlined on the pages (not when text was being selected). */
  const onTextClick = (event: MouseEvent) => {
    if (!shown || window.getSelection()?.isCollapsed === false) return;
    if (event.target instanceof Element && event.target.closest('button, a')) return;
    const blockId = blockIdOf(event.target);
    if (blockId) setFocus({ blockId });
  };

  const label = t('originalPage.toggle');
  const toggleButton = isPdf ? (
    <Tooltip title={label}>
      <Button
        type="text"
        icon={<FilePdfOutlined />}
        aria-label={label}
        aria-pressed={shown}
        className={shown ? 'is-on' : undefined}
        onClick={toggle}
      />
    </Tooltip>
  ) : null;

  const pane = shown ? (
    <Suspense fallback={<section className="yd-pdf-pane" />}>
      <OriginalPageView
        bookCode={book.bookCode}
        data={data}
        goTo={goTo}
        focus={focus}
        textShown={sideBySide}
        textRef={textRef}
        startBlockId={startBlockId}
        onTextPlace={onTextPlace}
      />
    </Suspense>
  ) : null;

  return { toggleButton, pane, shown, sideBySide, textHidden: shown && !sideBySide, onTextClick };
}
