/**
 * Every file of the shared test corpus (../shared/corpus, see its MANIFEST.md) against the manifest's
 * expectations: title, language (detected from the parsed text), chapter count in the acceptable range,
 * or the right ParseError key for bad files.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectBookLanguage } from '../language/detect.ts';
import { disposeSharedOcrEngine } from '../ocr/tesseract.ts';
import { bookText } from './builder.ts';
import { ParseError } from './errors.ts';
import type { ParseErrorKey } from './errors.ts';
import { parseBook } from './registry.ts';
import type { ParsedBook } from './types.ts';

const CORPUS = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus');

interface Expectation {
  file: string;
  language?: string;
  title?: string | RegExp;
  author?: RegExp;
  chapters?: [number, number];
  error?: ParseErrorKey;
  check?: (book: ParsedBook) => void;
}

const allBlocks = (book: ParsedBook) => book.chapters.flatMap((c) => c.blocks);
const countType = (book: ParsedBook, type: string) => allBlocks(book).filter((b) => b.type === type).length;

const EXPECTATIONS: Expectation[] = [
  // EPUB
  {
    file: 'epub/en-moby-dick-epub3.epub',
    language: 'en',
    title: 'Moby-Dick',
    author: /Herman Melville/,
    chapters: [136, 150],
    check: (book) => {
      expect(book.cover?.mediaType).toMatch(/^image\//);
      expect(book.chapters.some((c) => /^Chapter 1\. Loomings/.test(c.title))).toBe(true);
      expect(book.chapters.some((c) => /Epilogue/i.test(c.title))).toBe(true);
    },
  },
  {
    file: 'epub/en-dante-vision-of-hell-epub2-images.epub',
    language: 'en',
    title: /^The vision of hell/i,
    author: /Dante/,
    chapters: [34, 45],
    check: (book) => {
      expect(book.chapters.filter((c) => /^CANTO [IVXL]+$/.test(c.title)).length).toBe(34);
      expect(book.images.length).toBeGreaterThanOrEqual(70);
    },
  },
  {
    file: 'epub/en-wasteland-epub3-endnotes-obfuscated-fonts.epub',
    language: 'en',
    title: 'The Waste Land',
    author: /Eliot/,
    chapters: [6, 8],
    check: (book) => {
      expect(countType(book, 'footnote')).toBeGreaterThanOrEqual(40);
      const ref = allBlocks(book).find((b) => b.noteRefs?.length);
      expect(ref?.html).toMatch(/<a href="#c\d+-b\d+">/);
      const note = allBlocks(book).find((b) => b.id === ref!.noteRefs![0]);
      expect(note?.type).toBe('footnote');
      expect(note?.referencedBy).toContain(ref!.id);
    },
  },
  {
    file: 'epub/ar-regime-anticancer-epub3-rtl.epub',
    language: 'ar',
    title: 'Le Vrai Régime anti-cancer',
    chapters: [1, 4],
    check: (book) => {
      expect(book.chapters.some((c) => c.blocks.some((b) => b.text.includes('الفصل الثاني')))).toBe(true);
      expect(countType(book, 'footnote')).toBeGreaterThanOrEqual(1);
    },
  },
  {
    file: 'epub/ja-kusamakura-epub3-vertical.epub',
    language: 'jp',
    title: '草枕',
    author: /夏目/,
    chapters: [13, 16],
    check: (book) => {
      // Ruby annotations live in html only; the text reads as the base text.
      const ruby = allBlocks(book).find((b) => b.html?.includes('<rt>'));
      expect(ruby).toBeDefined();
      const rt = /<rt>([^<]+)<\/rt>/.exec(ruby!.html!)![1]!;
      const base = /<ruby>([^<]+)<rt>/.exec(ruby!.html!)?.[1];
      if (base) expect(ruby!.text).not.toContain(base + rt);
      expect(book.chapters.filter((c) => /^[一二三四五六七八九十]+$/.test(c.title)).length).toBe(13);
    },
  },
  { file: 'epub/zh-hongloumeng-epub2.epub', language: 'zh', title: '红楼梦', author: /曹雪芹/, chapters: [120, 123] },
  { file: 'epub/zh-debmake-doc-epub2.epub', language: 'zh', title: 'Debian 维护者指南', chapters: [9, 14] },
  // PDF
  {
    file: 'pdf/en-free-culture-book.pdf',
    language: 'en',
    title: 'Free Culture',
    author: /Lessig/,
    chapters: [17, 30],
    check: (book) => {
      const text = bookText(book);
      expect(text).not.toMatch(/14773_\d+/);
      expect(text).not.toContain('<http://free-culture.org/get-it>');
      expect(book.chapters.some((c) => /Chapter 1: Creators/.test(c.title))).toBe(true);
      expect(allBlocks(book).every((b) => typeof b.pdfPage === 'number')).toBe(true);
    },
  },
  {
    file: 'pdf/en-pdkids-public-domain-stories.pdf',
    language: 'en',
    chapters: [8, 20],
    check: (book) => {
      expect(book.chapters.some((c) => /The Buried Moon/.test(c.title))).toBe(true);
      expect(bookText(book)).toContain('PD KIDS');
    },
  },
  {
    file: 'pdf/en-tracemonkey-two-column-footnotes.pdf',
    language: 'en',
    chapters: [10, 16],
    check: (book) => {
      expect(book.chapters[0]!.title).toMatch(/^Trace-based Just-in-Time Type Specialization/);
      expect(book.chapters.some((c) => c.title === '1. Introduction')).toBe(true);
      expect(book.chapters.some((c) => c.title === '9. Conclusions')).toBe(true);
      // Two-column reading order: the right column's paragraph continues in the right column.
      const para = allBlocks(book).find((b) => b.text.startsWith('i=3. Now the loop header'));
      expect(para?.text).toMatch(/starts recording\. When recording reaches line 4/);
      const note = allBlocks(book).find((b) => b.type === 'footnote' && /Arrays are actually worse/.test(b.text));
      expect(note?.noteLabel).toBe('1');
    },
  },
  { file: 'pdf/zh-debian-reference-cjk.pdf', language: 'zh', title: 'Debian 参考手册', chapters: [12, 15] },
  {
    file: 'pdf/en-scanned-huckfinn-page-image-only.pdf',
    language: 'en',
    chapters: [1, 1],
    check: (book) => {
      expect(book.stats.ocrPages).toBe(1);
      const text = bookText(book);
      for (const word of ['tip-toeing', 'kitchen', 'scratch', 'shoulders']) expect(text).toContain(word);
    },
  },
  { file: 'pdf/encrypted-user-password.pdf', error: 'fileEncrypted' },
  {
    file: 'pdf/en-encrypted-owner-password-only.pdf',
    language: 'en',
    chapters: [1, 1],
    check: (book) => expect(bookText(book)).toContain('Personal Vitality Rebate'),
  },
  { file: 'pdf/broken-no-trailer-fuzzed.pdf', error: 'fileCorrupted' },
  { file: 'pdf/broken-header-then-eof.pdf', error: 'fileCorrupted' },
  // DOCX
  {
    file: 'docx/en-blogcfc-manual-headings.docx',
    language: 'en',
    title: 'BlogCFC 3',
    author: /Camden/,
    chapters: [25, 29],
    check: (book) => expect(book.chapters.some((c) => c.title === 'License and Credits')).toBe(true),
  },
  {
    file: 'docx/en-cancer-statistics-images.docx',
    language: 'en',
    chapters: [1, 5],
    check: (book) => {
      expect(book.images.length).toBeGreaterThanOrEqual(10);
      expect(bookText(book)).toContain('Number of New Cases and Deaths');
      expect(countType(book, 'table')).toBeGreaterThan(0);
    },
  },
  {
    file: 'docx/ru-contract-footnotes.docx',
    language: 'ru',
    title: 'ЧАСТЬ II',
    chapters: [1, 10],
    check: (book) => {
      const notes = allBlocks(book).filter((b) => b.type === 'footnote');
      expect(notes.length).toBeGreaterThanOrEqual(6);
      expect(notes.some((n) => n.text.includes('В соответствии с частью 13 статьи 34'))).toBe(true);
      expect(notes.some((n) => n.referencedBy?.length)).toBe(true);
    },
  },
  {
    file: 'docx/zh-mixed-short.docx',
    language: 'zh',
    chapters: [1, 1],
    check: (book) => expect(bookText(book)).toContain('This is a test for parsing the Word file in node.'),
  },
  { file: 'docx/broken-truncated-zip.docx', error: 'fileCorrupted' },
  // DOC
  {
    file: 'doc/en-parental-involvement-guidance.doc',
    language: 'en',
    title: /^Parental Involvement/,
    chapters: [5, 15],
    check: (book) => {
      expect(bookText(book)).not.toMatch(/PAGEREF|HYPERLINK|TOC \\o/);
      expect(book.chapters.some((c) => c.title === 'A. GENERAL INFORMATION')).toBe(true);
    },
  },
  {
    file: 'doc/ru-course-document.doc',
    language: 'ru',
    chapters: [5, 45],
    check: (book) => {
      expect(bookText(book)).toContain('ПОЛОЖЕНИЕ');
      expect(bookText(book)).not.toContain('undefined');
    },
  },
  {
    file: 'doc/zh-mixed-short-fastsaved.doc',
    language: 'zh',
    chapters: [1, 1],
    check: (book) => expect(bookText(book)).toContain('这是一个用来测试nodejs解析Word文档'),
  },
  { file: 'doc/broken-bad-header.doc', error: 'fileCorrupted' },
  // TXT
  {
    file: 'txt/en-sherlock-holmes-utf8-bom-crlf.txt',
    language: 'en',
    title: 'The Adventures of Sherlock Holmes',
    author: /Doyle/,
    chapters: [12, 14],
    check: (book) => {
      const text = bookText(book);
      expect(text.startsWith('\ufeff')).toBe(false);
      expect(text).not.toContain('\r');
      expect(text).not.toMatch(/Project Gutenberg-tm/);
      const first = book.chapters.find((c) => /A SCANDAL IN BOHEMIA/.test(c.title))!;
      expect(first.blocks.find((b) => b.text.startsWith('To Sherlock Holmes she is always'))?.text).toMatch(
        /any emotion akin to love for Irene Adler\. All emotions/,
      );
    },
  },
  {
    file: 'txt/en-pride-and-prejudice-cp1252-crlf.txt',
    language: 'en',
    title: 'Pride and Prejudice',
    author: /Austen/,
    chapters: [61, 63],
    check: (book) => {
      expect(book.stats.encoding).toBe('windows-1252');
      expect(bookText(book)).toContain('“My dear Mr. Bennet,”');
    },
  },
  {
    file: 'txt/zh-sanguo-yanyi-gbk.txt',
    language: 'zh',
    chapters: [120, 122],
    check: (book) => {
      expect(book.stats.encoding).toBe('gb18030');
      expect(book.chapters[0]!.title).toMatch(/^第一回/);
    },
  },
  {
    file: 'txt/zh-xiyouji-gb18030.txt',
    language: 'zh',
    title: '西游记',
    chapters: [100, 102],
    check: (book) => {
      expect(book.stats.encoding).toBe('gb18030');
      expect(bookText(book)).toContain('㳠');
      expect(book.chapters.filter((c) => /^第.+回/.test(c.title)).length).toBe(100);
    },
  },
  {
    file: 'txt/zh-hant-haoqiu-zhuan-big5.txt',
    language: 'zh-TW',
    title: '好逑傳',
    chapters: [18, 20],
    check: (book) => expect(book.stats.encoding).toBe('big5'),
  },
  {
    file: 'txt/ja-wagahai-neko-sjis-crlf.txt',
    language: 'jp',
    title: '吾輩は猫である',
    author: /夏目漱石/,
    chapters: [11, 11],
    check: (book) => {
      expect(book.stats.encoding).toBe('shift_jis');
      const text = bookText(book);
      expect(text).not.toMatch(/[《》｜]|［＃/);
      expect(text).toContain('吾輩は猫である。名前はまだ無い。');
    },
  },
  {
    file: 'txt/ja-wagahai-neko-utf8-bom.txt',
    language: 'jp',
    title: '吾輩は猫である',
    chapters: [11, 11],
    check: (book) => expect(bookText(book)).not.toMatch(/[《》｜]|［＃/),
  },
  {
    file: 'txt/en-subtitle-utf16le-bom.txt',
    language: 'en',
    chapters: [1, 1],
    check: (book) => {
      expect(book.stats.encoding).toBe('utf-16le');
      expect(bookText(book)).toContain('About 2 months ago I found myself on the comment section of YouTube');
    },
  },
  // Bad inputs
  { file: 'bad/png-image-named-as.pdf', error: 'unsupportedFileType' },
  { file: 'bad/truncated-moby-dick.epub', error: 'fileCorrupted' },
  { file: 'bad/empty.txt', error: 'emptyFile' },
];

describe.skipIf(!existsSync(CORPUS))('corpus', () => {
  afterAll(() => disposeSharedOcrEngine());

  it('covers every corpus file', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(CORPUS, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !/MANIFEST|SHA256SUMS/.test(e.name))
      .map((e) => path.relative(CORPUS, path.join(e.parentPath, e.name)));
    const covered = new Set([...EXPECTATIONS.map((e) => e.file), 'pdf/broken-null-pages-tree.pdf']);
    expect(files.filter((f) => !covered.has(f))).toEqual([]);
  });

  for (const expected of EXPECTATIONS) {
    it(expected.file, async () => {
      const input = readFileSync(path.join(CORPUS, expected.file));
      if (expected.error) {
        const error = await parseBook(input).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ParseError);
        expect((error as ParseError).key).toBe(expected.error);
        return;
      }
      const book = await parseBook(input);
      if (expected.language) expect(detectBookLanguage(book).code).toBe(expected.language);
      if (expected.title instanceof RegExp) expect(book.metadata.title).toMatch(expected.title);
      else if (expected.title) expect(book.metadata.title).toBe(expected.title);
      if (expected.author) expect(book.metadata.author).toMatch(expected.author);
      if (expected.chapters) {
        expect(book.chapters.length).toBeGreaterThanOrEqual(expected.chapters[0]);
        expect(book.chapters.length).toBeLessThanOrEqual(expected.chapters[1]);
      }
      const ids = new Set<string>();
      for (const [ci, chapter] of book.chapters.entries()) {
        expect(chapter.blocks.length).toBeGreaterThan(0);
        // A title of the book's, or one Yidu made ("Part 3"), said in the reader's language.
        expect(chapter.title || chapter.generated).toBeTruthy();
        chapter.blocks.forEach((b, bi) => expect(b.id).toBe(`c${ci + 1}-b${bi + 1}`));
        for (const b of chapter.blocks) ids.add(b.id);
      }
      // The contents: a tree (a level at most one below the entry before), every entry named and
      // leading to a block of the book.
      expect(book.contents.length).toBeGreaterThan(0);
      book.contents.forEach((entry, i) => {
        expect(entry.level).toBeLessThanOrEqual((book.contents[i - 1]?.level ?? 0) + 1);
        expect(entry.title || entry.generated).toBeTruthy();
        expect(ids.has(entry.blockId)).toBe(true);
      });
      expected.check?.(book);
    });
  }

  it('pdf/broken-null-pages-tree.pdf: recovers what pdf.js can read, or fails cleanly', async () => {
    const input = readFileSync(path.join(CORPUS, 'pdf/broken-null-pages-tree.pdf'));
    const result = await parseBook(input).catch((e: unknown) => e);
    if (result instanceof Error) expect((result as ParseError).key).toBe('fileCorrupted');
    else expect((result as ParsedBook).chapters.length).toBeGreaterThan(0);
  });

  it('refuses an empty file whatever its name', async () => {
    for (const key of ['emptyFile'] as const) {
      const error = await parseBook(Buffer.alloc(0)).catch((e: unknown) => e);
      expect((error as ParseError).key).toBe(key);
    }
  });
});
