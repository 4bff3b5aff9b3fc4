import i18n from '../../i18n/index.ts';
import { appMessage } from '../../shell/feedback.ts';
import { pageLoader } from '../../shell/lazyPage.tsx';

/** Persisted one-shot flag: the build this page reloaded for, so that it never reloads twice for one. */
export const SW_RELOAD_FLAG = 'swReloadedFor';
const UPDATE_CHECK_MS = 30 * 60_000;

/** The page's own build, named by its entry script (Vite puts a content hash in the name). */
function pageEntry(): string | undefined {
  const script = document.querySelector<HTMLScriptElement>('script[type="module"][src]');
  return script ? new URL(script.src).pathname : undefined;
}

/** The build a service worker serves: its id and its files. */
function versionOf(worker: ServiceWorker): Promise<{ build: string; files: string[] } | undefined> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(undefined), 3000);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data as { build: string; files: string[] });
    };
    worker.postMessage({ type: 'version' }, [channel.port2]);
  });
}

/**
 * The service worker keeps the app shell for starting offline. A new deployment installs a new worker,
 * which takes over at once; a page running another build then says "client updated, refreshing
 * automatically" and reloads — once per build (a persisted flag, as for a page's code that fails to
 * load: SPEC §2.2), so it never loops, and never stays on an old version. Updates are looked for when
 * the app starts, comes back to the foreground or online, and every half hour.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const container = navigator.serviceWorker;
  const entry = pageEntry();

  container.addEventListener('controllerchange', () => {
    // Also when the first worker takes over the page that installed it: it serves that page's build,
    // so nothing happens; any later worker of another build reloads the page once.
    const worker = container.controller;
    if (!worker || !entry) return;
    void versionOf(worker).then((version) => {
      if (!version || version.files.includes(entry)) return;
      let reloadedFor: string | null = null;
      try {
        reloadedFor = localStorage.getItem(SW_RELOAD_FLAG);
      } catch {
        // no storage: reload once anyway (the page then runs the new build)
      }
      if (reloadedFor === version.build) return;
      try {
        localStorage.setItem(SW_RELOAD_FLAG, version.build);
      } catch {
        // nothing to remember with
      }
      appMessage().info(i18n.t('app.clientUpdated'));
      pageLoader.reload();
    });
  });

  void container
    .register('/sw.js', { updateViaCache: 'none' })
    .then(async (registration) => {
      const check = () => void registration.update().catch(() => undefined);
      document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && check());
      window.addEventListener('online', check);
      setInterval(check, UPDATE_CHECK_MS);
      // Running the build the worker serves: the flag has done its job.
      const active = registration.active;
      const version = active && entry ? await versionOf(active) : undefined;
      if (version?.files.includes(entry!)) {
        try {
          localStorage.removeItem(SW_RELOAD_FLAG);
        } catch {
          // nothing to clear
        }
      }
    })
    .catch((error: unknown) => console.warn('The service worker could not be registered', error));
}
