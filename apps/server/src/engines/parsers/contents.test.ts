/**
 * Contents as books declare them, at every depth: generated books of each structure (an EPUB 3 nav
 * three levels deep, an EPUB 2 NCX with nested navPoints, Standard Ebooks' parts of episodes and
 * years of months, a DOCX with three heading levels, a PDF outline, texts with 第N回 and Глава N
 * headings, a Word 95 novel), and the corpus EPUBs, each compared entry by entry with the contents
 * read from the file by an independent walk (testing/declared-contents.ts): title, depth, and the
 * text where the entry leads.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { docParser } from './doc/doc.ts';
import { pdfFixture, type FixtureOutline } from './pdf/pdf-fixture.ts';
import { parseBook } from './registry.ts';
import {
  glavaText,
  glavaWord95,
  headingsDocx,
  huiText,
  nestedNavEpub,
  nestedNcxEpub,
  pepysEpub,
  storyCollectionText,
  ULYSSES_EPISODES,
  ulyssesEpub,
} from './testing/contents-books.ts';
import { declaredContents, textAt } from './testing/declared-contents.ts';
import { txtParser } from './txt/txt.ts';
import type { ParsedBook } from './types.ts';

const CORPUS = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus');
const WILD = path.join(CORPUS, '../wild');

const blockText = (book: ParsedBook, id: string) =>
  book.chapters.flatMap((c) => c.blocks).find((b) => b.id === id)?.text ?? `(no block ${id})`;
/** The contents as title, depth and the text of the block each entry leads to. */
const tree = (book: ParsedBook) =>
  book.contents.map((e) => [e.title, e.level, blockText(book, e.blockId)] as [string, number, string]);

/**
 * Compares a parsed EPUB's contents with the ones the file declares: same entries in the same order,
 * same titles (where the file gives one) and depths, and each leading to a block that starts the
 * text found where the file points.
 */
async function expectDeclaredContents(epub: Buffer): Promise<ParsedBook> {
  const zip = await JSZip.loadAsync(epub);
  const declared = await declaredContents(zip);
  const book = await parseBook(epub);
  expect(book.contents.length).toBe(declared.length);
  const wrong: string[] = [];
  for (const [i, entry] of book.contents.entries()) {
    const want = declared[i]!;
    if (entry.level !== want.level || (want.title && entry.title !== want.title)) {
      wrong.push(`${i}: ${entry.title} (${entry.level}), declared ${want.title} (${want.level})`);
      continue;
    }
    // The navigation document is not read as the book's text: an entry to it leads on.
    if (/nav\.x?html$/.test(want.path)) continue;
    const there = await textAt(zip, want.path, want.fragment);
    const got = blockText(book, entry.blockId).replace(/\s+/g, '');
    // The block starts where the entry points, or holds the place (an anchor inside a paragraph).
    if (there === undefined || !(there.startsWith(got.slice(0, 12)) || got.includes(there.slice(0, 12)))) {
      wrong.push(`${i}: ${entry.title} leads to "${got.slice(0, 30)}", declared at "${there?.slice(0, 30)}"`);
    }
  }
  expect(wrong).toEqual([]);
  return book;
}

describe('contents declared by an EPUB', () => {
  it('keeps an EPUB 3 nav three levels deep: labels without links, entries into the middle of a file, several to one place', async () => {
    const book = await expectDeclaredContents(await nestedNavEpub());
    expect(tree(book)).toEqual([
      ['Front Matter', 1, 'Front Matter'],
      ['Part One', 1, 'Chapter 1'],
      ['Chapter 1', 2, 'Chapter 1'],
      ['1.1 First Section', 3, '1.1 First Section'],
      ['1.2 Second Section', 3, 'Some text and a section that starts inside a paragraph.'],
      ['Chapter 2', 2, 'Chapter 2'],
      ['2.1 Only Section', 3, '2.1 Only Section'],
      ['Chapter 3', 2, 'Chapter 3'],
      ['Chapter 3, its heading', 3, 'Chapter 3'],
      ['3.1 Deep', 3, '3.1 Deep'],
      ['Afterword', 1, 'Afterword'],
    ]);
    // Entries to the same place lead to the same block.
    expect(book.contents[7]!.blockId).toBe(book.contents[8]!.blockId);
  });

  it('keeps an EPUB 2 NCX with nested navPoints, a navPoint without a target among them', async () => {
    const book = await expectDeclaredContents(await nestedNcxEpub());
    expect(book.contents.map((e) => e.level)).toEqual([1, 2, 3, 2, 3, 1, 2, 3, 2, 3, 1, 2, 3, 2, 3]);
    // "Book 2" has no target of its own: it leads where its first chapter does.
    expect(tree(book)[5]).toEqual(['Book 2', 1, 'Chapter 2.1']);
  });

  it('reads Standard Ebooks’ parts of episodes (Ulysses) and years of months (Pepys): every entry, each file a chapter', async () => {
    const ulysses = await expectDeclaredContents(await ulyssesEpub());
    expect(ulysses.contents.filter((e) => e.level === 2).map((e) => e.title)).toEqual(ULYSSES_EPISODES);
    expect(ulysses.contents.filter((e) => e.level === 3).map((e) => e.title)).toEqual(['Scene one', 'Scene two']);
    // Each episode is a chapter of its own (pages and the translation's context follow chapters).
    const [I, II, III] = ULYSSES_EPISODES;
    expect(ulysses.chapters.map((c) => c.title)).toEqual([
      'Titlepage',
      I,
      ...ULYSSES_EPISODES.slice(0, 3),
      II,
      ...ULYSSES_EPISODES.slice(3, 15),
      III,
      ...ULYSSES_EPISODES.slice(15),
    ]);

    const pepys = await expectDeclaredContents(await pepysEpub());
    expect(pepys.contents).toHaveLength(10 + 9 * 12 + 5);
    expect(pepys.chapters.length).toBeGreaterThanOrEqual(113);
  });

  const corpusEpubs = [
    path.join(CORPUS, 'epub/en-dante-vision-of-hell-epub2-images.epub'),
    path.join(CORPUS, 'epub/zh-debmake-doc-epub2.epub'),
    path.join(CORPUS, 'epub/en-moby-dick-epub3.epub'),
    path.join(CORPUS, 'epub/zh-hongloumeng-epub2.epub'),
    path.join(WILD, 'epub/en-childrens-literature-epub3-long.epub'),
    path.join(WILD, 'epub/zh-debian-edu-manual-nested-root-folder.epub'),
    path.join(WILD, 'epub/la-liber-esther-epub2-english-boilerplate.epub'),
    path.join(WILD, 'epub/jp-internal-links-kanji-ids.epub'),
  ];
  it.skipIf(!existsSync(CORPUS))(
    'keeps the contents of the corpus EPUBs as they declare them (navs with labels and hidden lists, NCXs six levels deep)',
    async () => {
      const depths: number[] = [];
      for (const file of corpusEpubs) {
        const book = await expectDeclaredContents(readFileSync(file));
        depths.push(Math.max(...book.contents.map((e) => e.level)));
      }
      // Dante 3, debmake 5, Debian Edu 6, Children's Literature 4 levels (its nav's labels without links).
      expect(depths).toEqual([3, 5, 1, 1, 4, 6, 4, 2]);
    },
    120_000,
  );
});

describe('contents of documents without a declared table', () => {
  it('lists a DOCX’s headings at three levels (not its Title), each leading to its heading', async () => {
    const book = await parseBook(headingsDocx());
    expect(tree(book)).toEqual(
      [1, 2].flatMap((c) => [
        [`Chapter ${c}`, 1, `Chapter ${c}`],
        ...[1, 2].flatMap((s) => [
          [`Section ${c}.${s}`, 2, `Section ${c}.${s}`],
          [`Subsection ${c}.${s}.1`, 3, `Subsection ${c}.${s}.1`],
        ]),
      ]),
    );
    expect(book.chapters.map((c) => c.title)).toEqual(['A Handbook', 'Chapter 1', 'Chapter 2']);
  });

  it('lists an RTF’s headings at three levels (styles by outline level and by name)', async () => {
    const para = (style: number | undefined, text: string) => `\\pard\\plain${style ? `\\s${style}` : ''} ${text}\\par`;
    const body = [1, 2].flatMap((c) => [
      para(1, `Chapter ${c}`),
      para(undefined, `Text of chapter ${c}, long enough to be a paragraph of its own here.`),
      para(2, `Section ${c}.1`),
      para(undefined, `Text of section ${c}.1, long enough to be a paragraph of its own.`),
      para(3, `Subsection ${c}.1.1`),
      para(undefined, `Text of subsection ${c}.1.1, long enough to be a paragraph of its own.`),
    ]);
    const styles =
      '{\\stylesheet{\\ql Normal;}{\\s1\\outlinelevel0 heading 1;}{\\s2\\outlinelevel1 heading 2;}{\\s3 heading 3;}}';
    const book = await docParser.parse(
      Buffer.from(`{\\rtf1\\ansi\\ansicpg1252${styles}\n${body.join('\n')}}`, 'latin1'),
    );
    expect(tree(book)).toEqual(
      [1, 2].flatMap((c) => [
        [`Chapter ${c}`, 1, `Chapter ${c}`],
        [`Section ${c}.1`, 2, `Section ${c}.1`],
        [`Subsection ${c}.1.1`, 3, `Subsection ${c}.1.1`],
      ]),
    );
  });

  it('lists a PDF’s whole outline, each entry leading to the first block at its place', async () => {
    const page = (lines: string[]) => ({ runs: lines.map((text, i) => ({ text, x: 72, y: 700 - i * 40, size: 11 })) });
    const pdf = pdfFixture(
      [
        page(['Part One', 'The first part opens here with a sentence or two.']),
        page([
          'Chapter 1',
          'The first chapter goes on and on, a sentence.',
          'Section 1.1',
          'Then a section of the chapter.',
        ]),
        page(['Chapter 2', 'The second chapter, with its own sentence here.']),
        page(['Part Two', 'The second part, a sentence to read in it.']),
      ],
      {
        outline: [
          {
            title: 'Part One',
            page: 1,
            children: [
              { title: 'Chapter 1', page: 2, y: 712, children: [{ title: 'Section 1.1', page: 2, y: 632 }] },
              { title: 'Chapter 2', page: 3, y: 712 },
            ],
          },
          { title: 'Part Two', page: 4 },
        ] satisfies FixtureOutline[],
      },
    );
    const book = await parseBook(Buffer.from(pdf));
    expect(tree(book)).toEqual([
      ['Part One', 1, 'Part One'],
      ['Chapter 1', 2, 'Chapter 1'],
      ['Section 1.1', 3, 'Section 1.1'],
      ['Chapter 2', 2, 'Chapter 2'],
      ['Part Two', 1, 'Part Two'],
    ]);
  });

  it('makes chapters of 第N回 headings within 卷 parts, skipping the table of contents, named by their headings', async () => {
    const book = await txtParser.parse(Buffer.from(huiText()));
    expect(book.contents.map((e) => [e.title, e.level])).toEqual([
      ['目录', 1],
      ['卷一', 1],
      ['第一回 甄士隐梦幻识通灵', 2],
      ['第二回 贾夫人仙逝扬州城', 2],
      ['卷二', 1],
      ['第三回 托内兄如海酬训教', 2],
    ]);
    expect(book.chapters.map((c) => c.title)).toEqual([
      '目录',
      '卷一',
      '第一回 甄士隐梦幻识通灵',
      '第二回 贾夫人仙逝扬州城',
      '卷二',
      '第三回 托内兄如海酬训教',
    ]);
    expect(book.chapters.every((c) => !c.generated)).toBe(true);
  });

  it('makes chapters of Глава N lines within Часть parts, in a text file', async () => {
    const book = await txtParser.parse(Buffer.from(glavaText(2, 2)));
    expect(book.contents.map((e) => [e.title, e.level])).toEqual([
      ['Часть первая', 1],
      ['Глава 1', 2],
      ['Глава 2', 2],
      ['Часть вторая', 1],
      ['Глава 3', 2],
      ['Глава 4', 2],
    ]);
    expect(book.contents.every((e) => blockText(book, e.blockId) === e.title)).toBe(true);
  });

  it('makes chapters of Глава N lines in a Russian Word 95 novel', async () => {
    const book = await docParser.parse(glavaWord95(3));
    expect(book.contents.map((e) => e.title)).toEqual(['Часть первая', 'Глава 1', 'Глава 2', 'Глава 3']);
    expect(book.chapters.some((c) => c.generated)).toBe(false);
  });

  it('names the stories of a collection by their titles standing alone between blank lines', async () => {
    const titles = ['青蛙王子', '猫和老鼠做朋友', '圣母的孩子', '十二兄弟'];
    const book = await txtParser.parse(Buffer.from(storyCollectionText(titles)));
    expect(book.contents.map((e) => e.title)).toEqual(['格林童话', ...titles]);
  });

  it('counts chapters numbered by roman numerals alone on their lines', async () => {
    const text = ['I', 'II', 'III', 'IV']
      .map(
        (n) =>
          `${n}\n\nThe story goes on here, with a long sentence of the chapter, and then another one.\n\nAnd a second paragraph, so that there is a body.`,
      )
      .join('\n\n');
    const book = await txtParser.parse(Buffer.from(text));
    expect(book.contents.map((e) => e.title)).toEqual(['I', 'II', 'III', 'IV']);
  });
});
