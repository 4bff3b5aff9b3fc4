import { lazy, useEffect, type ComponentType } from 'react';
import i18n from '../i18n/index.ts';
import { appMessage } from './feedback.ts';

/** Persisted one-shot flag: set before the automatic reload, so that a second failure does not loop. */
export const CHUNK_RELOAD_FLAG = 'chunkReloaded';

/** Thrown when a page's code cannot be loaded even after the one automatic reload. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ChunkLoadError';
  }
}

export const pageLoader = {
  /** Replaced in tests. */
  reload: () => window.location.reload(),
};

function flagIsSet(): boolean {
  try {
    return localStorage.getItem(CHUNK_RELOAD_FLAG) !== null;
  } catch {
    return false;
  }
}

export function clearChunkReloadFlag(): void {
  try {
    localStorage.removeItem(CHUNK_RELOAD_FLAG);
  } catch {
    // nothing to clear
  }
}

/**
 * React.lazy for route pages with the failed-chunk rule of SPEC §2.2: when the code of a page fails to
 * load (typically after a new deployment removed the old files), tell the user, set the flag and reload
 * once; if the flag is already set, throw ChunkLoadError so that the error page offers a manual reload.
 * The flag is cleared once a page has rendered.
 */
export function lazyPage<P extends object>(factory: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(async () => {
    let module: { default: ComponentType<P> };
    try {
      module = await factory();
    } catch (error) {
      if (flagIsSet()) throw new ChunkLoadError(error);
      try {
        localStorage.setItem(CHUNK_RELOAD_FLAG, String(Date.now()));
      } catch {
        throw new ChunkLoadError(error);
      }
      console.warn('Page code failed to load; reloading once', error);
      appMessage().info(i18n.t('app.clientUpdated'));
      pageLoader.reload();
      // Keep the loading state until the reload replaces the page.
      return new Promise<never>(() => {});
    }
    const Page = module.default;
    function LoadedPage(props: P) {
      useEffect(clearChunkReloadFlag, []);
      return <Page {...props} />;
    }
    return { default: LoadedPage };
  });
}
