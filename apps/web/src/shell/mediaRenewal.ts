import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { refreshCurrentUser } from './session.ts';

/**
 * Covers, book images and avatars come as signed URLs that expire after some hours (the server's
 * `exp`, in seconds). The lists, pages and user info that carry them are fetched again when they are
 * shown anew, which renews them; a view left open longer than that finds out when an image fails to
 * load. Then the data on screen is fetched again, once for all the images that failed together.
 */
export function isExpiredMediaUrl(url: string, now = Date.now()): boolean {
  const expires = Number(new URL(url, 'http://yidu.invalid').searchParams.get('exp'));
  return Number.isFinite(expires) && expires > 0 && expires * 1000 <= now;
}

const RENEW_AT_MOST_EVERY_MS = 10_000;
const lastRenewal = new WeakMap<QueryClient, number>();

/** An image's onError handler: when its URL has expired, fetches the data on screen (and the user) again. */
export function useRenewExpiredMedia(): (url: string | null | undefined) => void {
  const client = useQueryClient();
  return useCallback(
    (url) => {
      if (!url || !isExpiredMediaUrl(url)) return;
      const now = Date.now();
      if (now - (lastRenewal.get(client) ?? 0) < RENEW_AT_MOST_EVERY_MS) return;
      lastRenewal.set(client, now);
      // Active queries are fetched again (an in-flight fetch is reused); others are marked stale.
      void client.invalidateQueries(undefined, { cancelRefetch: false });
      void refreshCurrentUser();
    },
    [client],
  );
}
