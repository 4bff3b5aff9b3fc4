import { useEffect, useRef } from 'react';
import { HEARTBEAT_SECONDS } from '@yidu/shared/vocabulary';
import { vocabularyApi } from '../../api/vocabulary.ts';
import { heartbeatDue } from './wordsToLearn.ts';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'selectionchange'] as const;
/** A page the reader turns to is counted after this long on it (a quick flip through does not count it). */
const PAGE_SETTLE_MS = 2_000;

/**
 * Tells the server the reader is reading (reading statistics): a heartbeat every HEARTBEAT_SECONDS
 * while the tab is visible and was used in the last minutes (or is reading aloud), and one soon after
 * a page is opened. The server credits each with the time since the previous one, at most one
 * interval, so a forgotten tab counts nothing and two tabs count each minute once.
 */
export function useReadingHeartbeat(bookCode: string, page: number | null, readingAloud: boolean): void {
  const lastActivity = useRef(Date.now());
  const aloud = useRef(readingAloud);
  aloud.current = readingAloud;
  const where = useRef<{ bookCode: string; page: number } | null>(null);
  where.current = page === null ? null : { bookCode, page };

  useEffect(() => {
    const touch = () => (lastActivity.current = Date.now());
    for (const name of ACTIVITY_EVENTS) document.addEventListener(name, touch, { passive: true, capture: true });
    window.addEventListener('scroll', touch, { passive: true, capture: true });
    const beat = () => {
      const at = where.current;
      if (!at) return;
      const due = heartbeatDue({
        visible: document.visibilityState === 'visible',
        now: Date.now(),
        lastActivity: lastActivity.current,
        readingAloud: aloud.current,
      });
      if (due) vocabularyApi.heartbeat(at).catch(() => undefined);
    };
    const timer = setInterval(beat, HEARTBEAT_SECONDS * 1000);
    return () => {
      clearInterval(timer);
      for (const name of ACTIVITY_EVENTS) document.removeEventListener(name, touch, { capture: true });
      window.removeEventListener('scroll', touch, { capture: true });
    };
  }, []);

  // Turning to a page is using the reader; the page is counted once the reader stays on it.
  useEffect(() => {
    if (page === null) return;
    lastActivity.current = Date.now();
    const timer = setTimeout(() => {
      if (document.visibilityState === 'visible') vocabularyApi.heartbeat({ bookCode, page }).catch(() => undefined);
    }, PAGE_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [bookCode, page]);
}
