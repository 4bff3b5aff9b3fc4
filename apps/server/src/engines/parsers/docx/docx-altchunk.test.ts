import { describe, expect, it } from 'vitest';
import { buildDocx } from './docx-fixture.ts';
import { docxParser } from './docx.ts';
import type { ParsedBook } from '../types.ts';

const AF_CHUNK = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk';
const prose = 'The tide came in over the flats and the boats lifted one after another. ';
const blocks = (book: ParsedBook) => book.chapters.flatMap((c) => c.blocks);

/** A DOCX whose body is only references to imported chunks, as html-docx-js and report tools write. */
function withChunks(chunks: Record<string, Buffer>, body?: string): Buffer {
  const names = Object.keys(chunks);
  return buildDocx({
    body: body ?? names.map((_, i) => `<w:altChunk r:id="chunk${i}"/>`).join(''),
    rels: names.map((name, i) => `<Relationship Id="chunk${i}" Type="${AF_CHUNK}" Target="media/${name}"/>`).join(''),
    media: chunks,
  });
}

describe('imported chunks (w:altChunk)', () => {
  it('reads an HTML chunk where it stands: its headings make the chapters, its notes are linked', async () => {
    const html = Buffer.from(
      `<html><body><h1>Morning</h1><p>${prose.repeat(3)}<a href="#_ftn1" name="_ftnref1">[1]</a></p>` +
        `<h1>Evening</h1><p>${prose.repeat(3)}</p>` +
        `<div style="mso-element:footnote-list"><div style="mso-element:footnote" id="ftn1"><p><a href="#_ftnref1">[1]</a> The note.</p></div></div></body></html>`,
    );
    const book = await docxParser.parse(
      withChunks(
        { 'afchunk.htm': html },
        '<w:p><w:r><w:t>Before the chunk.</w:t></w:r></w:p><w:altChunk r:id="chunk0"/><w:p><w:r><w:t>After it.</w:t></w:r></w:p>',
      ),
    );
    expect(book.chapters.map((c) => c.title)).toEqual(['Before the chunk.', 'Morning', 'Evening']);
    const all = blocks(book);
    expect(all[0]!.text).toBe('Before the chunk.');
    expect(all.at(-1)!.text).toBe('After it.');
    const cited = all.find((b) => b.noteRefs?.length)!;
    expect(all.find((b) => b.id === cited.noteRefs![0])!.text).toContain('The note.');
  });

  it('reads MHT, RTF and plain-text chunks, each in its own encoding', async () => {
    const mht = Buffer.from(
      [
        'MIME-Version: 1.0',
        'Content-Type: multipart/related; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/html; charset="utf-8"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('<html><body><p>Grüße aus dem Archiv.</p></body></html>').toString('base64'),
        '--b1--',
      ].join('\r\n'),
    );
    const rtf = Buffer.from(
      "{\\rtf1\\ansi\\ansicpg1251{\\fonttbl{\\f0 Arial;}}\\pard \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2\\par}",
      'latin1',
    );
    const text = Buffer.from('\ufeff第一行\r\n第二行\r\n', 'utf8');
    const book = await docxParser.parse(withChunks({ 'a.mht': mht, 'b.rtf': rtf, 'c.txt': text }));
    expect(blocks(book).map((b) => b.text)).toEqual(['Grüße aus dem Archiv.', 'Привет', '第一行', '第二行']);
  });

  it('leaves out a chunk that is itself a DOCX rather than showing its bytes', async () => {
    const inner = buildDocx({ body: '<w:p><w:r><w:t>Inside.</w:t></w:r></w:p>' });
    const book = await docxParser.parse(
      withChunks({ 'inner.docx': inner }, '<w:p><w:r><w:t>Outside.</w:t></w:r></w:p><w:altChunk r:id="chunk0"/>'),
    );
    expect(blocks(book).map((b) => b.text)).toEqual(['Outside.']);
  });

  it('still says a document with nothing in it has no text', async () => {
    await expect(
      docxParser.parse(withChunks({ 'empty.htm': Buffer.from('<html><body></body></html>') })),
    ).rejects.toMatchObject({
      key: 'noTextFound',
    });
  });
});
