import { describe, expect, it } from 'vitest';
import { bookText } from '../builder.ts';
import { docParser } from './doc.ts';
import { readFileMetadata } from '../metadata/metadata.ts';
import { parseBook } from '../registry.ts';
import { sniff } from '../sniff.ts';
import type { ParsedBook } from '../types.ts';
import { isWebPage } from './word-html.ts';

const blocks = (book: ParsedBook) => book.chapters.flatMap((c) => c.blocks);
const prose = 'The tide came in over the flats and the boats lifted one after another. ';

/** What Word writes for "Save as Web Page": Office namespaces, properties in an <xml> island, mso styles. */
function wordPage(charset: string, body: string): string {
  return `<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"
xmlns:w="urn:schemas-microsoft-com:office:word" xmlns="http://www.w3.org/TR/REC-html40">
<head>
<meta http-equiv=Content-Type content="text/html; charset=${charset}">
<meta name=ProgId content=Word.Document>
<title>Harbour Days</title>
<!--[if gte mso 9]><xml>
 <o:DocumentProperties>
  <o:Author>Jane Roe</o:Author>
  <o:LastAuthor>Administrator</o:LastAuthor>
 </o:DocumentProperties>
</xml><![endif]--><!--[if gte mso 9]><xml>
 <w:WordDocument><w:View>Print</w:View><w:Zoom>100</w:Zoom></w:WordDocument>
</xml><![endif]-->
<style>p.MsoNormal { mso-style-parent:""; margin:0cm; }</style>
</head>
<body lang=EN-US style='tab-interval:36.0pt'>
<div class=Section1>
${body}
</div>
</body>
</html>`;
}

const WORD_BODY = `<h1>Morning</h1>
<p class=MsoNormal>${prose.repeat(3)}<a style='mso-footnote-id:ftn1' href="#_ftn1" name="_ftnref1" title=""><span class=MsoFootnoteReference>[1]</span></a></p>
<p class=MsoListParagraph><![if !supportLists]><span>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>Caf&eacute; first.</p>
<p class=MsoNormal style='mso-hide:all'>Hidden by Word.</p>
<h1>Evening</h1>
<p class=MsoNormal>${prose.repeat(3)}</p>
<div style='mso-element:footnote-list'><![if !supportFootnotes]><br clear=all><hr align=left size=1 width="33%"><![endif]>
<div style='mso-element:footnote' id=ftn1>
<p class=MsoFootnoteText><a style='mso-footnote-id:ftn1' href="#_ftnref1" name="_ftn1" title="">[1]</a> A note from the author.</p>
</div>
</div>`;

describe('web pages that are Word documents', () => {
  it("reads Word's Save as Web Page: chapters at its headings, the note where it is cited, title and author", async () => {
    const file = Buffer.from(wordPage('windows-1252', WORD_BODY), 'latin1');
    expect(sniff(file)).toEqual({ ok: true, format: 'doc' });
    const book = await parseBook(file);
    expect(book.metadata).toMatchObject({ title: 'Harbour Days', author: 'Jane Roe' });
    expect(book.chapters.map((c) => c.title)).toEqual(['Morning', 'Evening']);
    const first = book.chapters[0]!.blocks;
    expect(first.map((b) => b.type)).toEqual(['heading', 'paragraph', 'paragraph', 'footnote']);
    expect(first[1]!.noteRefs).toEqual([first[3]!.id]);
    expect(first[2]!.text).toBe('1. Café first.');
    expect(first[3]!.text).toContain('A note from the author.');
    const text = bookText(book);
    for (const hidden of ['Hidden by Word', 'Administrator', 'Print', 'mso-style']) expect(text).not.toContain(hidden);
  });

  it('reads a single-file web page (MHT), quoted-printable, in the code page its part names', async () => {
    const page = wordPage(
      'gb2312',
      `<h1>第一章</h1><p>${'潮水涨过滩涂，小船一只接一只浮了起来。'.repeat(4)}</p><h1>第二章</h1><p>夜里很静。</p>`,
    );
    const gbk = Buffer.from(new Uint8Array(gb2312Bytes(page)));
    const quoted = [...gbk]
      .map((b) =>
        b >= 0x80 || b === 0x3d ? `=${b.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(b),
      )
      .join('')
      .replace(/(.{70})/g, '$1=\r\n');
    const mht = Buffer.from(
      [
        'MIME-Version: 1.0',
        'Content-Type: multipart/related; boundary="----=_NextPart_01D0"',
        '',
        'This document is a Single File Web Page, also known as a Web Archive file.',
        '',
        '------=_NextPart_01D0',
        'Content-Location: file:///C:/harbour.htm',
        'Content-Transfer-Encoding: quoted-printable',
        'Content-Type: text/html; charset="gb2312"',
        '',
        quoted,
        '',
        '------=_NextPart_01D0',
        'Content-Location: file:///C:/harbour_files/image001.png',
        'Content-Transfer-Encoding: base64',
        'Content-Type: image/png',
        '',
        'iVBORw0KGgo=',
        '',
        '------=_NextPart_01D0--',
        '',
      ].join('\r\n'),
      'latin1',
    );
    expect(isWebPage(mht)).toBe(true);
    const book = await docParser.parse(mht);
    expect(book.chapters.map((c) => c.title)).toEqual(['第一章', '第二章']);
    expect(blocks(book)[1]!.text).toContain('潮水涨过滩涂');
    expect(await readFileMetadata(mht, 'doc')).toMatchObject({ title: 'Harbour Days', author: 'Jane Roe' });
  });

  it('reads the plain HTML a website sent as .doc, in UTF-8 without a declaration', async () => {
    const file = Buffer.from(
      `<!DOCTYPE html>\n<html><head><title>Export</title></head><body><h2>Über uns</h2><p>${prose}</p><p>Grüße &amp; mehr.</p><script>alert(1)</script></body></html>`,
    );
    expect(sniff(file)).toEqual({ ok: true, format: 'doc' });
    const book = await docParser.parse(file);
    expect(blocks(book).map((b) => b.text)).toEqual(['Über uns', prose.trim(), 'Grüße & mehr.']);
    expect(await readFileMetadata(file, 'doc')).toMatchObject({ title: 'Export' });
  });

  it('says a page without text has none, and leaves text that only mentions HTML to the text reader', async () => {
    await expect(docParser.parse(Buffer.from('<html><body><img src="a.png"></body></html>'))).rejects.toMatchObject({
      key: 'noTextFound',
    });
    expect(sniff(Buffer.from('Notes on <html> tags.\nA plain text file.'))).toEqual({ ok: true, format: 'txt' });
  });
});

/** GB2312 bytes of a string, through the decoder's own table (Node has no GB encoder). */
function gb2312Bytes(text: string): number[] {
  const decoder = new TextDecoder('gb18030');
  const table = new Map<string, number[]>();
  for (let hi = 0xa1; hi <= 0xf7; hi++) {
    for (let lo = 0xa1; lo <= 0xfe; lo++) table.set(decoder.decode(new Uint8Array([hi, lo])), [hi, lo]);
  }
  const out: number[] = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) out.push(ch.charCodeAt(0));
    else out.push(...(table.get(ch) ?? [0x3f]));
  }
  return out;
}
