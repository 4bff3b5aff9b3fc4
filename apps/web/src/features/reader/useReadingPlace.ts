import { useCallback, useEffect, useRef, type RefObject } from 'react';
import type { PageData } from '@yidu/shared/reader';
import { readerApi } from '../../api/reader.ts';
import { lastPlaces, type Place } from './lastPages.ts';
import { blockDomId } from './PageView.tsx';

/** The place is saved once scrolling has rested this long (and at once when the page is hidden). */
const SAVE_DELAY_MS = 700;

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
/** Four decimals: a ten-thousandth of a paragraph is far below a pixel. */
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** The reader bar stays at the top while the page scrolls: the text is read from its lower edge. */
function readerBar(): HTMLElement | null {
  return document.querySelector<HTMLElement>('.yd-reader-bar');
}

/**
 * The paragraph at the top of the view (the first whose bottom is below the reader bar) and how far
 * into it the top of the view is, as a share of its height: a share, not pixels, because the same
 * paragraph is taller on a phone, in a bigger font, or in another reading language.
 */
export function placeInView(container: HTMLElement): Pick<Place, 'blockId' | 'blockOffset'> | null {
  const line = Math.max(0, readerBar()?.getBoundingClientRect().bottom ?? 0);
  for (const element of container.querySelectorAll<HTMLElement>('[data-block]')) {
    const rect = element.getBoundingClientRect();
    if (rect.bottom <= line) continue;
    const offset = rect.height > 0 ? clamp01((line - rect.top) / rect.height) : 0;
    return { blockId: element.dataset.block ?? null, blockOffset: round(offset) };
  }
  return null;
}

/** Scrolls the window so that the place is at the top of the view; false when its paragraph is not shown. */
export function scrollToPlace(container: HTMLElement, place: Pick<Place, 'blockId' | 'blockOffset'>): boolean {
  if (!place.blockId) return false;
  const element = document.getElementById(blockDomId(place.blockId));
  if (!element || !container.contains(element)) return false;
  const rect = element.getBoundingClientRect();
  const point = window.scrollY + rect.top + (place.blockOffset ?? 0) * rect.height;
  window.scrollTo({ top: Math.max(0, Math.round(point - (readerBar()?.offsetHeight ?? 0))), behavior: 'instant' });
  return true;
}

const samePlace = (a: Place | undefined, b: Place) =>
  !!a && a.page === b.page && a.blockId === b.blockId && a.blockOffset === b.blockOffset;

/**
 * The reader's place as a paragraph (SPEC §3.9): followed while the reader scrolls and saved on the
 * server (debounced, and at once when the page is hidden or the reader closes), so that a reload,
 * another device or another reading language opens at the same paragraph. `initial` is where to
 * start (undefined while it is being fetched); it is restored once its page is shown, and held there
 * while translations arriving above change heights, until the reader moves.
 */
export function useReadingPlace(options: {
  bookCode: string;
  language: string;
  page: number | null;
  data: PageData | undefined;
  textRef: RefObject<HTMLElement | null>;
  initial: Place | null | undefined;
}) {
  const { bookCode, language, page, data, textRef, initial } = options;
  /** undefined: not known yet; null: nothing (left) to restore. */
  const target = useRef<Place | null | undefined>(undefined);
  // Declared before the effects that read it: they run after it in the same commit.
  useEffect(() => {
    if (target.current === undefined && initial !== undefined) target.current = initial;
  }, [initial]);
  /** While true, our own scrolling keeps the restored place; the reader's first move ends it. */
  const pinned = useRef<Place | null>(null);
  const pending = useRef<Place | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const send = useCallback(
    (place: Place, keepalive = false) => {
      pending.current = null;
      clearTimeout(timer.current);
      readerApi
        .savePosition({ bookCode, language, ...place }, { keepalive })
        .catch((error: unknown) => console.warn('Saving the position failed', error));
    },
    [bookCode, language],
  );

  /** Reads the place now, keeps it for this session and saves it on the server a moment later. */
  const follow = useCallback(() => {
    const container = textRef.current;
    if (page === null || !container || pinned.current || target.current) return;
    const found = placeInView(container);
    if (!found) return;
    const place = { page, ...found };
    if (samePlace(lastPlaces.get(bookCode), place) && !pending.current) return;
    lastPlaces.set(bookCode, place);
    pending.current = place;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => send(place), SAVE_DELAY_MS);
  }, [bookCode, page, send, textRef]);

  // Restore the place once its page is on screen (a jump elsewhere cancels it, see cancelRestore).
  useEffect(() => {
    const place = target.current;
    const container = textRef.current;
    if (!place || !data || !container || page === null) return;
    target.current = null;
    if (place.page !== page || !scrollToPlace(container, place)) return;
    pinned.current = place;
  }, [data, page, textRef]);

  // Held while the page fills in (translations replace originals above it); the reader's move ends it.
  useEffect(() => {
    const container = textRef.current;
    if (!container) return;
    const observer = new ResizeObserver(() => {
      if (pinned.current) scrollToPlace(container, pinned.current);
    });
    observer.observe(container);
    const release = () => {
      pinned.current = null;
    };
    const events = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
    for (const name of events) window.addEventListener(name, release, { passive: true });
    return () => {
      observer.disconnect();
      for (const name of events) window.removeEventListener(name, release);
    };
  }, [textRef]);

  // Followed while the reader scrolls, and when another page is shown.
  useEffect(() => {
    window.addEventListener('scroll', follow, { passive: true });
    return () => window.removeEventListener('scroll', follow);
  }, [follow]);
  useEffect(() => {
    pinned.current = pinned.current?.page === page ? pinned.current : null;
    if (data) follow();
  }, [data, page, follow]);

  // Saved at once when the page is hidden (a closed tab, a phone locked) and when the reader goes.
  useEffect(() => {
    const flush = () => {
      if (pending.current) send(pending.current, true);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onVisibility);
      flush();
    };
  }, [send]);

  /** A jump to another place (contents, a note, a saved word) wins over the place being restored. */
  const cancelRestore = useCallback(() => {
    target.current = null;
    pinned.current = null;
  }, []);
  return { cancelRestore };
}
