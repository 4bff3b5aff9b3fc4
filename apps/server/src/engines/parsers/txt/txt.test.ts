import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { BookBuilder } from '../builder.ts';
import type { ParseError } from '../errors.ts';
import { addTextChapters, splitParagraphs } from './text-structure.ts';
import { headingRank } from './text-headings.ts';
import { decodeText, txtParser } from './txt.ts';

const CORPUS =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');
const WILD = path.join(CORPUS, '../wild');

/** Wraps prose at `width` columns the way a plain-text editor does (Latin: at spaces; CJK: anywhere). */
function wrap(paragraph: string, width: number, cjk = false): string[] {
  if (cjk) return paragraph.match(new RegExp(`.{1,${width}}`, 'gu')) ?? [];
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const PROSE_EN = [
  'The harbour was quiet that morning, and the fishermen had already gone out beyond the breakwater, leaving only the gulls and a few old men who mended nets in the sun while they talked about the weather and the price of fish.',
  'Anna walked along the quay with her letter in her hand. She had read it three times on the train and still did not know what she would say to her brother when she found him, or whether he would want to hear it at all.',
  'By noon the wind had turned, and the boats began to come back one by one, low in the water, their decks shining with the catch, and the whole quay filled with voices, carts and the smell of salt and tar.',
];

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
      expect(headingRank(h), h).toBe(/BOOK/.test(h) ? 1 : 2);
    }
    for (const p of [
      'Part of the problem was the rain.',
      'Chapter and verse were quoted at length in the hall today, and more.',
      '他说第一回合就输了，然后继续往前走了很久很久很久很久很久很久很久很久很久很久很久很久很久很久很久很久',
    ]) {
      expect(headingRank(p), p).toBeUndefined();
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

  it('cuts a text without headings into parts, titled by a marker rather than English words', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `This is paragraph number ${i}, with a few words.`).join('\n\n');
    const book = await txtParser.parse(Buffer.from(text));
    expect(book.chapters.length).toBe(3);
    expect(book.chapters[1]).toMatchObject({ title: '', generated: { kind: 'part', n: 2 } });
    expect(book.chapters[0]!.blocks[0]!.id).toBe('c1-b1');
    expect(book.contents).toEqual([
      { title: '', generated: { kind: 'part', n: 1 }, level: 1, blockId: 'c1-b1' },
      { title: '', generated: { kind: 'part', n: 2 }, level: 1, blockId: 'c2-b1' },
      { title: '', generated: { kind: 'part', n: 3 }, level: 1, blockId: 'c3-b1' },
    ]);
  });
});

describe('hard-wrapped text', () => {
  const paragraphsOf = (text: string) => splitParagraphs(text).map((p) => p.text);

  it('joins wrapped English prose and keeps verse, lists, a table of contents, an address and code apart', () => {
    const text = [
      ...wrap(PROSE_EN[0]!, 70),
      '',
      'CONTENTS',
      '',
      'Chapter 1. The Harbour ........ 1',
      'Chapter 2. The Letter ......... 9',
      '',
      ...wrap(PROSE_EN[1]!, 70),
      '',
      '  The sea is calm tonight,',
      '  The tide is full, the moon lies fair',
      '  Upon the straits;',
      '',
      'She wrote down what she needed:',
      '- bread and cheese for the road,',
      '- a warm coat,',
      '- the address of the boarding house.',
      '',
      'Mrs. Helen Ward',
      '14 Harbour Street',
      'Portsmouth',
      '',
      '    for line in lines:',
      '        print(line.strip())',
      '',
      ...wrap(PROSE_EN[2]!, 70),
    ].join('\n');
    const paragraphs = paragraphsOf(text);
    expect(paragraphs).toEqual([
      PROSE_EN[0],
      'CONTENTS',
      'Chapter 1. The Harbour ........ 1',
      'Chapter 2. The Letter ......... 9',
      PROSE_EN[1],
      'The sea is calm tonight,',
      'The tide is full, the moon lies fair',
      'Upon the straits;',
      'She wrote down what she needed:',
      '- bread and cheese for the road,',
      '- a warm coat,',
      '- the address of the boarding house.',
      'Mrs. Helen Ward',
      '14 Harbour Street',
      'Portsmouth',
      'for line in lines:',
      'print(line.strip())',
      PROSE_EN[2],
    ]);
  });

  it('joins wrapped Chinese without spaces, where paragraphs start with an indent', () => {
    const paragraphs = [
      '话说天下大势，分久必合，合久必分。周末七国分争，并入于秦。及秦灭之后，楚、汉分争，又并入于汉。汉朝自高祖斩白蛇而起义，一统天下，后来光武中兴，传至献帝，遂分为三国。',
      '推其致乱之由，殆始于桓、灵二帝。桓帝禁锢善类，崇信宦官。及桓帝崩，灵帝即位，大将军窦武、太傅陈蕃共相辅佐。',
    ];
    const text = [...paragraphs, ...paragraphs].flatMap((p) => wrap(`\u3000\u3000${p}`, 20, true)).join('\n');
    expect(text.split('\n').length).toBeGreaterThan(10);
    expect(paragraphsOf(text)).toEqual([...paragraphs, ...paragraphs]);
  });

  it('joins a word cut after its hyphen without a space', () => {
    const lines = wrap(PROSE_EN[0]!, 70);
    lines[1] = `${lines[1]} well-`;
    lines[2] = `known ${lines[2]}`;
    const [first] = paragraphsOf([...lines, '', ...wrap(PROSE_EN[1]!, 70), '', ...wrap(PROSE_EN[2]!, 70)].join('\n'));
    expect(first).toContain(' well-known ');
  });

  it('joins only the wrapped part of a text that goes on one line per paragraph', () => {
    const wrapped = PROSE_EN.flatMap((p) => [...wrap(p, 70), '']);
    const unwrapped = PROSE_EN.map((p) => `${p} ${p}`);
    expect(paragraphsOf([...wrapped, ...wrapped, ...unwrapped].join('\n'))).toEqual([
      ...PROSE_EN,
      ...PROSE_EN,
      ...unwrapped,
    ]);
  });

  it.skipIf(!existsSync(WILD))(
    'reads the wild Frankenstein: letters joined into their paragraphs, verse kept in lines',
    async () => {
      const book = await txtParser.parse(readFileSync(path.join(WILD, 'txt/en-frankenstein-hard-wrapped-utf8.txt')));
      const letter1 = book.chapters.find((c) => c.title === 'Letter 1')!;
      const paragraphs = letter1.blocks.filter((b) => b.type === 'paragraph').map((b) => b.text);
      expect(paragraphs[2]).toMatch(
        /^You will rejoice to hear that no disaster has accompanied the commencement of an enterprise which you have regarded with such evil forebodings\. I arrived here yesterday/,
      );
      expect(paragraphs.filter((p) => p.length > 300).length).toBeGreaterThanOrEqual(6);
      expect(paragraphs.every((p) => !p.includes('\n'))).toBe(true);
      const text = book.chapters.flatMap((c) => c.blocks.map((b) => b.text));
      const verse = text.indexOf('We rest; a dream has power to poison sleep.');
      expect(text.slice(verse, verse + 3)).toEqual([
        'We rest; a dream has power to poison sleep.',
        'We rise; one wand’ring thought pollutes the day.',
        'We feel, conceive, or reason; laugh or weep,',
      ]);
    },
  );

  it.skipIf(!existsSync(WILD))(
    'reads the wild 儒林外史: the wrapped chapters joined without spaces, the others one paragraph a line',
    async () => {
      const file = readFileSync(path.join(WILD, 'txt/zh-TW-rulin-waishi-hard-wrapped-utf8.txt'));
      const book = await txtParser.parse(file);
      const first = book.chapters.find((c) => c.title.startsWith('第一回'))!.blocks.map((b) => b.text);
      // The poem's two lines, then the prose: a paragraph starts after a sentence that ends a line and
      // where the text left a space ('去了。 王冕自此').
      expect(first[1]).toBe('“人生南北多歧路，將相神仙，也要凡人做。百代興亡朝复暮，江風吹倒前朝樹。');
      expect(first[3]).toMatch(
        /^這一首詞，也是個老生長談。不過說：人生富貴功名，是身外之物；但世人一見了功名，便舍著性命去求他。/,
      );
      expect(first.some((p) => p.startsWith('王冕自此在秦家放牛，每到黃昏，回家跟著母親歇宿。'))).toBe(true);
      const wrappedLines = first.filter((p) => p.length >= 34 && p.length <= 40).length;
      expect(wrappedLines, 'wrapped lines left as paragraphs').toBeLessThanOrEqual(4);
      expect(first.every((p) => !/[\u4e00-\u9fff] [\u4e00-\u9fff]/.test(p))).toBe(true);
      // A chapter of the second part: each line of the file is one paragraph.
      const lines = new TextDecoder().decode(file).split('\n');
      const late = book.chapters.at(-2)!;
      for (const block of late.blocks.filter((b) => b.type === 'paragraph').slice(0, 10)) {
        expect(lines.some((l) => l.trim() === block.text)).toBe(true);
      }
    },
  );
});
