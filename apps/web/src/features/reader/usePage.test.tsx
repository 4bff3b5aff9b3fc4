import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PageData } from '@yidu/shared/reader';
import { parseEvent, readSse } from '../../api/sse.ts';
import { applyPageEvent, followPage, IMAGE_POLL_MS, pageQueryKey, usePage } from './usePage.ts';
import { jsonResponse } from '../../test/utils.tsx';

const block = (
  id: string,
  status: 'done' | 'pending' | 'failed',
  translation: string | null = null,
): PageData['blocks'][number] => ({
  id,
  type: 'paragraph',
  text: `text ${id}`,
  html: null,
  translation,
  status,
  level: null,
  imageUrl: null,
  noteLabel: null,
  noteRefs: null,
  pdfPage: null,
  pdfRegions: null,
});

const page = (blocks: PageData['blocks']): PageData => ({
  page: 1,
  pageCount: 3,
  chapter: { index: 1, title: 'One', generated: null },
  blocks,
  translated: true,
  charge: null,
});

/** A text/event-stream answer whose chunks arrive one by one (split mid-event on purpose). */
function streamResponse(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else {
        await new Promise((r) => setTimeout(r, 1));
        controller.enqueue(encoder.encode(next));
      }
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
}

afterEach(() => vi.unstubAllGlobals());

/** A fetch stub answering by path with Responses (streams included). */
function stubFetch(routes: Record<string, () => Response | Error>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      calls.push(path);
      const answer = routes[path]?.() ?? jsonResponse(404, {});
      if (answer instanceof Error) throw answer;
      return answer;
    }),
  );
  return calls;
}
const ok = (data: unknown) => jsonResponse(200, { code: 0, data, msg: 'ok' });
const FAST = { pollMs: 5, retryMs: 5, maxRetryMs: 20 };

describe('server-sent events', () => {
  it('parses named events, JSON data and skips comments, across chunk boundaries', async () => {
    const response = streamResponse([
      ': keep-alive\n\nevent: blo',
      'ck\ndata: {"id":"a"}\n\n',
      'event: complete\r\ndata: {}\r\n\r\n',
    ]);
    const events = [];
    for await (const event of readSse(response.body!)) events.push(event);
    expect(events).toEqual([
      { event: 'block', data: { id: 'a' } },
      { event: 'complete', data: {} },
    ]);
    expect(parseEvent('data: plain')).toEqual({ event: 'message', data: 'plain' });
  });
});

describe('page translations as they stream in', () => {
  it('applies block and complete events to a page', () => {
    const before = page([block('a', 'pending'), block('b', 'pending')]);
    const after = applyPageEvent(
      applyPageEvent(before, { event: 'block', data: { id: 'a', status: 'done', translation: '<em>A</em>' } }),
      { event: 'complete', data: { charge: { points: 2, charged: true } } },
    );
    expect(after.blocks[0]).toMatchObject({ status: 'done', translation: '<em>A</em>' });
    expect(after.blocks[1]!.status).toBe('pending');
    expect(after.charge).toEqual({ points: 2, charged: true });
    expect(applyPageEvent(before, { event: 'block', data: null })).toBe(before);
  });

  it('follows the event stream, then asks again for blocks the stream did not report', async () => {
    const client = new QueryClient();
    const key = { bookCode: 'bk', language: 'zh', page: 1 };
    client.setQueryData(pageQueryKey(key), page([block('a', 'pending'), block('b', 'pending')]));
    const calls = stubFetch({
      '/api/reader/events': () =>
        streamResponse([
          'event: block\ndata: {"id":"a","status":"done","translation":"甲"}\n\n',
          'event: complete\ndata: {"charge":{"points":1,"charged":true}}\n\n',
        ]),
      '/api/reader/getPageData': () => ok(page([block('a', 'done', '甲'), block('b', 'done', '乙')])),
    });
    await followPage(client, key, false, new AbortController().signal, FAST);
    const data = client.getQueryData<PageData>(pageQueryKey(key))!;
    expect(data.blocks.map((b) => b.translation)).toEqual(['甲', '乙']);
    expect(calls).toEqual(['/api/reader/events', '/api/reader/getPageData']);
  });

  it('falls back to polling when the stream fails, and goes on until failed blocks come back', async () => {
    const client = new QueryClient();
    const key = { bookCode: 'bk', language: 'zh', page: 1 };
    client.setQueryData(pageQueryKey(key), page([block('a', 'pending')]));
    let polls = 0;
    const calls = stubFetch({
      '/api/reader/events': () => new TypeError('Failed to fetch'),
      '/api/reader/getPageData': () => {
        polls += 1;
        // Pending twice, then failed; asked again later, the server has tried it again: done.
        return ok(
          page([polls < 3 ? block('a', 'pending') : polls < 4 ? block('a', 'failed') : block('a', 'done', '甲')]),
        );
      },
    });
    await followPage(client, key, false, new AbortController().signal, FAST);
    expect(polls).toBe(4);
    expect(client.getQueryData<PageData>(pageQueryKey(key))!.blocks[0]!.translation).toBe('甲');
    // The stream is tried again before each later request for the page.
    expect(calls.filter((c) => c === '/api/reader/events')).toHaveLength(2);
  });

  it('keeps following a page whose blocks failed: the stream reports their retry', async () => {
    const client = new QueryClient();
    const key = { bookCode: 'bk', language: 'zh', page: 1 };
    client.setQueryData(pageQueryKey(key), page([block('a', 'pending'), block('b', 'done', '乙')]));
    const streams = [
      // The first stream reaches its time limit with the block failed...
      ['event: block\ndata: {"id":"a","status":"failed","translation":null}\n\n'],
      // ...the next one sees the server try it again.
      [
        'event: block\ndata: {"id":"a","status":"pending","translation":null}\n\n',
        'event: block\ndata: {"id":"a","status":"done","translation":"甲"}\n\n',
        'event: complete\ndata: {"charge":{"points":1,"charged":true}}\n\n',
      ],
    ];
    const calls = stubFetch({
      '/api/reader/events': () => streamResponse(streams.shift()!),
      '/api/reader/getPageData': () => ok(page([block('a', 'failed'), block('b', 'done', '乙')])),
    });
    await followPage(client, key, false, new AbortController().signal, FAST);
    expect(client.getQueryData<PageData>(pageQueryKey(key))!.blocks.map((b) => b.translation)).toEqual(['甲', '乙']);
    expect(calls).toEqual(['/api/reader/events', '/api/reader/getPageData', '/api/reader/events']);
  });

  it('hands the page back to its query when a retry needs the reader (confirmation, points)', async () => {
    const client = new QueryClient();
    const key = { bookCode: 'bk', language: 'zh', page: 1 };
    const queryKey = pageQueryKey(key);
    client.setQueryData(queryKey, page([block('a', 'failed')]));
    const refetched = vi.spyOn(client, 'invalidateQueries');
    const calls = stubFetch({
      '/api/reader/events': () => streamResponse(['event: error\ndata: {"key":"pointsConfirmationRequired"}\n\n']),
    });
    await followPage(client, key, false, new AbortController().signal, FAST);
    expect(calls).toEqual(['/api/reader/events']);
    expect(refetched).toHaveBeenCalledWith({ queryKey });
  });
});

describe('pictures still being made', () => {
  it('asks for the page again until every picture has come, then stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const figure = (imageUrl: string | null) => ({
        ...block('fig', 'done'),
        type: 'image',
        imageUrl,
        ...(imageUrl ? {} : { imagePending: true }),
      });
      const answers = [page([figure(null)]), page([figure(null)]), page([figure('/api/media/books/1/img-a.webp')])];
      const calls = stubFetch({ '/api/reader/getPageData': () => ok(answers.shift() ?? answers.at(-1)) });
      const client = new QueryClient();
      const wrapper = ({ children }: { children: ReactNode }) => (
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      );
      const { result } = renderHook(() => usePage({ bookCode: 'b1', language: 'zh', page: 1 }, false), { wrapper });
      await waitFor(() => expect(result.current.data?.blocks[0]?.imagePending).toBe(true));
      await vi.advanceTimersByTimeAsync(IMAGE_POLL_MS);
      await vi.advanceTimersByTimeAsync(IMAGE_POLL_MS);
      await waitFor(() => expect(result.current.data?.blocks[0]?.imageUrl).toBe('/api/media/books/1/img-a.webp'));
      const asked = calls.length;
      expect(asked).toBe(3);
      await vi.advanceTimersByTimeAsync(IMAGE_POLL_MS * 3);
      expect(calls.length).toBe(asked);
    } finally {
      vi.useRealTimers();
    }
  });
});
