/**
 * Figures of a PDF paper in the reader: a real two-column paper uploaded and parsed through the
 * pipeline, its figures cropped from the pages, stored with the book's images and served through
 * the signed media URLs the page data gives, their captions translatable paragraphs beside them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PageBlock } from '@yidu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, pollStage, registerUser, startTestApp, uploadFile, type TestApp } from '../../../test/helpers.ts';

const PAPER = 'pdf/en-tracemonkey-two-column-footnotes.pdf';

describe('figures of an uploaded PDF', () => {
  let t: TestApp;
  let token: string;
  let code: string;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
    token = await registerUser(t, 'reader');
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: path.basename(PAPER), data: await readFile(path.join(CORPUS, PAPER)) },
      token,
    );
    const saved = await t.call('POST', '/api/book/saveNew', {
      token,
      body: { fileId: upload.data.fileId, bookName: 'tracemonkey', bookStatus: 0, language: 'zh' },
    });
    const id = saved.data.requestId;
    for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
      const res = await pollStage(t, `/api/book/${stage}?requestId=${id}`, token, 180_000);
      if (stage === 'saveBookById') code = res.data.result.bookCode;
    }
  }, 300_000);
  afterAll(async () => t?.close());

  async function allBlocks(): Promise<PageBlock[]> {
    const out: PageBlock[] = [];
    for (let page = 1; ; page++) {
      const res = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=en&page=${page}`, { token });
      expect(res.code).toBe(0);
      out.push(...(res.data.blocks as PageBlock[]));
      if (page >= res.data.pageCount) return out;
    }
  }

  it('serves each figure, cropped sharp from its page, by its signed URL next to its caption', async () => {
    const blocks = await allBlocks();
    const captionAt = blocks.findIndex((b) => b.type === 'paragraph' && b.text.startsWith('Figure 4. x86 snippet'));
    expect(captionAt).toBeGreaterThan(0);
    const figure = [blocks[captionAt - 1]!, blocks[captionAt + 1]!].find((b) => b.type === 'image');
    expect(figure?.imageUrl, 'an image block beside the caption').toBeTruthy();
    expect(figure!.pdfPage).toBe(blocks[captionAt]!.pdfPage);

    // As an <img> fetches it: no token, the signature in the URL.
    const served = await t.app.inject({ method: 'GET', url: figure!.imageUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/(webp|jpeg|png)/);
    const { loadImage } = await import('@napi-rs/canvas');
    const picture = await loadImage(served.rawPayload);
    // A column-wide figure at 3 pixels per point: sharp on a 375 px phone at 2x.
    expect(picture.width).toBeGreaterThanOrEqual(700);

    // Unsigned, it is refused (as if it did not exist).
    expect((await t.app.inject({ method: 'GET', url: figure!.imageUrl!.split('?')[0]! })).statusCode).toBe(404);

    // The listing inside the figure is no paragraph of the book.
    const paragraphs = blocks.filter((b) => b.type === 'paragraph').map((b) => b.text);
    expect(paragraphs.some((p) => /^mov\s|^cmp\s|^jne\s/i.test(p))).toBe(false);
  });
});
