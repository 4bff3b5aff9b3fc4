import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { BookBuilder } from './builder.ts';
import type { ParseError } from './errors.ts';
import { addTextChapters, headingLevel, splitParagraphs } from './text-structure.ts';
import { decodeText, txtParser } from './txt.ts';

const NOVEL_ZH = Array.from(
  { length: 3 },
  (_, i) =>
    `第${'一二三'[i]}回\u3000标题${i}\n\u3000\u3000话说天下大势，分久必合，合久必分。这是第${i}回的正文，内容足够长以便成为一个章节。\n\u3000\u3000第二段也在这里。`,
).join('\n');

describe('TXT encodings', () => {
  it('detects BOMs, UTF-8 and legacy encodings', () => {
    expect(decodeText(Buffer.from('\ufeffhello', 'utf8')).encoding).toBe('utf-8');
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode('hé', 'utf16-be')])).text).toBe('hé');
    expect(decodeText(Buffer.from('\ufeffhé', 'utf16le'))).toEqual({ text: 'hé', encoding: 'utf-16le' });
    const zh = NOVEL_ZH.repeat(3);
    expect(decodeText(iconv.encode(zh, 'gb18030'))).toEqual({ text: zh, encoding: 'gb18030' });
    const tw = '話說前朝北直隸大名府，有一個秀才，姓鐵雙名中玉，表字挺生，生得丰姿俊秀，就像一個美人。'.repeat(5);
    expect(decodeText(iconv.encode(tw, 'big5'))).toEqual({ text: tw, encoding: 'big5' });
    const ja = '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。'.repeat(5);
    expect(decodeText(iconv.encode(ja, 'shift_jis'))).toEqual({ text: ja, encoding: 'shift_jis' });
    const fr = 'Les élèves étaient déjà là, près de la fenêtre, à côté du château. « Ça va ? » '.repeat(5);
    expect(decodeText(iconv.encode(fr, 'windows-1252')).text).toBe(fr);
  });

  it('refuses empty files', async () => {
    const error = await txtParser.parse(Buffer.alloc(0)).catch((e: unknown) => e);
    expect((error as ParseError).key).toBe('emptyFile');
    const blank = await txtParser.parse(Buffer.from('\r\n  \n')).catch((e: unknown) => e);
    expect((blank as ParseError).key).toBe('emptyFile');
  });
});

describe('TXT structure', () => {
  it('recognises chapter headings', () => {
    for (const h of [
      '第一章 开始',
      '第十二回\u3000标题',
      '第１２３章',
      'Chapter 1',
      'CHAPTER IV.',
      'Chapter Twenty-One',
      'BOOK II',
      'Chapter I.]',
    ]) {
      expect(headingLevel(h), h).toBe(1);
    }
    for (const p of [
      'Part of the problem was the rain.',
      'Chapter and verse were quoted at length in the hall today, and more.',
      '他说第一回合就输了，然后继续往前走了很久很久很久很久很久很久很久很久很久很久很久很久很久很久很久很久',
    ]) {
      expect(headingLevel(p), p).toBeUndefined();
    }
  });

  it('joins hard-wrapped lines into paragraphs at blank lines', () => {
    const text = Array.from({ length: 6 }, (_, i) =>
      [
        `Paragraph ${i} starts here and the line is wrapped at about`,
        'seventy characters like a Project Gutenberg text usually',
        'is.',
      ].join('\n'),
    ).join('\n\n');
    const paras = splitParagraphs(text);
    expect(paras).toHaveLength(6);
    expect(paras[0]!.text).toBe(
      'Paragraph 0 starts here and the line is wrapped at about seventy characters like a Project Gutenberg text usually is.',
    );
  });

  it('treats each line as a paragraph when lines are not wrapped', () => {
    const text = [
      '短い行。',
      'とても長い段落がここにあります。'.repeat(8),
      '中くらいの段落です。'.repeat(3),
      'x'.repeat(300),
    ].join('\n');
    expect(splitParagraphs(text)).toHaveLength(4);
  });

  it('makes chapters from headings, skipping a table of contents', () => {
    const toc = '目录\n第一回\u3000标题0\n第二回\u3000标题1\n第三回\u3000标题2\n';
    const book = new BookBuilder();
    addTextChapters(book, splitParagraphs(toc + NOVEL_ZH));
    const titles = book.chapters.filter((c) => c.blocks.length).map((c) => c.title);
    expect(titles).toEqual(['', '第一回 标题0', '第二回 标题1', '第三回 标题2']);
  });

  it('lets the chapter heading win over an illustration note holding it, and names the front matter', async () => {
    const body = (n: number) =>
      Array.from({ length: 3 }, () => `Some sentence of chapter ${n} that is long enough to count as text.`).join(
        '\n\n',
      );
    const text = [
      'Title: Pride and Prejudice\n\n*** START OF THE PROJECT GUTENBERG EBOOK PRIDE AND PREJUDICE ***',
      '[Illustration:\n\n   GEORGE ALLEN\n   PUBLISHER\n   ]',
      'PRIDE AND PREJUDICE',
      '[Illustration: ·PRIDE AND PREJUDICE·\n\n\n\nChapter I.]',
      body(1),
      'CHAPTER II.',
      '[Illustration]',
      body(2),
      '*** END OF THE PROJECT GUTENBERG EBOOK PRIDE AND PREJUDICE ***',
    ].join('\n\n\n');
    const book = await txtParser.parse(Buffer.from(text));
    expect(book.chapters.map((c) => c.title)).toEqual(['Pride and Prejudice', 'Chapter I.', 'CHAPTER II.']);
    expect(book.chapters[0]!.blocks[0]!.text).toBe('[Illustration: GEORGE ALLEN PUBLISHER]');
    expect(book.chapters[1]!.blocks.slice(0, 2).map((b) => b.text)).toEqual([
      'Chapter I.',
      '[Illustration: ·PRIDE AND PREJUDICE·]',
    ]);
  });

  it('cuts a text without headings into parts', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `This is paragraph number ${i}, with a few words.`).join('\n\n');
    const book = await txtParser.parse(Buffer.from(text));
    expect(book.chapters.length).toBe(3);
    expect(book.chapters[1]!.title).toBe('Part 2');
    expect(book.chapters[0]!.blocks[0]!.id).toBe('c1-b1');
  });
});
