/**
 * Where each block of a PDF book stands on its page, as the reader's page data gives it (for the page
 * view beside the reflow): a real two-column paper uploaded and parsed through the pipeline, its pages
 * read back through HTTP.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PageBlock } from '@yidu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { CORPUS, pollStage, registerUser, startTestApp, uploadFile, type TestApp } from '../../../test/helpers.ts';

async function uploadBook(t: TestApp, token: string, file: string): Promise<string> {
  const upload = await uploadFile(
    t,
    '/api/book/upload',
    { name: path.basename(file), data: await readFile(path.join(CORPUS, file)) },
    token,
  );
  const saved = await t.call('POST', '/api/book/saveNew', {
    token,
    body: { fileId: upload.data.fileId, bookName: path.basename(file), bookStatus: 0, language: 'zh' },
  });
  const id = saved.data.requestId;
  for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
    const res = await pollStage(t, `/api/book/${stage}?requestId=${id}`, token, 120_000);
    if (stage === 'saveBookById') return res.data.result.bookCode;
  }
  throw new Error('unreachable');
}

describe('PDF regions in the page data', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let token: string;
  let paper: string;
  let novel: string;
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
    });
    token = await registerUser(t, 'reader');
    paper = await uploadBook(t, token, 'pdf/en-tracemonkey-two-column-footnotes.pdf');
    novel = await uploadBook(t, token, 'txt/en-pride-and-prejudice-cp1252-crlf.txt');
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Every block of the book, page by page, in the book's own language (nothing to translate). */
  async function allBlocks(code: string): Promise<PageBlock[]> {
    const out: PageBlock[] = [];
    for (let page = 1; ; page++) {
      const res = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=en&page=${page}`, { token });
      expect(res.code).toBe(0);
      out.push(...(res.data.blocks as PageBlock[]));
      if (page >= res.data.pageCount) return out;
    }
  }

  it('gives every block of a PDF its rectangles on its own page, inside the page', async () => {
    const blocks = await allBlocks(paper);
    expect(blocks.length).toBeGreaterThan(100);
    for (const block of blocks) {
      expect(block.pdfRegions?.length, block.id).toBeGreaterThan(0);
      expect(block.pdfRegions![0]!.page).toBe(block.pdfPage);
      for (const r of block.pdfRegions!) {
        expect(r.x).toBeGreaterThanOrEqual(0);
        expect(r.y).toBeGreaterThanOrEqual(0);
        expect(r.w).toBeGreaterThan(0);
        expect(r.h).toBeGreaterThan(0);
        expect(r.x + r.w).toBeLessThanOrEqual(1);
        expect(r.y + r.h).toBeLessThanOrEqual(1);
      }
    }
  });

  it('puts the paragraphs of a column one under the other, in reading order', async () => {
    const blocks = await allBlocks(paper);
    // Column pieces of paragraphs, by page and side: each starts below the one before it (ascenders
    // and descenders of tightly set lines may overlap a point or two).
    // Figures float: a figure and its caption come after the paragraph they interrupt (which goes on
    // below them), so captions — the paragraphs beside a picture — are left out of the order checked.
    const captions = new Set(
      blocks.filter((b, i) => blocks[i - 1]?.type === 'image' || blocks[i + 1]?.type === 'image').map((b) => b.id),
    );
    expect(captions.size).toBeGreaterThan(5);
    const pieces = new Map<string, { y: number; bottom: number }[]>();
    for (const b of blocks.filter((block) => block.type === 'paragraph' && !captions.has(block.id))) {
      for (const r of b.pdfRegions!) {
        // Column-wide pieces only (not the words of a diagram).
        if (r.w > 0.5 || r.w < 0.2) continue;
        const key = `${r.page}:${r.x < 0.5 ? 'left' : 'right'}`;
        pieces.set(key, [...(pieces.get(key) ?? []), { y: r.y, bottom: r.y + r.h }]);
      }
    }
    expect(pieces.size).toBeGreaterThan(20);
    for (const column of pieces.values()) {
      for (let i = 1; i < column.length; i++) {
        expect(column[i]!.y).toBeGreaterThan(column[i - 1]!.y);
        expect(column[i]!.y).toBeGreaterThanOrEqual(column[i - 1]!.bottom - 0.01);
      }
    }
    // A paragraph that goes on in the next column has a rectangle in each.
    expect(
      blocks.some((b) => b.pdfRegions!.length === 2 && b.pdfRegions![0]!.x < 0.5 && b.pdfRegions![1]!.x > 0.5),
    ).toBe(true);
  });

  it('gives no regions to the blocks of a book that is not a PDF', async () => {
    const res = await t.call('GET', `/api/reader/getPageData?bookCode=${novel}&language=en&page=2`, { token });
    expect(res.data.blocks.length).toBeGreaterThan(0);
    for (const block of res.data.blocks as PageBlock[]) expect(block.pdfRegions).toBeNull();
  });
});
