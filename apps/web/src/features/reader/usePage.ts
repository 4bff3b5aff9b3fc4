import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PageData } from '@yidu/shared/reader';
import { readerApi, type Charge } from '../../api/reader.ts';
import type { SseEvent } from '../../api/sse.ts';

export interface PageKey {
  bookCode: string;
  language: string;
  page: number;
}

export const pageQueryKey = ({ bookCode, language, page }: PageKey) =>
  ['readerPage', bookCode, language, page] as const;

/** Applies one event of /reader/events to a page: a finished (or failed) block, or the final charge. */
export function applyPageEvent(data: PageData, event: SseEvent): PageData {
  if (event.event === 'block') {
    const update = event.data as {
      id: string;
      status: PageData['blocks'][number]['status'];
      translation: string | null;
    };
    if (!update || typeof update.id !== 'string') return data;
    return {
      ...data,
      blocks: data.blocks.map((b) =>
        b.id === update.id ? { ...b, status: update.status, translation: update.translation ?? b.translation } : b,
      ),
    };
  }
  if (event.event === 'complete') {
    const { charge } = (event.data ?? {}) as { charge?: Charge | null };
    return charge === undefined ? data : { ...data, charge };
  }
  return data;
}

const hasPending = (data: PageData | undefined) => !!data?.blocks.some((b) => b.status === 'pending');
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows a page's pending translations: the event stream first; when it fails or ends early, polling
 * getPageData. Updates the page in the query cache as blocks finish.
 */
export async function followPage(
  client: QueryClient,
  key: PageKey,
  confirm: boolean,
  signal: AbortSignal,
  pollMs = 1500,
): Promise<void> {
  const queryKey = pageQueryKey(key);
  const apply = (event: SseEvent) =>
    client.setQueryData<PageData>(queryKey, (old) => (old ? applyPageEvent(old, event) : old));
  try {
    const events = await readerApi.events({ ...key, ...(confirm ? { confirm } : {}) }, signal);
    for await (const event of events) {
      if (signal.aborted) return;
      apply(event);
      if (event.event === 'complete') break;
    }
  } catch {
    if (signal.aborted) return;
  }
  // The stream opens with every block already finished, then follows the rest; if it failed or ended
  // early, blocks are still pending here: ask for the page again (at once, then every pollMs).
  let first = true;
  while (!signal.aborted && hasPending(client.getQueryData<PageData>(queryKey))) {
    if (!first) await sleep(pollMs, signal);
    first = false;
    if (signal.aborted) return;
    try {
      const fresh = await readerApi.page({ ...key, confirm: confirm || undefined }, signal);
      client.setQueryData<PageData>(queryKey, fresh);
    } catch {
      if (signal.aborted) return;
    }
  }
}

/**
 * A reader page with its translations as they arrive. `confirm`: the reader confirmed this page's
 * price (confirmation mode). Opening a page is what pays for it, so the next page is never fetched
 * ahead from here: the server prepares its translation itself, and charges it when it is opened.
 */
export function usePage(key: PageKey | null, confirm: boolean) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: key ? pageQueryKey(key) : ['readerPage', 'none'],
    queryFn: ({ signal }) => readerApi.page({ ...key!, confirm: confirm || undefined }, signal),
    enabled: key !== null,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const pending = hasPending(query.data);
  const bookCode = key?.bookCode;
  const language = key?.language;
  const page = key?.page;

  useEffect(() => {
    if (!pending || !bookCode || !language || !page) return;
    const controller = new AbortController();
    void followPage(client, { bookCode, language, page }, confirm, controller.signal);
    return () => controller.abort();
  }, [client, pending, bookCode, language, page, confirm]);

  return query;
}

/**
 * The reader confirmed a page's price: asks for the page again with confirm=true, which pays for it
 * and starts its translation. The page's query takes the answer (or the error, e.g. insufficientPoints).
 */
export async function confirmPage(client: QueryClient, key: PageKey): Promise<void> {
  await client
    .fetchQuery({
      queryKey: pageQueryKey(key),
      queryFn: ({ signal }) => readerApi.page({ ...key, confirm: true }, signal),
      staleTime: 0,
      retry: false,
    })
    .catch(() => undefined);
}

/** Asks for failed blocks again; the page then follows them like any pending block. */
export async function retryBlocks(client: QueryClient, key: PageKey, blockIds: string[], confirm: boolean) {
  const fresh = await readerApi.page({ ...key, retry: blockIds.join(','), confirm: confirm || undefined });
  client.setQueryData<PageData>(pageQueryKey(key), fresh);
}

/** A paragraph's translation changed (a reader kept another one): the page shows it at once. */
export function setBlockTranslation(client: QueryClient, key: PageKey, blockId: string, translation: string) {
  client.setQueryData<PageData>(pageQueryKey(key), (old) =>
    old ? applyPageEvent(old, { event: 'block', data: { id: blockId, status: 'done', translation } }) : old,
  );
}
