import { create } from 'zustand';

/**
 * Whether Yidu can be reached, as the browser says (navigator.onLine) and as the last calls found
 * (a phone on a Wi-Fi without internet says it is online), and what waits to be sent.
 */
interface Connectivity {
  browserOnline: boolean;
  /** The last call failed for want of a network (cleared by the next answer). */
  unreachable: boolean;
  /** Changes made offline not sent yet. */
  pending: number;
  syncing: boolean;
}

export const useConnectivity = create<Connectivity>(() => ({
  browserOnline: typeof navigator === 'undefined' ? true : navigator.onLine,
  unreachable: false,
  pending: 0,
  syncing: false,
}));

export const isOffline = (s: Pick<Connectivity, 'browserOnline' | 'unreachable'>) => !s.browserOnline || s.unreachable;

export function watchBrowserConnectivity(onOnline: () => void): () => void {
  const online = () => {
    useConnectivity.setState({ browserOnline: true, unreachable: false });
    onOnline();
  };
  const offline = () => useConnectivity.setState({ browserOnline: false });
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  return () => {
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
}
