/**
 * Figures of a PDF paper in the reader: a real two-column paper uploaded and parsed through the
 * pipeline, its figures cropped from the pages, stored with the book's images and served through
 * the signed media URLs the page data gives, their captions translatable paragraphs beside them.
 * The parse crops only the first two figures here (PDF_CROPS_IN_PARSE): the rest are made by the
 * book.crops job after the book is stored, and the page says "still being made" until then.
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
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false', PDF_CROPS_IN_PARSE: '2' });
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

  /** The blocks once no picture is still being made (the book.crops job has done its work). */
  async function blocksWithEveryPicture(): Promise<PageBlock[]> {
    const until = Date.now() + 180_000;
    for (;;) {
      const blocks = await allBlocks();
      if (!blocks.some((b) => b.imagePending)) return blocks;
      if (Date.now() > until) throw new Error('pictures still pending after 180 s');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  const bookId = async () =>
    (await t.running.infra.db.selectFrom('books').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;

  it('serves each figure, cropped sharp from its page, by its signed URL next to its caption', async () => {
    const blocks = await blocksWithEveryPicture();
    const images = blocks.filter((b) => b.type === 'image');
    // Far more figures than the parse crops: the job made the others, and every one has its picture.
    expect(images.length).toBeGreaterThan(10);
    expect(images.filter((b) => !b.imageUrl)).toEqual([]);
    const rows = await t.running.infra.db
      .selectFrom('book_pending_crops')
      .select('image_id')
      .where('book_id', '=', await bookId())
      .execute();
    expect(rows).toEqual([]);
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

  it('says a picture is being made while it is, and shows it once the job (or the sweep, for a lost job) has made it', async () => {
    const db = t.running.infra.db;
    const id = await bookId();
    const before = (await allBlocks()).filter((b) => b.type === 'image');
    const figure = before.at(-1)!;
    const stored = await db
      .selectFrom('book_blocks as b')
      .innerJoin('book_images as i', (j) =>
        j.onRef('i.book_id', '=', 'b.book_id').onRef('i.image_id', '=', 'b.image_id'),
      )
      .select(['b.image_id', 'b.pdf_regions', 'i.storage_key'])
      .where('b.book_id', '=', id)
      .where('b.block_id', '=', figure.id)
      .executeTakeFirstOrThrow();
    // As the parse leaves a figure for later: no picture yet, a pending crop for its region.
    const region = stored.pdf_regions![0]!;
    await db.deleteFrom('book_images').where('book_id', '=', id).where('image_id', '=', stored.image_id!).execute();
    await db
      .insertInto('book_pending_crops')
      .values({
        book_id: id,
        image_id: stored.image_id!,
        page: region.page,
        region: JSON.stringify({ ...region, y: Math.max(0, region.y - 0.01), h: region.h + 0.02 }),
        photo: null,
        updated_at: new Date(Date.now() - 3600_000),
      })
      .execute();
    const pendingNow = (await allBlocks()).find((b) => b.id === figure.id)!;
    expect(pendingNow).toMatchObject({ imageUrl: null, imagePending: true });

    // Its job lost (an hour untouched): the workers' sweep queues it again, and the picture is made.
    expect(await t.running.services.bookCrops.sweep()).toBe(1);
    const after = (await blocksWithEveryPicture()).find((b) => b.id === figure.id)!;
    expect(after.imagePending).toBeUndefined();
    const served = await t.app.inject({ method: 'GET', url: after.imageUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/(webp|jpeg)/);
    // A crop that is no longer pending is not made twice.
    expect(await t.running.services.bookCrops.run(id)).toEqual({ made: 0, failed: 0 });
  });
});
