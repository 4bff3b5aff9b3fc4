import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PageData } from '@yidu/shared/reader';
import { ApiError } from '../../api/client.ts';
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
/** Pictures still being made (a PDF's later figures): the page is asked for again every IMAGE_POLL_MS. */
export const hasPendingImages = (data: PageData | undefined) => !!data?.blocks.some((b) => b.imagePending);
export const IMAGE_POLL_MS = 4000;
/** Blocks still to come: pending ones, and failed ones (the server tries them again by itself). */
export const isUnfinished = (data: PageData | undefined) => !!data?.blocks.some((b) => b.status !== 'done');
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The server will not go on with the page for this reader as things are (a retry to confirm or to
 * pay for, the book gone): the page's query asks again and shows why. Network trouble, a busy server
 * or a rate limit are not refusals: following just goes on later.
 */
const isRefusal = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

export interface FollowTiming {
  /** Between requests for the page while blocks are pending and no stream reports them. */
  pollMs: number;
  /** Before the stream is opened again when only failed blocks are left; doubled while it cannot be opened. */
  retryMs: number;
  maxRetryMs: number;
}
const FOLLOW_TIMING: FollowTiming = { pollMs: 1500, retryMs: 3000, maxRetryMs: 60_000 };

/**
 * Follows a page until every block is translated: the event stream first (it reports each block as it
 * finishes, fails, or is tried again by the server); when it fails or ends early, the page is asked
 * for (at once, then every pollMs while blocks are pending). Failed blocks are tried again by the
 * server when their time comes or the engines change, and it says so on the stream, which is opened
 * again (later and later while it cannot be) as long as some are left. Updates the page in the query
 * cache as blocks change. A refusal (see isRefusal) hands the page back to its query.
 */
export async function followPage(
  client: QueryClient,
  key: PageKey,
  confirm: boolean,
  signal: AbortSignal,
  timing: FollowTiming = FOLLOW_TIMING,
): Promise<void> {
  const queryKey = pageQueryKey(key);
  const current = () => client.getQueryData<PageData>(queryKey);
  const apply = (event: SseEvent) =>
    client.setQueryData<PageData>(queryKey, (old) => (old ? applyPageEvent(old, event) : old));
  const refused = () => void client.invalidateQueries({ queryKey });
  let wait = timing.retryMs;
  while (!signal.aborted) {
    let streamed = false;
    try {
      const events = await readerApi.events({ ...key, ...(confirm ? { confirm } : {}) }, signal);
      streamed = true;
      for await (const event of events) {
        if (signal.aborted) return;
        if (event.event === 'error') return refused();
        apply(event);
        if (event.event === 'complete') break;
      }
    } catch (error) {
      if (signal.aborted) return;
      if (isRefusal(error)) return refused();
    }
    if (!isUnfinished(current())) return;
    // The stream failed or ended early (its time limit): blocks may have finished meanwhile, and asking
    // for the page also starts a retry that has come due.
    let first = true;
    do {
      if (!first) await sleep(timing.pollMs, signal);
      first = false;
      if (signal.aborted) return;
      try {
        const fresh = await readerApi.page({ ...key, confirm: confirm || undefined }, signal);
        client.setQueryData<PageData>(queryKey, fresh);
      } catch (error) {
        if (signal.aborted) return;
        if (isRefusal(error)) return refused();
      }
    } while (hasPending(current()));
    if (!isUnfinished(current())) return;
    await sleep(wait, signal);
    wait = streamed ? timing.retryMs : Math.min(wait * 2, timing.maxRetryMs);
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
    refetchInterval: (q) => (hasPendingImages(q.state.data) ? IMAGE_POLL_MS : false),
  });
  // Followed while blocks are still to come, unless the page's last request was refused (the reader
  // must confirm or top up first: confirming asks again, and following starts over).
  const follow = isUnfinished(query.data) && !query.isError;
  const bookCode = key?.bookCode;
  const language = key?.language;
  const page = key?.page;

  useEffect(() => {
    if (!follow || !bookCode || !language || !page) return;
    const controller = new AbortController();
    void followPage(client, { bookCode, language, page }, confirm, controller.signal);
    return () => controller.abort();
  }, [client, follow, bookCode, language, page, confirm]);

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

/** Asks for failed blocks again now (the reader's Retry); the page then follows them like any pending block. */
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
