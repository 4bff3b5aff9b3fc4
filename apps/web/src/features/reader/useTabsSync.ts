import { useEffect } from 'react';
import { readerApi } from '../../api/reader.ts';
import { useAuth } from '../../stores/auth.ts';
import { toServerTabs, useTabs } from '../../stores/tabs.ts';

const SAVE_DELAY_MS = 800;

/**
 * Keeps the tab bar on the server too (GET/PUT /api/user/tabs) so that it follows the user: loads and
 * merges it once, then saves every change (debounced). After a logout (clear) the local, empty bar
 * overwrites the server's copy instead of bringing the old tabs back.
 */
export async function syncTabsOnce(): Promise<void> {
  const store = useTabs.getState();
  if (store.serverReset) {
    await readerApi.saveTabs(toServerTabs(store));
    useTabs.getState().markSynced();
    return;
  }
  const server = await readerApi.tabs();
  useTabs.getState().mergeServer(server);
}

export function useTabsSync(): void {
  const token = useAuth((s) => s.token);
  useEffect(() => {
    if (!token) return;
    let ready = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = JSON.stringify(toServerTabs(useTabs.getState()));
    const save = () => {
      timer = undefined;
      if (!useAuth.getState().token) return;
      const state = toServerTabs(useTabs.getState());
      const text = JSON.stringify(state);
      if (text === last) return;
      last = text;
      readerApi.saveTabs(state).catch((error: unknown) => console.warn('Saving the tabs failed', error));
    };
    const unsubscribe = useTabs.subscribe(() => {
      if (!ready) return;
      clearTimeout(timer);
      timer = setTimeout(save, SAVE_DELAY_MS);
    });
    syncTabsOnce()
      .catch((error: unknown) => console.warn('Loading the tabs failed', error))
      .finally(() => {
        ready = true;
        save();
      });
    return () => {
      unsubscribe();
      if (timer) {
        clearTimeout(timer);
        save();
      }
    };
  }, [token]);
}
