import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mark } from '@yidu/shared/marks';
import type { PageData } from '@yidu/shared/reader';
import { readerApi } from '../../api/reader.ts';
import { setOfflineHooks } from '../../api/client.ts';
import { useAuth } from '../../stores/auth.ts';
import { fail, fakeFetch, makeUser, ok, type FakeCall } from '../../test/utils.tsx';
import { clearAll, get, getAll, put } from './db.ts';
import { answer, prepare } from './fallback.ts';
import { keepCurrent } from './keepCurrent.ts';
import { storedMarks } from './store.ts';
import { flushOutbox } from './sync.ts';

const page = (n: number): PageData => ({
  page: n,
  pageCount: 3,
  chapter: { index: 1, title: 'Loomings' },
  blocks: [
    {
      id: `c1-b${n}`,
      type: 'paragraph',
      text: 'Call me Ishmael.',
      html: null,
      translation: '[zh-Hans] Call me Ishmael.',
      status: 'done',
      level: null,
      imageUrl: null,
      noteLabel: null,
      noteRefs: null,
      pdfPage: null,
      pdfRegions: null,
    },
  ],
  translated: true,
  charge: null,
});

/** A book downloaded in Chinese, pages 1 and 2 kept. */
async function downloaded(): Promise<void> {
  await put('books', {
    key: 'moby/zh',
    bookCode: 'moby',
    language: 'zh',
    userId: 1,
    detail: { bookCode: 'moby', bookName: 'Moby-Dick', coverUrl: null, pageCount: 3 } as never,
    pages: [1, 2],
    missing: [3],
    bytes: 100,
    downloadedAt: new Date().toISOString(),
  });
  for (const n of [1, 2]) await put('pages', { key: 'moby/zh', page: n, data: page(n) });
  await put('marks', { bookCode: 'moby', marks: [] });
}

const offline = () =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
  );
const anchor = {
  bookCode: 'moby',
  blockId: 'c1-b2',
  start: 0,
  end: 4,
  quote: 'Call',
  inTranslation: false,
  language: 'zh',
};

describe('offline reading in the browser', () => {
  beforeEach(async () => {
    useAuth.getState().setSession('tok', makeUser());
    setOfflineHooks({
      prepare,
      answer,
      answered: (method, path, query, body, data) => void keepCurrent(method, path, query, body, data),
    });
    await clearAll();
    await downloaded();
  });
  afterEach(() => {
    setOfflineHooks(undefined);
    vi.unstubAllGlobals();
    useAuth.getState().clear();
  });

  it('reads a downloaded page without a network, and says which pages were not downloaded', async () => {
    offline();
    expect((await readerApi.page({ bookCode: 'moby', language: 'zh', page: 2 })).blocks[0]!.translation).toBe(
      '[zh-Hans] Call me Ishmael.',
    );
    await expect(readerApi.page({ bookCode: 'moby', language: 'zh', page: 3 })).rejects.toMatchObject({
      key: 'pageNotDownloaded',
    });
    // A book that was not downloaded fails as it would without offline reading.
    await expect(readerApi.page({ bookCode: 'other', language: 'zh', page: 1 })).rejects.toMatchObject({
      key: 'network',
    });
  });

  it('sends a highlight made offline once, even when the answer to the first send is lost', async () => {
    offline();
    const local = await readerApi.addHighlight(anchor, 'highlight', 'green');
    expect(local.id).toBeLessThan(0);
    expect(local.page).toBe(2);
    expect((await storedMarks('moby'))!.map((m) => m.id)).toEqual([local.id]);
    const [queued] = await getAll('outbox');
    const clientId = (queued!.body as { clientId: string }).clientId;
    expect(clientId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);

    // The server takes the first send, but its answer never arrives; the second send gets the same mark.
    const server = new Map<string, Mark>();
    let lose = true;
    const { calls } = fakeFetch({
      'POST /api/reader/highlight': (call: FakeCall) => {
        const body = call.body as { clientId: string };
        const mark = server.get(body.clientId) ?? { ...local, id: 41 + server.size };
        server.set(body.clientId, mark);
        if (lose) {
          lose = false;
          return new TypeError('connection reset');
        }
        return ok(mark);
      },
    });
    await flushOutbox();
    expect(await getAll('outbox')).toHaveLength(1);
    await flushOutbox();
    expect(await getAll('outbox')).toHaveLength(0);
    const sent = calls.filter((c) => c.path === '/api/reader/highlight');
    expect(sent.map((c) => (c.body as { clientId: string }).clientId)).toEqual([clientId, clientId]);
    expect(server.size).toBe(1);
    expect((await storedMarks('moby'))!.map((m) => m.id)).toEqual([41]);
  });

  it('drops a mark the server says was deleted on another device, and forgets a mark deleted before it was sent', async () => {
    offline();
    const first = await readerApi.addHighlight(anchor, 'highlight', 'yellow');
    const second = await readerApi.addAnnotation({ ...anchor, start: 5, end: 8 }, 'a thought');
    await readerApi.deleteAnnotation(second.id);
    expect(await getAll('outbox')).toHaveLength(1);
    const { calls } = fakeFetch({ 'POST /api/reader/highlight': fail(410, 'alreadyDeleted') });
    await flushOutbox();
    expect(calls.map((c) => c.path)).toEqual(['/api/reader/highlight']);
    expect(await getAll('outbox')).toHaveLength(0);
    expect((await storedMarks('moby'))!.find((m) => m.id === first.id)).toBeUndefined();
  });

  it('asks before going back: a further position on the server is kept and offered, not overwritten', async () => {
    offline();
    await readerApi.savePosition({ bookCode: 'moby', page: 1, language: 'zh' });
    await readerApi.savePosition({ bookCode: 'moby', page: 2, language: 'zh' });
    expect(await getAll('outbox')).toHaveLength(1);
    const { calls } = fakeFetch({
      'GET /api/reader/position': ok({ bookCode: 'moby', page: 40, blockId: 'c9-b1', language: 'zh', updatedAt: '' }),
    });
    await flushOutbox();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(await get('conflicts', 'moby')).toMatchObject({ localPage: 2, serverPage: 40, serverBlockId: 'c9-b1' });
    expect(await getAll('outbox')).toHaveLength(0);
  });

  it('gives every create a client id online too, so that a retried request is made once', async () => {
    const { calls } = fakeFetch({ 'POST /api/reader/bookmark': ok({ ...anchor, id: 7, kind: 'bookmark' }) });
    await readerApi.addBookmark({ bookCode: 'moby', page: 1 });
    expect((calls[0]!.body as { clientId?: string }).clientId).toBeTruthy();
    // And the downloaded copy follows what the server has.
    await vi.waitFor(async () => expect((await storedMarks('moby'))!.map((m) => m.id)).toEqual([7]));
  });
  it('does not send a mark made offline that was deleted while the queue was being sent', async () => {
    offline();
    const first = await readerApi.addHighlight(anchor, 'highlight', 'yellow');
    const second = await readerApi.addHighlight({ ...anchor, start: 5, end: 8 }, 'highlight', 'blue');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { calls } = fakeFetch({
      'POST /api/reader/highlight': async () => {
        await held;
        return ok({ ...first, id: 90 });
      },
    });
    const sending = flushOutbox();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    offline();
    await readerApi.deleteHighlight(second.id);
    const later = fakeFetch({ 'POST /api/reader/highlight': ok({ ...second, id: 91 }) });
    release();
    await sending;
    expect(calls).toHaveLength(1);
    expect(later.calls).toHaveLength(0);
    expect(await getAll('outbox')).toHaveLength(0);
    expect((await storedMarks('moby'))!.map((m) => m.id)).toEqual([90]);
  });
});
