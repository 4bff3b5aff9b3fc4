import { afterEach, describe, expect, it, vi } from 'vitest';

// pdf.js reads DOMMatrix when it loads; jsdom has none (nothing here draws).
(globalThis as { DOMMatrix?: unknown }).DOMMatrix ??= class {};
const { SignedRangeTransport } = await import('./pdfjs.ts');

afterEach(() => vi.unstubAllGlobals());

/** The stored file as the media route serves it: ranges of `bytes`, under URLs that may stop working. */
function fakeMedia(bytes: Uint8Array, refused: (url: string) => boolean) {
  const asked: { url: string; range: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const range = (init.headers as Record<string, string>).range!;
      asked.push({ url, range });
      if (refused(url)) return new Response('{"code":404}', { status: 404 });
      const [, first, last] = /bytes=(\d+)-(\d+)/.exec(range)!;
      return new Response(bytes.slice(Number(first), Number(last) + 1), { status: 206 });
    }),
  );
  return asked;
}

const file = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

describe('reading the stored PDF by ranges from a signed URL', () => {
  it('asks for exactly the bytes pdf.js wants and hands them over', async () => {
    const asked = fakeMedia(file, () => false);
    const source = { size: 1000, url: vi.fn(async () => '/api/media/a.pdf?exp=1&sig=x'), renew: vi.fn() };
    const transport = new SignedRangeTransport(source, vi.fn());
    const got = new Promise<[number, Uint8Array]>((resolve) =>
      transport.addRangeListener((b: number, c: Uint8Array) => resolve([b, c])),
    );
    transport.requestDataRange(200, 328);
    const [begin, chunk] = await got;
    expect(asked).toEqual([{ url: '/api/media/a.pdf?exp=1&sig=x', range: 'bytes=200-327' }]);
    expect(begin).toBe(200);
    expect([...chunk]).toEqual([...file.slice(200, 328)]);
    expect(source.renew).not.toHaveBeenCalled();
  });

  it('asks again with a fresh URL when the one it had is refused (expired while the book was open)', async () => {
    const asked = fakeMedia(file, (url) => url.includes('old'));
    const source = {
      size: 1000,
      url: vi.fn(async () => '/api/media/a.pdf?exp=old'),
      renew: vi.fn(async () => '/api/media/a.pdf?exp=new'),
    };
    const onFailure = vi.fn();
    const transport = new SignedRangeTransport(source, onFailure);
    const got = new Promise<Uint8Array>((resolve) =>
      transport.addRangeListener((_b: number, c: Uint8Array) => resolve(c)),
    );
    transport.requestDataRange(0, 10);
    expect([...(await got)]).toEqual([...file.slice(0, 10)]);
    expect(asked.map((a) => a.url)).toEqual(['/api/media/a.pdf?exp=old', '/api/media/a.pdf?exp=new']);
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('gives up, once, when a fresh URL is refused too (the book was taken away)', async () => {
    fakeMedia(file, () => true);
    const failed = new Promise<unknown>((resolve) => {
      const transport = new SignedRangeTransport(
        { size: 1000, url: async () => '/a?exp=1', renew: async () => '/a?exp=2' },
        resolve,
      );
      transport.requestDataRange(0, 10);
    });
    expect(String(await failed)).toMatch(/404/);
  });
});
