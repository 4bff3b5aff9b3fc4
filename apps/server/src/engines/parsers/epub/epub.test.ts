import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../errors.ts';
import { epubParser } from './epub.ts';
import { parseBook } from '../registry.ts';
import { SafeZip } from '../zip.ts';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

interface Doc {
  name: string;
  body: string;
  head?: string;
}

async function makeEpub(docs: Doc[], options: { nav?: string; extra?: Record<string, string | Buffer> } = {}) {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
  );
  const manifest = docs
    .map((d, i) => `<item id="d${i}" href="${d.name}" media-type="application/xhtml+xml"/>`)
    .join('');
  const spine = docs.map((_d, i) => `<itemref idref="d${i}"/>`).join('');
  const nav = options.nav
    ? '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
    : '';
  zip.file(
    'OEBPS/content.opf',
    `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Test Book</dc:title><dc:creator>Ann Author</dc:creator><dc:language>en</dc:language></metadata><manifest>${manifest}${nav}<item id="img" href="images/a.png" media-type="image/png"/></manifest><spine>${spine}</spine></package>`,
  );
  if (options.nav) zip.file('OEBPS/nav.xhtml', options.nav);
  zip.file('OEBPS/images/a.png', PNG_1x1);
  for (const d of docs) {
    zip.file(
      `OEBPS/${d.name}`,
      `<?xml version="1.0" encoding="utf-8"?>${d.head ?? ''}<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head><body>${d.body}</body></html>`,
    );
  }
  for (const [name, data] of Object.entries(options.extra ?? {})) zip.file(name, data);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function parseError(promise: Promise<unknown>): Promise<ParseError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParseError);
  return error as ParseError;
}

describe('EPUB parser', () => {
  it('strips scripts, event handlers, javascript: links and remote images', async () => {
    const epub = await makeEpub([
      {
        name: 'a.xhtml',
        body: `<h1 onclick="alert(1)">Chapter <em>One</em></h1>
          <script>alert('x')</script>
          <p onmouseover="steal()">Hello <a href="javascript:alert(1)">click</a> <strong>world</strong>.</p>
          <p><img src="http://evil.example/track.png"/><img src="//evil.example/x.png"/><img src="images/a.png" alt="local"/></p>
          <iframe src="http://evil.example"></iframe>
          <style>body{background:url(http://evil.example)}</style>`,
      },
    ]);
    const book = await epubParser.parse(epub);
    const json = JSON.stringify(book.chapters);
    expect(json).not.toMatch(/alert|steal|onclick|onmouseover|javascript:|evil\.example|<script|<iframe|background/);
    const blocks = book.chapters[0]!.blocks;
    expect(blocks[0]).toMatchObject({ type: 'heading', level: 1, text: 'Chapter One', html: 'Chapter <em>One</em>' });
    expect(blocks[1]).toMatchObject({ type: 'paragraph', text: 'Hello click world.' });
    expect(blocks[1]!.html).toBe('Hello click <strong>world</strong>.');
    const images = blocks.filter((b) => b.type === 'image');
    expect(images).toHaveLength(1);
    expect(book.images).toHaveLength(1);
    expect(book.images[0]).toMatchObject({ mediaType: 'image/png', width: 1, height: 1 });
    expect(book.metadata).toMatchObject({ title: 'Test Book', author: 'Ann Author', language: 'en' });
  });

  it('refuses XML entity declarations (billion laughs)', async () => {
    const bomb = `<!DOCTYPE html [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>`;
    const epub = await makeEpub([{ name: 'a.xhtml', head: bomb, body: '<p>&c;</p>' }]);
    expect((await parseError(epubParser.parse(epub))).key).toBe('fileTooComplex');
  });

  it('keeps ordinary DOCTYPEs and named entities', async () => {
    const doctype = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">';
    const epub = await makeEpub([
      { name: 'a.xhtml', head: doctype, body: '<p>Caf&eacute; &amp; &#x4e2d;&#25991;&nbsp;ok</p>' },
    ]);
    const book = await epubParser.parse(epub);
    expect(book.chapters[0]!.blocks[0]!.text).toBe('Café & 中文 ok');
  });

  it('refuses zip bombs from the declared sizes, before inflating', async () => {
    const zip = new JSZip();
    zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
    zip.file('META-INF/container.xml', '<container/>');
    zip.file('OEBPS/huge.xhtml', Buffer.alloc(30 * 1024 * 1024, 0x20));
    const bomb = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(bomb.length).toBeLessThan(100_000);
    expect((await parseError(parseBook(bomb))).key).toBe('fileTooComplex');
  });

  it('caps inflation even when declared sizes lie', async () => {
    const zip = new JSZip();
    zip.file('a.txt', Buffer.alloc(2 * 1024 * 1024, 0x41));
    const data = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const safe = await SafeZip.open(data, {
      maxTotalBytes: 1e9,
      maxEntryBytes: 1024 * 1024,
      maxRatio: 1e9,
      ratioFloorBytes: 1e9,
      maxEntries: 10,
    }).catch((e: unknown) => e);
    // Declared size 2 MiB > 1 MiB cap: refused up front.
    expect((safe as ParseError).key).toBe('fileTooComplex');
  });

  it('splits chapters at TOC fragments and attaches untitled spine files to the previous chapter', async () => {
    const nav = `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>
      <li><a href="a.xhtml#one">One</a></li><li><a href="a.xhtml#two">Two</a></li><li><a href="c.xhtml">Three</a></li></ol></nav></body></html>`;
    const epub = await makeEpub(
      [
        {
          name: 'a.xhtml',
          body: '<section id="one"><h2>One</h2><p>First.</p></section><section id="two"><h2>Two</h2><p>Second.</p></section>',
        },
        { name: 'b.xhtml', body: '<div>More of two, in a div only.</div><div>Another <i>div</i> paragraph.</div>' },
        {
          name: 'c.xhtml',
          body: '<h2>Three</h2><blockquote><p>Quoted.</p></blockquote><ul><li>Item</li></ul><pre>code  kept</pre><table><tr><th>a</th><th>b<br/>c</th></tr><tr><td><p>1</p><p>2</p></td><td>3</td></tr></table><table><tr><td><p>Layout tables are read as text.</p></td></tr></table>',
        },
      ],
      { nav },
    );
    const book = await epubParser.parse(epub);
    expect(book.chapters.map((c) => c.title)).toEqual(['One', 'Two', 'Three']);
    expect(book.chapters[1]!.blocks.map((b) => b.text)).toEqual([
      'Two',
      'Second.',
      'More of two, in a div only.',
      'Another div paragraph.',
    ]);
    expect(book.chapters[2]!.blocks.map((b) => [b.type, b.text])).toEqual([
      ['heading', 'Three'],
      ['quote', 'Quoted.'],
      ['listItem', 'Item'],
      ['code', 'code  kept'],
      ['table', 'a\tb c\n1 2\t3'],
      ['paragraph', 'Layout tables are read as text.'],
    ]);
    expect(book.chapters[2]!.blocks.map((b) => b.id)).toEqual(['c3-b1', 'c3-b2', 'c3-b3', 'c3-b4', 'c3-b5', 'c3-b6']);
  });

  it('links footnotes (epub:type noteref → aside footnote)', async () => {
    const epub = await makeEpub([
      {
        name: 'a.xhtml',
        body: `<p>Text<a epub:type="noteref" href="#n1">1</a> more.</p><aside epub:type="footnote" id="n1"><p>1. The note.</p></aside>`,
      },
    ]);
    const blocks = (await epubParser.parse(epub)).chapters[0]!.blocks;
    expect(blocks[0]!.noteRefs).toEqual(['c1-b2']);
    expect(blocks[0]!.html).toBe('Text<a href="#c1-b2">1</a> more.');
    expect(blocks[1]).toMatchObject({
      type: 'footnote',
      text: '1. The note.',
      noteLabel: '1',
      referencedBy: ['c1-b1'],
    });
  });

  it('refuses DRM-encrypted content but not font obfuscation', async () => {
    const drm = `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="OEBPS/a.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const locked = await makeEpub([{ name: 'a.xhtml', body: '<p>x</p>' }], {
      extra: { 'META-INF/encryption.xml': drm },
    });
    expect((await parseError(epubParser.parse(locked))).key).toBe('fileDrmProtected');
    const font = drm.replace('http://www.w3.org/2001/04/xmlenc#aes128-cbc', 'http://www.idpf.org/2008/embedding');
    const ok = await makeEpub([{ name: 'a.xhtml', body: '<p>x</p>' }], { extra: { 'META-INF/encryption.xml': font } });
    expect((await epubParser.parse(ok)).chapters[0]!.blocks[0]!.text).toBe('x');
  });

  it('keeps MathML as readable text: alttext, else the equation written out', async () => {
    const epub = await makeEpub([
      {
        name: 'a.xhtml',
        body: `<p>Energy <math alttext="E = mc^2"><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math> is conserved.</p>
          <math display="block"><mi>x</mi><mo>=</mo><mfrac><mrow><mo>&#x2212;</mo><mi>b</mi><mo>&#xB1;</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>&#x2212;</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math>
          <p>Sum: <m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:munderover><m:mo>&#x2211;</m:mo><m:mrow><m:mi>n</m:mi><m:mo>=</m:mo><m:mn>1</m:mn></m:mrow><m:mi>&#x221E;</m:mi></m:munderover><m:mfrac><m:mn>1</m:mn><m:msup><m:mi>n</m:mi><m:mn>2</m:mn></m:msup></m:mfrac></m:math>.</p>`,
      },
    ]);
    const blocks = (await epubParser.parse(epub)).chapters[0]!.blocks;
    expect(blocks.map((b) => b.text)).toEqual([
      'Energy E = mc^2 is conserved.',
      'x = (−b ± √(b^2 − 4ac))/(2a)',
      'Sum: ∑_(n = 1)^∞ 1/(n^2).',
    ]);
  });

  it('shows the epub:switch case it can render (MathML), else the default, never both', async () => {
    const epub = await makeEpub([
      {
        name: 'a.xhtml',
        body: `<epub:switch><epub:case required-namespace="http://example.com/unknown"><p>FAIL</p></epub:case><epub:default><p>PASS</p></epub:default></epub:switch>
          <epub:switch><epub:case required-namespace="http://www.w3.org/1998/Math/MathML"><math><mn>2</mn><mi>x</mi></math></epub:case><epub:default><p>no maths</p></epub:default></epub:switch>`,
      },
    ]);
    const blocks = (await epubParser.parse(epub)).chapters[0]!.blocks;
    expect(blocks.map((b) => b.text)).toEqual(['PASS', '2x']);
  });

  it('keeps the text of inline SVG, each text element a word apart, without its descriptions', async () => {
    const epub = await makeEpub([
      {
        name: 'a.xhtml',
        body: `<div><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><desc>A map</desc><text x="0" y="1">North</text><text x="0" y="9">South</text><text x="5" y="5"><tspan x="5" y="5">East</tspan><tspan x="5" dy="1">coast</tspan></text></svg></div>`,
      },
    ]);
    expect((await epubParser.parse(epub)).chapters[0]!.blocks.map((b) => b.text)).toEqual(['North South East coast']);
  });

  it('gives the same ids on every parse', async () => {
    const epub = await makeEpub([{ name: 'a.xhtml', body: '<h1>T</h1><p>a</p><p>b</p>' }]);
    const a = await epubParser.parse(epub);
    const b = await epubParser.parse(epub);
    expect(a.chapters).toEqual(b.chapters);
  });
});
