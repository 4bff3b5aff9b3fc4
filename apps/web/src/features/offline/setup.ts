import { useEffect } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { setOfflineHooks } from '../../api/client.ts';
import { useAuth } from '../../stores/auth.ts';
import { useConnectivity, watchBrowserConnectivity } from './connectivity.ts';
import { answer, prepare } from './fallback.ts';
import { keepCurrent } from './keepCurrent.ts';
import { registerServiceWorker } from './serviceWorker.ts';
import { claimStore, clearAll, countQueued } from './store.ts';
import { flushOutbox, setSyncListener, useConflicts } from './sync.ts';

/** How often the queue is tried again while changes made offline wait. */
const RETRY_MS = 20_000;

let flushTimer: ReturnType<typeof setTimeout> | undefined;
/** Sends the queue soon (calls that just went through say the network is back). */
function flushSoon(delayMs = 300): void {
  if (flushTimer || useConnectivity.getState().pending === 0) return;
  flushTimer = setTimeout(() => {
    flushTimer = undefined;
    if (useAuth.getState().token) void flushOutbox();
  }, delayMs);
}

let installed = false;
/** Installs offline reading once: the client's offline answers, the service worker, the queue's sending. */
function install(): void {
  if (installed || typeof indexedDB === 'undefined') return;
  installed = true;
  setOfflineHooks({
    prepare,
    answer,
    answered: (method, path, query, body, data) => {
      if (useConnectivity.getState().unreachable) useConnectivity.setState({ unreachable: false });
      flushSoon();
      void keepCurrent(method, path, query, body, data).catch((error: unknown) =>
        console.warn('Keeping the offline copy current failed', error),
      );
    },
  });
  registerServiceWorker();
  watchBrowserConnectivity(() => flushSoon(0));
  setInterval(() => flushSoon(0), RETRY_MS);
  void countQueued().then(() => flushSoon(1000));
  useConflicts.getState().refresh();
}

/**
 * Mounted once by the app: offline reading installed; the store claimed by the reader who is logged
 * in (another reader's downloads and queue are dropped first) and emptied when they log out; the
 * reader's queries refetched once what was done offline has reached the server.
 */
export function useOfflineSetup(client: QueryClient): void {
  const userId = useAuth((s) => s.user?.id);
  useEffect(install, []);
  useEffect(() => {
    setSyncListener((bookCodes) => {
      for (const bookCode of bookCodes) {
        void client.invalidateQueries({ queryKey: ['readerMarks', bookCode] });
        void client.invalidateQueries({ queryKey: ['readerPosition', bookCode] });
      }
      void client.invalidateQueries({ queryKey: ['vocabulary'] });
    });
  }, [client]);
  useEffect(() => {
    if (userId !== undefined) void claimStore(userId).then(() => flushSoon(0));
  }, [userId]);
  useEffect(
    () =>
      useAuth.subscribe((state, previous) => {
        // Logging out leaves nothing of the reader's books on the device; a session that merely expired does.
        if (previous.token && !state.token && !state.sessionEnded) void clearAll().then(countQueued);
      }),
    [],
  );
}
