/**
 * Word's manual line breaks (Shift+Enter: `w:br` in DOCX and Word XML, the vertical tab of binary
 * Word, RTF's `\line`) keep a verse or an address one paragraph of several lines.
 */
import { describe, expect, it } from 'vitest';
import { compoundFile, word97Streams } from './doc/doc-fixture.ts';
import { docParser } from './doc/doc.ts';
import { buildDocx } from './docx/docx-fixture.ts';
import { docxParser } from './docx/docx.ts';
import type { ParsedBook } from './types.ts';

const texts = (book: ParsedBook) => book.chapters.flatMap((c) => c.blocks.map((b) => [b.type, b.text]));
const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const BR = '<w:r><w:br/></w:r>';

describe('Word line breaks', () => {
  it('DOCX: w:br lines stay in their paragraph, page breaks do not make lines', async () => {
    const book = await docxParser.parse(
      buildDocx({
        body: [
          `<w:p>${run('Tyger Tyger, burning bright,')}${BR}${run('In the forests of the night;')}<w:r><w:t>What immortal </w:t><w:br/><w:t>hand or eye,</w:t></w:r></w:p>`,
          `<w:p>${run('Before the page break')}<w:r><w:br w:type="page"/></w:r>${run('after it.')}</w:p>`,
        ].join(''),
      }),
    );
    expect(texts(book)).toEqual([
      ['paragraph', 'Tyger Tyger, burning bright,\nIn the forests of the night;What immortal\nhand or eye,'],
      ['paragraph', 'Before the page break after it.'],
    ]);
  });

  it('RTF: \\line keeps lines in the paragraph; a heading before them stays a heading', async () => {
    const rtf = Buffer.from(
      [
        '{\\rtf1\\ansi\\deff0{\\stylesheet{\\s1 heading 1;}}',
        '\\pard\\s1 The Tyger\\par',
        '\\pard Tyger Tyger, burning bright,\\line In the forests of the night;\\line\\tab What immortal hand or eye,\\par',
        '\\pard Could frame thy fearful symmetry?\\par}',
      ].join('\n'),
      'latin1',
    );
    expect(texts(await docParser.parse(rtf))).toEqual([
      ['heading', 'The Tyger'],
      ['paragraph', 'Tyger Tyger, burning bright,\nIn the forests of the night;\nWhat immortal hand or eye,'],
      ['paragraph', 'Could frame thy fearful symmetry?'],
    ]);
  });

  it('Word 97: the vertical tab is a line of the paragraph, a paragraph mark a new paragraph', async () => {
    const main = 'Sincerely,\u000bAnn Author\u000b12 High Street\rP.S. Write soon.\r';
    expect(texts(await docParser.parse(compoundFile(word97Streams({ main }))))).toEqual([
      ['paragraph', 'Sincerely,\nAnn Author\n12 High Street'],
      ['paragraph', 'P.S. Write soon.'],
    ]);
  });

  it('Word 2003 XML: w:br lines stay in their paragraph', async () => {
    const xml = `<?xml version="1.0"?><?mso-application progid="Word.Document"?><w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml"><w:body><w:p><w:r><w:t>Tyger Tyger,</w:t><w:br/><w:t>burning bright</w:t></w:r></w:p></w:body></w:wordDocument>`;
    expect(texts(await docParser.parse(Buffer.from(xml)))).toEqual([['paragraph', 'Tyger Tyger,\nburning bright']]);
  });
});
