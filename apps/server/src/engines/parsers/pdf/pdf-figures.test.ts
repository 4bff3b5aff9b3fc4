/**
 * Figures, tables and displayed formulas of real PDFs (../shared/corpus and ../shared/wild): each
 * captioned figure or table is an image block cropped from its page, next to its caption; the text
 * inside a figure is no paragraph; page 1 gives the title where the metadata has none.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBook } from '../registry.ts';
import type { Block, ParsedBook } from '../types.ts';
import { disposePdfThreads } from './pdf-threads.ts';

const CORPUS = process.env.YIDU_CORPUS_DIR ?? path.resolve(import.meta.dirname, '../../../../../../../shared/corpus');
const WILD = path.resolve(CORPUS, '../wild');

afterAll(() => disposePdfThreads());

const blocks = (book: ParsedBook): Block[] => book.chapters.flatMap((c) => c.blocks);
const parse = async (file: string) => parseBook(await readFile(file));

/** A caption as the paper sets it ("Figure 3.", "Table I 95%…", "图 2 …"), not a sentence ("Figure 3 shows"). */
const CAPTION = /^(?:Figure|Fig\.|Table|Abbildung|图|表)\s*(?:\d+(?:\.\d+)*|[IVX]+)(?:\s*[.:：]|\s+[\p{Lu}\d(]|\s*$)/u;

/** Every caption block has an image block next to it, on its page. */
function expectCaptionsBesideFigures(all: Block[]): number {
  let captions = 0;
  all.forEach((b, i) => {
    if (b.type !== 'paragraph' || !CAPTION.test(b.text)) return;
    captions++;
    const beside = [all[i - 1], all[i + 1]].find((n) => n?.type === 'image' && n.pdfPage === b.pdfPage);
    expect(beside, `image beside "${b.text.slice(0, 60)}" (page ${b.pdfPage})`).toBeDefined();
  });
  return captions;
}

/** A paragraph of a figure's insides: axis ticks, a legend's numbers. */
const STRAY = /^[\d\s.,%+\-−–]*$/u;

describe('figures and tables of real PDFs', () => {
  it('tracemonkey: each figure beside its caption, its listings and diagrams not read as text', async () => {
    const book = await parse(path.join(CORPUS, 'pdf/en-tracemonkey-two-column-footnotes.pdf'));
    const all = blocks(book);
    expect(expectCaptionsBesideFigures(all)).toBeGreaterThanOrEqual(12);
    const text = all.filter((b) => b.type === 'paragraph').map((b) => b.text);
    // Figure 1's program and Figure 4's x86 code are pictures now.
    expect(text.some((t) => t.includes('for (var i = 2; i < 100; ++i)'))).toBe(false);
    expect(text.some((t) => /^mov\s|^cmp\s/.test(t))).toBe(false);
    // Figure 2's state machine: its words are in the picture.
    expect(text.some((t) => /Symbol Key|cold\/blacklisted|compiled trace ready/.test(t))).toBe(false);
    // Every image block is a stored picture, sharp at 3 pixels per point.
    const images = new Map(book.images.map((im) => [im.id, im]));
    for (const b of all.filter((block) => block.type === 'image')) {
      const image = images.get(b.imageId!)!;
      expect(image.data.length).toBeGreaterThan(500);
      expect(b.pdfRegions?.[0]?.page).toBe(b.pdfPage);
    }
    const figure4 = all.findIndex((b) => b.text.startsWith('Figure 4. x86 snippet'));
    const crop = images.get([all[figure4 - 1], all[figure4 + 1]].find((b) => b?.type === 'image')!.imageId!)!;
    expect(crop.width).toBeGreaterThanOrEqual(700);
    // The metadata has no title: page 1's largest text is the title, the names under it the authors.
    expect(book.metadata.title).toBe('Trace-based Just-in-Time Type Specialization for Dynamic Languages');
    expect(book.metadata.author).toMatch(/^Andreas Gal, Brendan Eich, Mike Shaver/);
  }, 120_000);

  it('keeps the metadata title, and the metadata author where page 1 names none', async () => {
    const kids = await parse(path.join(CORPUS, 'pdf/en-pdkids-public-domain-stories.pdf'));
    expect(kids.metadata.author).toBe('Matt Pierard');
    const article = await parse(path.join(WILD, 'pdf/en-journal-article-17-pages-3b2.pdf'));
    expect(article.metadata.title).toBe('Shift work interventions for reduced work-family conflict');
    expect(article.metadata.author).toBe('Marie Gee Wilson, Andrea Polzer-Debruyne');
  }, 120_000);

  it('IEEE paper: figures and tables beside their captions, no paragraphs of axis numbers', async () => {
    const book = await parse(path.join(WILD, 'pdf/en-ieee-paper-two-column-tex-control-chars.pdf'));
    const all = blocks(book);
    expect(expectCaptionsBesideFigures(all)).toBeGreaterThanOrEqual(3);
    const text = all.filter((b) => b.type === 'paragraph').map((b) => b.text);
    expect(text.filter((t) => STRAY.test(t))).toEqual([]);
    // The metadata's title is a file name: page 1's title stands instead.
    expect(book.metadata.title).toMatch(/^Individual Differential Privacy/);
    expect(book.metadata.author).toBe('Jordi Soria-Comas, Josep Domingo-Ferrer, David Sánchez, and David Megías');
  }, 120_000);

  // Papers, manuals and reports with figures: captions found, and pictures where there are none.
  it.each([
    ['wild/pdf/en-journal-article-17-pages-3b2.pdf', 4, 4],
    ['corpus/pdf/zh-debian-reference-cjk.pdf', 100, 100],
    ['wild/pdf/fr-transport-plan-65-pages-word.pdf', 0, 20],
    ['wild/pdf/zh-quarterly-report-22-pages-wps.pdf', 0, 3],
    ['wild/pdf/jp-amc-manual-78-pages-dblatex.pdf', 0, 10],
    ['corpus/pdf/en-free-culture-book.pdf', 0, 10],
  ])(
    '%s: every caption has its picture beside it',
    async (file, captions, pictures) => {
      const book = await parse(path.resolve(CORPUS, '..', file));
      const all = blocks(book);
      expect(expectCaptionsBesideFigures(all)).toBeGreaterThanOrEqual(captions);
      expect(all.filter((b) => b.type === 'image').length).toBeGreaterThanOrEqual(pictures);
      expect(book.images.length).toBe(new Set(all.filter((b) => b.type === 'image').map((b) => b.imageId)).size);
    },
    300_000,
  );
});

describe('displayed formulas', () => {
  it('IEEE paper: displayed equations are pictures, inline mathematics stays in the sentence', async () => {
    const book = await parse(path.join(WILD, 'pdf/en-ieee-paper-two-column-tex-control-chars.pdf'));
    const all = blocks(book);
    // Definition 2's sensitivity formula is displayed after "…of a function f : D → Rk is".
    const before = all.findIndex((b) => b.text.startsWith('Definition 2 (l1-sensitivity'));
    expect(before).toBeGreaterThan(0);
    expect(all[before + 1]!.type).toBe('image');
    expect(all[before + 2]!.text).toMatch(/^where d\(x, y\) means/);
    // Inline mathematics stays in its sentence.
    expect(all[before]!.text).toContain('f : D → Rk');
    // No paragraph is a formula's pieces: a lone "k=0,...,n" or "1".
    const text = all.filter((b) => b.type === 'paragraph').map((b) => b.text.trim());
    expect(text.filter((t) => /^k=0,\.\.\.,n$|^\d$|^n$/.test(t))).toEqual([]);
    // Proposition 5's inequality is as wide as the column and has no number: a picture all the same,
    // its big parentheses and the β under its fraction bars with it, not paragraphs "(", ")", "β".
    const proposition = all.findIndex((b) => b.text.startsWith('Proposition 5.'));
    expect(all[proposition + 1]!.type).toBe('image');
    expect(all[proposition + 2]!.text).toMatch(/^Let D′ be a data set/);
    expect(text.filter((t) => /^[()β]$|‖z − z′‖1 ≤ Pr/.test(t))).toEqual([]);
  }, 120_000);
});
