/**
 * The book as its makers made it: notes in a file of their own, verse lines, SVG illustrations, read
 * from Standard Ebooks' own files (fixtures/standard-ebooks.ts) and from the markup other makers use.
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import type { Block, ParsedBook } from '../types.ts';
import { epubParser } from './epub.ts';
import { PLAINCHANT_TITLE, pepysSample, ulyssesSample } from './fixtures/standard-ebooks.ts';
import { SVG_LIMITS } from '../svg/svg-safe.ts';

const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
  'base64',
);

const blocks = (book: ParsedBook): Block[] => book.chapters.flatMap((c) => c.blocks);
const byId = (book: ParsedBook, id: string) => blocks(book).find((b) => b.id === id)!;

/** One-chapter EPUB with the given body and extra files (paths under OEBPS/). */
async function epubWith(body: string, files: Record<string, string | Buffer> = {}, items = ''): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
  );
  zip.file(
    'OEBPS/content.opf',
    `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title><dc:language>en</dc:language></metadata><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>${items}</manifest><spine><itemref idref="a"/></spine></package>`,
  );
  zip.file(
    'OEBPS/a.xhtml',
    `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>a</title></head><body>${body}</body></html>`,
  );
  for (const [name, data] of Object.entries(files)) zip.file(`OEBPS/${name}`, data);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

describe('notes in a file of their own (Pepys, Standard Ebooks)', () => {
  it('links each marker to its note in endnotes.xhtml, labelled as the marker shows it, both ways', async () => {
    const book = await epubParser.parse(await pepysSample());
    expect(book.chapters.map((c) => c.title)).toEqual(['January 1659–60', 'Endnotes']);
    // 2nd January 1660: "Mr. Sheply60 … my Lord,61 …".
    const entry = blocks(book).find((b) => b.text.startsWith('2nd. In the morning'))!;
    expect(entry.id).toMatch(/^c1-/);
    const notes = entry.noteRefs!.map((id) => byId(book, id));
    expect(notes.map((n) => n.noteLabel)).toEqual(['60', '61', '62', '63', '64', '65', '66', '67', '68', '69']);
    expect(notes.every((n) => n.type === 'footnote' && n.id.startsWith('c2-'))).toBe(true);
    const sheply = notes[0]!;
    expect(sheply.text).toBe(
      'W. Shepley was a servant of Admiral Sir Edward Montagu (afterwards Earl of Sandwich), with whom Pepys was frequently brought in contact. He was steward at Hinchinbroke.',
    );
    expect(sheply.referencedBy).toEqual([entry.id]);
    expect(entry.html).toContain(`Sheply<a href="#${sheply.id}">60</a> who`);
    // The notes' own arrows back (epub:type="backlink") are not their text: the reader leads back.
    expect(blocks(book).filter((b) => b.type === 'footnote' && b.text.includes('↩'))).toEqual([]);
    expect(book.stats.footnotes).toBe(23);
  });
});

describe('verse keeps its lines', () => {
  it('reads Standard Ebooks’ verse and songs (spans and <br/>) as one block of lines each', async () => {
    const book = await epubParser.parse(await ulyssesSample());
    const verse = blocks(book).filter((b) => b.text.includes('\n'));
    expect(verse.map((b) => [b.type, b.text.split('\n').length])).toEqual([
      ['quote', 5],
      ['quote', 6],
      ['quote', 4],
    ]);
    expect(verse[1]!.text.split('\n')).toEqual([
      'Little Harry Hughes and his schoolfellows all',
      'Went out for to play ball.',
      'And the very first ball little Harry Hughes played',
      'He drove it o’er the jew’s garden wall.',
      'And the very second ball little Harry Hughes played',
      'He broke the jew’s windows all.',
    ]);
  });

  it('reads lines made of spans alone in verse, and <br/> lines in any paragraph', async () => {
    const book = await epubWith(
      `<div epub:type="z3998:poem"><p><span>Shall I compare thee</span><span>to a summer’s day?</span></p></div>
       <div class="stanza"><p><span class="line">Thou art more <span class="i">lovely</span></span> <span class="line">and more temperate</span></p></div>
       <p>Sincerely,<br/>Ann<br />  Author</p>
       <p><span>Prose</span><span> goes on</span> in spans.</p>`,
    ).then((epub) => epubParser.parse(epub));
    expect(blocks(book).map((b) => b.text)).toEqual([
      'Shall I compare thee\nto a summer’s day?',
      'Thou art more lovely\nand more temperate',
      'Sincerely,\nAnn\nAuthor',
      'Prose goes on in spans.',
    ]);
  });
});

describe('SVG illustrations are pictures', () => {
  it('keeps the plainchant score of Ulysses as a PNG, its alt text as the image’s words', async () => {
    const book = await epubParser.parse(await ulyssesSample());
    const image = blocks(book).find((b) => b.type === 'image')!;
    expect(image.text).toBe(PLAINCHANT_TITLE);
    const picture = book.images.find((i) => i.id === image.imageId)!;
    expect(picture.mediaType).toBe('image/png');
    expect(picture.data.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([picture.width, picture.height]).toEqual([724, 234]);
  });

  it('draws inline drawings with their title, keeps a frame around a photograph as the photograph', async () => {
    const book = await epubParser.parse(
      await epubWith(
        `<p>Before.</p>
         <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><title>A red square</title><rect width="10" height="10" fill="red"/><text x="11" y="9">N</text></svg>
         <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 600 800"><image width="600" height="800" xlink:href="cover.jpg"/></svg>
         <p>After.</p>`,
        { 'cover.jpg': JPEG },
        '<item id="c" href="cover.jpg" media-type="image/jpeg"/>',
      ),
    );
    expect(blocks(book).map((b) => [b.type, b.text])).toEqual([
      ['paragraph', 'Before.'],
      ['paragraph', 'N'],
      ['image', 'A red square'],
      ['image', ''],
      ['paragraph', 'After.'],
    ]);
    expect(book.images.map((i) => i.mediaType).sort()).toEqual(['image/jpeg', 'image/png']);
  });

  it('shows an SVG page of the spine that is a picture as one, its title its words', async () => {
    const zip = new JSZip();
    zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
    zip.file(
      'META-INF/container.xml',
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    );
    zip.file(
      'content.opf',
      '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title><dc:language>en</dc:language></metadata><manifest><item id="map" href="map.svg" media-type="image/svg+xml"/><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="map"/><itemref idref="a"/></spine></package>',
    );
    zip.file(
      'map.svg',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><title>A map of Dublin</title><path d="M0 0L100 50"/></svg>',
    );
    zip.file(
      'a.xhtml',
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>a</title></head><body><p>Stately, plump Buck Mulligan.</p></body></html>',
    );
    const book = await epubParser.parse(await zip.generateAsync({ type: 'nodebuffer' }));
    expect(blocks(book).map((b) => [b.type, b.text])).toEqual([
      ['image', 'A map of Dublin'],
      ['paragraph', 'Stately, plump Buck Mulligan.'],
    ]);
    expect(book.images[0]!.mediaType).toBe('image/png');
  });

  it('makes a hostile SVG a harmless PNG and leaves out one declaring entities, reading the book', async () => {
    const scripted = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10"/><foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject></svg>`;
    const laughs = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/><text>&c;</text></svg>`;
    const book = await epubParser.parse(
      await epubWith(
        '<p>Text.</p><img src="scripted.svg" alt="A square"/><img src="laughs.svg" alt="Laughs"/>',
        { 'scripted.svg': scripted, 'laughs.svg': laughs },
        '<item id="s" href="scripted.svg" media-type="image/svg+xml"/><item id="l" href="laughs.svg" media-type="image/svg+xml"/>',
      ),
    );
    expect(blocks(book).map((b) => [b.type, b.text])).toEqual([
      ['paragraph', 'Text.'],
      ['image', 'A square'],
    ]);
    expect(book.images).toHaveLength(1);
    expect(book.images[0]!.mediaType).toBe('image/png');
    expect(book.images[0]!.data.toString('latin1')).not.toContain('script');
    expect(book.warnings.join(' ')).toContain('laughs.svg declares XML entities');
  });

  it(`draws at most ${SVG_LIMITS.picturesPerBook} SVG pictures of a book, the text all read`, async () => {
    const drawing = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="1" height="1"/></svg>';
    const count = SVG_LIMITS.picturesPerBook + 1;
    const book = await epubParser.parse(
      await epubWith(Array.from({ length: count }, (_, i) => `<p>Figure ${i + 1}.</p>${drawing}`).join('')),
    );
    expect(blocks(book).filter((b) => b.type === 'paragraph')).toHaveLength(count);
    expect(book.images).toHaveLength(SVG_LIMITS.picturesPerBook);
    expect(blocks(book).filter((b) => b.type === 'image')).toHaveLength(SVG_LIMITS.picturesPerBook);
    expect(book.warnings.join(' ')).toContain(`More than ${SVG_LIMITS.picturesPerBook} SVG pictures`);
  });
});
