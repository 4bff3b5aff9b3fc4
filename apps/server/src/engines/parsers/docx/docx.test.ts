import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDocx, DEFAULT_STYLES, writeLargeDocx, zip } from './docx-fixture.ts';
import { docxParser } from './docx.ts';
import type { BlockDraft } from '../blocks.ts';
import { DocxWalker } from './docx-body.ts';
import { DocxStyles } from './docx-styles.ts';
import type { ParseError } from '../errors.ts';
import { feedXml, WORD_NAMESPACES, XmlStreamReader } from '../xml-stream.ts';
import type { ParsedBook } from '../types.ts';

const CORPUS =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');
const p = (text: string, pPr = '') =>
  `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const heading = (text: string, style = 'Heading1') => p(text, `<w:pStyle w:val="${style}"/>`);
const blocks = (book: ParsedBook) => book.chapters.flatMap((c) => c.blocks);
const parseError = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ParseError,
  );

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('DOCX parser', () => {
  it('cuts chapters at heading styles, resolved through styles.xml (ids, localized names, outline levels)', async () => {
    const styles =
      DEFAULT_STYLES +
      '<w:style w:type="paragraph" w:styleId="1"><w:name w:val="Заголовок 1"/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Chap"><w:name w:val="Chapter Head"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="ChapChild"><w:name w:val="Chapter Head 2"/><w:basedOn w:val="Chap"/></w:style>';
    const body = [
      heading('The Book', 'Title'),
      p('Front matter.'),
      heading('One', '1'),
      p('First chapter text.'),
      heading('Two', 'Chap'),
      p('Second chapter text.'),
      heading('Three', 'ChapChild'),
      p('Third chapter text.'),
      heading('Three point one', 'Heading2'),
      p('Sub-section text.'),
    ].join('');
    const book = await docxParser.parse(buildDocx({ body, styles }));
    expect(book.chapters.map((c) => c.title)).toEqual(['The Book', 'One', 'Two', 'Three']);
    expect(book.metadata.title).toBe('The Book');
    const sub = blocks(book).find((b) => b.text === 'Three point one');
    expect(sub).toMatchObject({ type: 'heading', level: 2 });
  });

  it('keeps bold, italic and superscript runs in the block html, and reads core metadata', async () => {
    const body =
      '<w:p><w:r><w:t xml:space="preserve">Plain </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r>' +
      '<w:r><w:t xml:space="preserve"> and </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Emphasis"/></w:rPr><w:t>styled</w:t></w:r>' +
      '<w:r><w:rPr><w:i/><w:i w:val="0"/></w:rPr><w:t xml:space="preserve"> off</w:t></w:r>' +
      '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>2</w:t></w:r>' +
      '<w:r><w:rPr><w:b w:val="false"/><w:rPrChange w:id="1"><w:rPr><w:b/></w:rPr></w:rPrChange></w:rPr><w:t xml:space="preserve"> &amp; done</w:t></w:r></w:p>';
    const book = await docxParser.parse(buildDocx({ body, core: { title: 'Core Title', creator: 'A. Author' } }));
    const [block] = blocks(book);
    expect(block!.text).toBe('Plain bold and styled off2 & done');
    expect(block!.html).toBe('Plain <strong>bold</strong> and <em>styled</em> off<sup>2</sup> &amp; done');
    expect(book.metadata).toMatchObject({ title: 'Core Title', author: 'A. Author' });
  });

  it('keeps insertions, drops deletions, field instructions and hidden text; reads hyperlinks and text boxes', async () => {
    const body =
      '<w:p><w:r><w:t xml:space="preserve">Kept </w:t></w:r><w:ins w:id="1"><w:r><w:t xml:space="preserve">inserted </w:t></w:r></w:ins>' +
      '<w:del w:id="2"><w:r><w:delText>deleted </w:delText></w:r></w:del>' +
      '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "http://x" </w:instrText></w:r>' +
      '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>field result</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>' +
      '<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden</w:t></w:r>' +
      '<w:hyperlink r:id="rId9"><w:r><w:t xml:space="preserve"> link text</w:t></w:r></w:hyperlink>' +
      '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wps:txbx xmlns:wps="x"><w:txbxContent><w:p><w:r><w:t>In a box</w:t></w:r></w:p></w:txbxContent></wps:txbx></wp:anchor></w:drawing></mc:Choice>' +
      '<mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>In a box</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>';
    const book = await docxParser.parse(buildDocx({ body }));
    expect(blocks(book).map((b) => b.text)).toEqual(['Kept inserted field result link text', 'In a box']);
  });

  it('turns numbered paragraphs into list items and tables into text', async () => {
    const cell = (text: string) => `<w:tc><w:tcPr><w:tcW w:w="100"/></w:tcPr>${p(text)}</w:tc>`;
    const body =
      p('Item one', '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr>') +
      p('Not a list', '<w:numPr><w:numId w:val="0"/></w:numPr>') +
      `<w:tbl><w:tblPr><w:tblW w:w="0"/></w:tblPr><w:tr>${cell('Name')}${cell('Age')}</w:tr><w:tr>${cell('Ann')}${cell('31')}</w:tr></w:tbl>` +
      `<w:tbl><w:tr>${cell('A layout table cell.')}</w:tr></w:tbl>`;
    const book = await docxParser.parse(buildDocx({ body }));
    expect(blocks(book).map((b) => [b.type, b.text])).toEqual([
      ['listItem', 'Item one'],
      ['paragraph', 'Not a list'],
      ['table', 'Name\tAge\nAnn\t31'],
      ['paragraph', 'A layout table cell.'],
    ]);
  });

  it('numbers list paragraphs as Word shows them', async () => {
    const lvl = (ilvl: number, format: string, text: string, start = 1) =>
      `<w:lvl w:ilvl="${ilvl}"><w:start w:val="${start}"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/><w:pPr><w:ind w:left="720"/></w:pPr></w:lvl>`;
    const numbering =
      `<w:abstractNum w:abstractNumId="0">${lvl(0, 'decimal', '%1.')}${lvl(1, 'lowerLetter', '%1.%2)')}</w:abstractNum>` +
      `<w:abstractNum w:abstractNumId="1">${lvl(0, 'bullet', '\uf0b7')}</w:abstractNum>` +
      `<w:abstractNum w:abstractNumId="2">${lvl(0, 'chineseCounting', '第%1章')}</w:abstractNum>` +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>' +
      '<w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>' +
      '<w:num w:numId="4"><w:abstractNumId w:val="2"/></w:num>';
    const item = (text: string, numId: number, ilvl = 0) =>
      p(text, `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>`);
    const body = [
      item('First', 1),
      item('Sub one', 1, 1),
      item('Sub two', 1, 1),
      item('Second', 1),
      item('Sub again', 1, 1),
      item('A bullet', 2),
      item('Restarted', 3),
      item('总则', 4),
      item('附则', 4),
    ].join('');
    const book = await docxParser.parse(buildDocx({ body, numbering }));
    expect(blocks(book).map((b) => b.text)).toEqual([
      '1. First',
      '1.a) Sub one',
      '1.b) Sub two',
      '2. Second',
      '2.a) Sub again',
      'A bullet',
      '1. Restarted',
      '第一章 总则',
      '第二章 附则',
    ]);
    expect(blocks(book).every((b) => b.type === 'listItem')).toBe(true);
  });

  it('links footnotes to the paragraphs citing them, numbered in citation order', async () => {
    const ref = (id: number) =>
      `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="${id}"/></w:r>`;
    const body =
      heading('One') +
      `<w:p><w:r><w:t>Cites the second note.</w:t></w:r>${ref(7)}</w:p>` +
      heading('Two') +
      `<w:p><w:r><w:t>Cites the first.</w:t></w:r>${ref(3)}</w:p>`;
    const note = (id: number, text: string) =>
      `<w:footnote w:id="${id}"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> ${text}</w:t></w:r></w:p></w:footnote>`;
    const book = await docxParser.parse(
      buildDocx({ body, footnotes: note(3, 'Note three.') + note(7, 'Note seven.') }),
    );
    const [one, two] = book.chapters;
    const citing = one!.blocks.find((b) => b.noteRefs)!;
    expect(citing.text).toBe('Cites the second note.[1]');
    const note7 = one!.blocks.find((b) => b.type === 'footnote')!;
    expect(note7).toMatchObject({ text: 'Note seven.', noteLabel: '1', referencedBy: [citing.id] });
    expect(citing.html).toBe(`Cites the second note.<sup><a href="#${note7.id}">[1]</a></sup>`);
    expect(two!.blocks.find((b) => b.type === 'footnote')).toMatchObject({ text: 'Note three.', noteLabel: '2' });
  });

  it('reads a ruby base once, its reading in the html only, whatever the run formatting', async () => {
    const ruby = (base: string, reading: string, rPr = '') =>
      `<w:r>${rPr}<w:ruby><w:rubyPr><w:hps w:val="11"/><w:lid w:val="ja-JP"/></w:rubyPr><w:rt><w:r><w:t>${reading}</w:t></w:r></w:rt><w:rubyBase><w:r>${rPr}<w:t>${base}</w:t></w:r></w:rubyBase></w:ruby></w:r>`;
    const body = `<w:p><w:r><w:t>私は</w:t></w:r>${ruby('東京', 'とうきょう')}<w:r><w:t>に</w:t></w:r>${ruby('住', 'す', '<w:rPr><w:b/></w:rPr>')}<w:r><w:t>む。</w:t></w:r></w:p>`;
    const [block] = blocks(await docxParser.parse(buildDocx({ body })));
    expect(block!.text).toBe('私は東京に住む。');
    expect(block!.html).toBe(
      '私は<ruby>東京<rt>とうきょう</rt></ruby>に<ruby><strong>住</strong><rt>す</rt></ruby>む。',
    );
  });

  it('resolves images through the relationships, with their size', async () => {
    const drawing = (rel: string) =>
      `<w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="476250"/><wp:docPr id="1" name="Picture 1" descr="alt"/><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="${rel}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const body = `<w:p><w:r><w:t>Look:</w:t></w:r>${drawing('rIdImg')}</w:p><w:p>${drawing('rIdImg')}${drawing('rIdMissing')}</w:p>`;
    const book = await docxParser.parse(
      buildDocx({
        body,
        rels: '<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/dot.png"/>',
        media: { 'dot.png': PNG },
      }),
    );
    expect(blocks(book).map((b) => b.type)).toEqual(['paragraph', 'image', 'image']);
    expect(book.images).toHaveLength(1);
    expect(book.images[0]).toMatchObject({ mediaType: 'image/png', width: 1, height: 1 });
  });

  it('reads documents with other namespace prefixes', async () => {
    const doc =
      '<?xml version="1.0"?><x:document xmlns:x="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><x:body>' +
      '<x:p><x:r><x:rPr><x:b/></x:rPr><x:t>Prefixed</x:t></x:r></x:p></x:body></x:document>';
    const data = zip([{ name: 'word/document.xml', data: doc }]);
    const book = await docxParser.parse(data);
    expect(blocks(book)[0]).toMatchObject({ text: 'Prefixed', html: '<strong>Prefixed</strong>' });
  });

  it('refuses entity declarations and zip bombs, and reports empty documents', async () => {
    const entity = zip([
      {
        name: 'word/document.xml',
        data: '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&a;</w:t></w:r></w:p></w:body></w:document>',
      },
    ]);
    expect((await parseError(docxParser.parse(entity)))?.key).toBe('fileTooComplex');
    const bomb = zip([{ name: 'word/document.xml', data: Buffer.alloc(64 * 1024 * 1024, 0x20) }]);
    expect(bomb.length).toBeLessThan(200_000);
    expect((await parseError(docxParser.parse(bomb)))?.key).toBe('fileTooComplex');
    expect((await parseError(docxParser.parse(buildDocx({ body: '<w:p/>' }))))?.key).toBe('noTextFound');
    expect((await parseError(docxParser.parse(zip([{ name: 'a.txt', data: 'x' }]))))?.key).toBe('fileCorrupted');
  });

  it('reports progress and stops when the signal is aborted', async () => {
    const data = buildDocx({ body: heading('One') + p('Text.') + heading('Two') + p('More text.') });
    const progress: number[] = [];
    await docxParser.parse(data, { onProgress: (f) => progress.push(f) });
    expect(progress.at(-1)).toBe(1);
    const controller = new AbortController();
    controller.abort();
    expect((await parseError(docxParser.parse(data, { signal: controller.signal })))?.key).toBe('aborted');
  });

  it.skipIf(!existsSync(CORPUS))('parses a generated book in Word markup (the measurement fixture)', async () => {
    const file = path.join(os.tmpdir(), `yidu-docx-test-${process.pid}.docx`);
    try {
      await writeLargeDocx(file, CORPUS, 1024 * 1024);
      const book = await docxParser.parse(readFileSync(file));
      expect(book.metadata.title).toBe('Large generated book');
      expect(book.chapters.length).toBeGreaterThan(20);
      expect(book.chapters.every((c, i) => c.title === `Chapter ${i + 1}`)).toBe(true);
      const all = blocks(book);
      expect(all.filter((b) => b.type === 'footnote').every((n) => n.referencedBy?.length === 1)).toBe(true);
      expect(all.some((b) => b.html?.includes('<em>'))).toBe(true);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('gives the same blocks whatever the chunk boundaries (tags, entities and UTF-8 cut in two)', async () => {
    const body =
      heading('Глава «один» &amp; 中文') +
      '<w:p><w:pPr><w:numPr><w:numId w:val="2"/></w:numPr><w:rPr><w:b/></w:rPr></w:pPr><w:r><w:rPr><w:i/></w:rPr><w:t>italic ünïcödé</w:t></w:r>' +
      '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGEREF x </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>' +
      '<w:r><w:t xml:space="preserve"> 12 </w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:del><w:r><w:delText>gone</w:delText></w:r></w:del>' +
      '<w:r><w:rPr><w:rPrChange w:id="3"><w:rPr><w:b/></w:rPr></w:rPrChange></w:rPr><w:t>&lt;tail&gt;</w:t></w:r></w:p>' +
      `<w:tbl><w:tblPr/><w:tr><w:tc>${p('a')}</w:tc><w:tc>${p('b')}</w:tc></w:tr><w:tr><w:tc>${p('c')}</w:tc><w:tc>${p('d')}</w:tc></w:tr></w:tbl>`;
    const xml = Buffer.from(
      `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body.repeat(3)}</w:body></w:document>`,
    );
    const walk = async (size: number) => {
      const styles = new DocxStyles();
      const out: BlockDraft[] = [];
      const walker = new DocxWalker({
        styles,
        resolveImage: () => undefined,
        emit: (d) => out.push(d),
        labelFor: () => '1',
      });
      async function* chunks() {
        for (let i = 0; i < xml.length; i += size) yield xml.subarray(i, i + size);
      }
      await feedXml(chunks(), new XmlStreamReader(walker, { namespaces: WORD_NAMESPACES }));
      return out;
    };
    const whole = await walk(xml.length);
    expect(whole.slice(0, 3)).toEqual([
      { type: 'heading', text: 'Глава «один» & 中文', level: 1 },
      { type: 'listItem', text: 'italic ünïcödé 12 <tail>', html: '<em>italic ünïcödé</em> 12 &lt;tail&gt;' },
      { type: 'table', text: 'a\tb\nc\td' },
    ]);
    for (const size of [1, 7, 64, 333]) expect(await walk(size)).toEqual(whole);
  });
});
