import { useEffect } from 'react';
import { readerApi } from '../../api/reader.ts';
import { useReaderSettings } from '../../stores/readerSettings.ts';

const SAVE_DELAY_MS = 600;

/** Reads the user's reader settings from the server once a session, then saves every change (debounced). */
export function useReaderSettingsSync(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let active = true;
    if (!useReaderSettings.getState().loaded) {
      readerApi
        .settings()
        .then((settings) => {
          if (active) useReaderSettings.getState().replace(settings);
        })
        .catch((error: unknown) => {
          console.warn('Loading the reader settings failed', error);
          if (active) useReaderSettings.setState({ loaded: true });
        });
    }
    const unsubscribe = useReaderSettings.subscribe((state, previous) => {
      if (!state.loaded || !previous.loaded || state.settings === previous.settings) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        readerApi
          .saveSettings(useReaderSettings.getState().settings)
          .catch((error: unknown) => console.warn('Saving the reader settings failed', error));
      }, SAVE_DELAY_MS);
    });
    return () => {
      active = false;
      unsubscribe();
      if (timer) {
        clearTimeout(timer);
        void readerApi.saveSettings(useReaderSettings.getState().settings).catch(() => undefined);
      }
    };
  }, []);
}
