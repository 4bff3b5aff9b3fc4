import { describe, expect, it } from 'vitest';
import { bookText } from '../builder.ts';
import { docParser } from '../doc/doc.ts';
import { ParseError } from '../errors.ts';
import { PARSE_LIMITS } from '../limits.ts';
import { readFileMetadata } from '../metadata/metadata.ts';
import { parseBook } from '../registry.ts';
import { isRtf, readRtf } from './rtf.ts';
import { sniff } from '../sniff.ts';
import type { ParsedBook } from '../types.ts';

const rtf = (body: string, header = '') =>
  Buffer.from(`{\\rtf1\\ansi\\ansicpg1252\\deff0${header}\n${body}}`, 'latin1');
const blocks = (book: ParsedBook) => book.chapters.flatMap((c) => c.blocks);
const texts = (book: ParsedBook) => blocks(book).map((b) => b.text);

/** What Word writes before the text: tables of fonts and colours, a style sheet, the document's properties. */
const WORD_HEADER = [
  '{\\fonttbl{\\f0\\froman\\fcharset0\\fprq2{\\*\\panose 02020603050405020304}Times New Roman;}',
  "{\\f1\\fswiss\\fcharset204\\fprq2 Arial;}{\\f2\\fnil\\fcharset134 \\'cb\\'ce\\'cc\\'e5;}",
  '{\\f3\\froman\\fcharset0 Times New Roman Cyr;}}',
  '{\\colortbl;\\red0\\green0\\blue0;}',
  '{\\stylesheet{\\ql \\snext0 Normal;}{\\s1\\ql\\outlinelevel0\\sbasedon0\\snext0 heading 1;}',
  '{\\s2\\ql\\sbasedon0\\snext0 heading 2;}{\\*\\cs10 \\additive Default Paragraph Font;}}',
  "{\\*\\listtable{\\list\\listtemplateid1{\\listlevel\\levelnfc0{\\leveltext\\'02\\'00.;}{\\levelnumbers\\'01;}}}}",
  '{\\info{\\title The Whale{\\*\\bkmkstart x}}{\\author Herman Melville}{\\doccomm A sea story.}',
  '{\\creatim\\yr2001\\mo2\\dy3}{\\company Nobody}}',
  '{\\*\\generator Microsoft Word 11.0.0000;}',
  '{\\header \\pard\\plain Running head on every page\\par}{\\footer \\pard Page {\\field{\\*\\fldinst PAGE}{\\fldrslt 1}}\\par}',
].join('\n');

describe('Rich Text (as Word saves it under a .doc name)', () => {
  it('is recognised by its bytes and read as a Word document', async () => {
    const file = rtf('\\pard Hello.\\par');
    expect(sniff(file)).toEqual({ ok: true, format: 'doc' });
    expect(isRtf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\r\n '), file]))).toBe(true);
    expect(isRtf(Buffer.from('{\\rt'))).toBe(false);
    expect(texts(await parseBook(file))).toEqual(['Hello.']);
  });

  it('reads chapters from its heading styles, notes at their chapter, the title and author from \\info', async () => {
    const book = await docParser.parse(
      rtf(
        [
          '\\pard\\plain\\s1 Loomings\\par',
          '\\pard\\plain Call me Ishmael{\\cs10\\super\\chftn}{\\footnote\\pard\\plain{\\super\\chftn} Not his real name.}. ',
          'Some years ago{\\super\\chftn}{\\footnote\\ftnalt\\pard\\plain{\\super\\chftn} An endnote.} \\emdash  never mind.\\par',
          '\\pard\\plain\\s2 A section, not a chapter\\par',
          '\\pard\\plain It is a way I have.\\par',
          '\\pard\\plain\\s1 The Carpet-Bag\\par',
          '\\pard\\plain I stuffed a shirt or two into my old carpet-bag, tucked it under my arm.\\par',
        ].join('\n'),
        WORD_HEADER,
      ),
    );
    expect(book.metadata).toMatchObject({ title: 'The Whale', author: 'Herman Melville', description: 'A sea story.' });
    expect(book.chapters.map((c) => c.title)).toEqual(['Loomings', 'The Carpet-Bag']);
    const first = book.chapters[0]!.blocks;
    expect(first.map((b) => b.type)).toEqual([
      'heading',
      'paragraph',
      'paragraph',
      'paragraph',
      'footnote',
      'footnote',
    ]);
    expect(first[1]!.text).toBe('Call me Ishmael[1]. Some years ago[1] — never mind.');
    expect(first[1]!.noteRefs).toEqual([first[4]!.id, first[5]!.id]);
    expect(first.slice(4).map((b) => b.text)).toEqual(['Not his real name.', 'An endnote.']);
    // Headers, footers, tables of fonts, colours, styles and lists are never text.
    const all = bookText(book);
    for (const hidden of ['Running head', 'Page', 'Times New Roman', 'Normal', 'Nobody', 'Microsoft Word']) {
      expect(all).not.toContain(hidden);
    }
  });

  it('decodes every run in the code page of its font or of the document, and \\u with its fallback skipped', async () => {
    const book = await docParser.parse(
      rtf(
        [
          "\\pard caf\\'e9 {\\f1 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2} {\\f2 \\'d6\\'d0\\'ce\\'c4} {\\f3 \\'cc\\'e8\\'f0}\\par",
          "\\pard \\uc1\\u20013?\\u25991? \\uc2\\u26085\\'93\\'fa\\u-10179??\\u-8704?? end\\par",
          "\\pard {\\upr{\\'3f\\'3f}{\\*\\ud{\\u1071\\'3f}}} done\\par",
        ].join('\n'),
        WORD_HEADER,
      ),
    );
    expect(texts(book)).toEqual(['café Привет 中文 Мир', '中文 日😀 end', 'Я done']);
  });

  it('reads Chinese text written as GBK bytes in a document whose code page is 936 (WPS)', async () => {
    const gbk = Buffer.from([0xb5, 0xda, 0xd2, 0xbb, 0xd5, 0xc2]); // 第一章
    const hex = [...gbk].map((b) => `\\'${b.toString(16)}`).join('');
    const file = Buffer.concat([
      Buffer.from('{\\rtf1\\ansi\\ansicpg936\\deff0{\\fonttbl{\\f0\\fnil\\fcharset134 SimSun;}}\n\\pard ', 'latin1'),
      Buffer.from(`${hex}\\par\\pard `, 'latin1'),
      gbk, // raw 8-bit bytes, as some writers leave them
      Buffer.from('\\par}', 'latin1'),
    ]);
    expect(texts(await docParser.parse(file))).toEqual(['第一章', '第一章']);
  });

  it('keeps field results, list numbers, tables and text boxes; leaves out hidden text, pictures and binary data', async () => {
    const book = await docParser.parse(
      rtf(
        [
          '\\pard See {\\field{\\*\\fldinst HYPERLINK "http://example.com/"}{\\fldrslt the site}} today{\\v  (hidden note)}.\\par',
          '\\pard{\\listtext 1.\\tab}First item\\par',
          '\\trowd\\cellx1000\\cellx2000\\pard\\intbl Cell one\\cell Cell two\\cell\\row',
          '\\pard {\\pict\\pngblip\\picw10 89504e470d0a1a0a0000000d49484452}{\\*\\bkmkstart b}After the picture.\\par',
          '\\pard Bytes {\\object\\objemb{\\*\\objdata 0105000002}{\\result Object text}} and \\bin4 {}} kept.\\par',
          '\\pard {\\shp{\\*\\shpinst{\\sp{\\sn fill}{\\sv 1}}{\\shptxt \\pard A text box.\\par}}}Body goes on.\\par',
        ].join('\n'),
      ),
    );
    expect(texts(book)).toEqual([
      'See the site today.',
      '1.\tFirst item',
      'Cell one',
      'Cell two',
      'After the picture.',
      'Bytes Object text and kept.',
      'Body goes on.',
      'A text box.',
    ]);
  });

  it('reads a destination whose \\* lost its backslash as one to skip (Aspose)', async () => {
    const file = rtf(
      '\\pard Text.\\par{*\\latentstyles\\lsdstimax267{\\lsdlockedexcept Normal;}}',
      '{\\stylesheet{*\\cs10 Default;}}',
    );
    expect(texts(await docParser.parse(file))).toEqual(['Text.']);
  });

  it('reads TextEdit’s files: a font table without groups, line ends escaped', async () => {
    const file = Buffer.from(
      '{\\rtf1\\ansi\\ansicpg1252\\cocoartf2511\n{\\fonttbl\\f0\\fswiss\\fcharset0 Helvetica;\\f1\\fnil\\fcharset204 PTSans;}\n' +
        "{\\colortbl;\\red255\\green255\\blue255;}\n\\pard\\f0\\fs24 \\cf0 First line\\\nSecond line \\f1 \\'c4\\'e0\\\n}",
      'latin1',
    );
    expect(texts(await docParser.parse(file))).toEqual(['First line', 'Second line Да']);
  });

  it('reads a truncated file as far as it goes', async () => {
    const whole = rtf('\\pard First paragraph.\\par\\pard Second {\\b paragraph} here.\\par', WORD_HEADER);
    const cut = whole.subarray(0, whole.indexOf('here') + 2);
    expect(texts(await docParser.parse(cut))).toEqual(['First paragraph.', 'Second paragraph he']);
  });

  it('gives its title and author at upload, from the head of the file', async () => {
    const body = '\\pard Lorem ipsum dolor sit amet.\\par\n'.repeat(20_000); // ~700 KB after the header
    expect(await readFileMetadata(rtf(body, WORD_HEADER), 'doc')).toMatchObject({
      title: 'The Whale',
      author: 'Herman Melville',
    });
  });

  it('refuses groups nested beyond the cap with fileTooComplex', async () => {
    const depth = PARSE_LIMITS.nestingDepth;
    const atCap = rtf(`${'{'.repeat(depth - 1)}deep${'}'.repeat(depth - 1)}\\par`);
    expect(texts(await docParser.parse(atCap))).toEqual(['deep']);
    const beyond = rtf(`${'{'.repeat(depth)}deep${'}'.repeat(depth)}`);
    expect(() => readRtf(beyond)).toThrow(ParseError);
    await expect(docParser.parse(beyond)).rejects.toMatchObject({ key: 'fileTooComplex' });
  });

  it('says a document without text has none', async () => {
    await expect(docParser.parse(rtf('{\\pict\\pngblip 89504e47}\\par', WORD_HEADER))).rejects.toMatchObject({
      key: 'noTextFound',
    });
  });
});
