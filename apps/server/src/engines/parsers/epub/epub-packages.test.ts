/**
 * EPUBs as sloppy tools and damaged downloads make them: each is read as far as it goes.
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { bookText } from '../builder.ts';
import { ParseError } from '../errors.ts';
import { epubParser } from './epub.ts';

const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
  'base64',
);

const CONTAINER = (opf: string) =>
  `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="${opf}" media-type="application/oebps-package+xml"/></rootfiles></container>`;

const xhtml = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>${body}</body></html>`;

function opf(items: string, spine: string): string {
  return `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Sloppy</dc:title><dc:language>en</dc:language></metadata><manifest>${items}</manifest><spine>${spine}</spine></package>`;
}

async function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  for (const [name, data] of Object.entries(files)) zip.file(name, data);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const CHAPTERS = {
  'OEBPS/one.xhtml': xhtml('<p>Chapter one text.</p>'),
  'OEBPS/two.xhtml': xhtml('<p>Chapter two text.</p>'),
};
const ITEMS =
  '<item id="one" href="one.xhtml" media-type="application/xhtml+xml"/><item id="two" href="two.xhtml" media-type="application/xhtml+xml"/>';
const SPINE = '<itemref idref="one"/><itemref idref="two"/>';

async function refusal(input: Buffer): Promise<ParseError> {
  const error = await epubParser.parse(input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParseError);
  return error as ParseError;
}

describe('sloppy EPUB packages', () => {
  it('reads the manifest items that exist when others are missing', async () => {
    const book = await epubParser.parse(
      await zipOf({
        'META-INF/container.xml': CONTAINER('OEBPS/content.opf'),
        'OEBPS/content.opf': opf(
          `${ITEMS}<item id="gone" href="gone.xhtml" media-type="application/xhtml+xml"/>`,
          '<itemref idref="one"/><itemref idref="gone"/><itemref idref="two"/>',
        ),
        ...CHAPTERS,
      }),
    );
    expect(bookText(book)).toBe('Chapter one text.\nChapter two text.');
    expect(book.warnings.join()).toMatch(/gone\.xhtml/);
  });

  it('skips spine references to items the manifest does not have', async () => {
    const book = await epubParser.parse(
      await zipOf({
        'META-INF/container.xml': CONTAINER('OEBPS/content.opf'),
        'OEBPS/content.opf': opf(ITEMS, '<itemref idref="one"/><itemref idref="nowhere"/><itemref idref="two"/>'),
        ...CHAPTERS,
      }),
    );
    expect(bookText(book)).toBe('Chapter one text.\nChapter two text.');
  });

  it('reads content documents declared with a wrong media type', async () => {
    const items =
      '<item id="one" href="one.xhtml" media-type="text/plain"/><item id="two" href="two.htm" media-type="application/octet-stream"/><item id="css" href="style.css" media-type="text/css"/>';
    const book = await epubParser.parse(
      await zipOf({
        'META-INF/container.xml': CONTAINER('OEBPS/content.opf'),
        'OEBPS/content.opf': opf(items, '<itemref idref="one"/><itemref idref="css"/><itemref idref="two"/>'),
        'OEBPS/one.xhtml': CHAPTERS['OEBPS/one.xhtml'],
        'OEBPS/two.htm': CHAPTERS['OEBPS/two.xhtml'],
        'OEBPS/style.css': 'p { color: red }',
      }),
    );
    expect(bookText(book)).toBe('Chapter one text.\nChapter two text.');
  });

  it('finds the package document when container.xml names a missing one, or is missing', async () => {
    const containers: Record<string, string>[] = [{ 'META-INF/container.xml': CONTAINER('OEBPS/missing.opf') }, {}];
    for (const container of containers) {
      const book = await epubParser.parse(
        await zipOf({ ...container, 'OEBPS/package.opf': opf(ITEMS, SPINE), ...CHAPTERS }),
      );
      expect(bookText(book)).toBe('Chapter one text.\nChapter two text.');
      expect(book.metadata.title).toBe('Sloppy');
    }
  });

  it('matches paths in another case, %-escaped or not, and with Windows separators', async () => {
    const items =
      '<item id="one" href="Text/Chapter%20One.xhtml" media-type="application/xhtml+xml"/>' +
      '<item id="two" href="text/TWO.XHTML" media-type="application/xhtml+xml"/>' +
      '<item id="three" href="Text/caf%C3%A9.xhtml" media-type="application/xhtml+xml"/>' +
      '<item id="four" href="Text/four.xhtml" media-type="application/xhtml+xml"/>';
    const book = await epubParser.parse(
      await zipOf({
        'META-INF/container.xml': CONTAINER('/OEBPS/content.opf'),
        'OEBPS/content.opf': opf(
          items,
          '<itemref idref="one"/><itemref idref="two"/><itemref idref="three"/><itemref idref="four"/>',
        ),
        'OEBPS/Text/Chapter One.xhtml': xhtml('<p>One.</p>'),
        'OEBPS/Text/two.xhtml': xhtml('<p>Two.</p>'),
        // Stored with its escapes, as some tools write names.
        'OEBPS/Text/caf%C3%A9.xhtml': xhtml('<p>Three.</p>'),
        'OEBPS\\Text\\four.xhtml': xhtml('<p>Four.</p>'),
      }),
    );
    expect(bookText(book)).toBe('One.\nTwo.\nThree.\nFour.');
  });

  it('skips a damaged content document and reads the others', async () => {
    const epub = await zipOf({
      'META-INF/container.xml': CONTAINER('OEBPS/content.opf'),
      'OEBPS/content.opf': opf(ITEMS, SPINE),
      ...CHAPTERS,
    });
    // Break the local header of one.xhtml (the central directory still lists it).
    const at = epub.indexOf('OEBPS/one.xhtml');
    epub.writeUInt32LE(0, at - 30);
    const book = await epubParser.parse(epub);
    expect(bookText(book)).toBe('Chapter two text.');
  });
});

describe('image-only EPUBs', () => {
  it('refuses a book whose spine is pictures, without reading its navigation document as the book', async () => {
    const items =
      '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>' +
      '<item id="p1" href="p1.jpg" media-type="image/jpeg"/><item id="p2" href="p2.jpg" media-type="image/jpeg"/>';
    const epub = await zipOf({
      'META-INF/container.xml': CONTAINER('OEBPS/content.opf'),
      'OEBPS/content.opf': opf(items, '<itemref idref="p1"/><itemref idref="p2"/>'),
      'OEBPS/nav.xhtml': xhtml(
        '<h1>Sommaire</h1><nav epub:type="toc"><ol><li><a href="p1.jpg">Page 1</a></li></ol></nav>',
      ),
      'OEBPS/p1.jpg': JPEG,
      'OEBPS/p2.jpg': JPEG,
    });
    expect((await refusal(epub)).key).toBe('noTextFound');
  });

  it('refuses a book of SVG drawings without text, and reads one whose drawings have text', async () => {
    const svg = (inner: string) =>
      `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100"><title>Page</title><desc>A folded crane</desc>${inner}</svg>`;
    const items =
      '<item id="s1" href="s1.svg" media-type="image/svg+xml"/><item id="img" href="p.jpg" media-type="image/jpeg"/>';
    const files = (inner: string) => ({
      'META-INF/container.xml': CONTAINER('OEBPS/content.opf'),
      'OEBPS/content.opf': opf(items, '<itemref idref="s1"/>'),
      'OEBPS/s1.svg': svg(inner),
      'OEBPS/p.jpg': JPEG,
    });
    expect((await refusal(await zipOf(files('<image xlink:href="p.jpg" width="100" height="100"/>')))).key).toBe(
      'noTextFound',
    );
    const book = await epubParser.parse(
      await zipOf(files('<text x="1" y="10">Fold the paper</text><text x="1" y="20">in half.</text>')),
    );
    expect(bookText(book)).toBe('Fold the paper in half.');
  });

  it('shows pictures in the spine as pages of a book that has text', async () => {
    const items = `<item id="p1" href="p1.jpg" media-type="image/jpeg"/>${ITEMS}`;
    const book = await epubParser.parse(
      await zipOf({
        'META-INF/container.xml': CONTAINER('OEBPS/content.opf'),
        'OEBPS/content.opf': opf(items, `<itemref idref="p1"/>${SPINE}`),
        'OEBPS/p1.jpg': JPEG,
        ...CHAPTERS,
      }),
    );
    expect(book.chapters.flatMap((c) => c.blocks.map((b) => b.type))).toEqual(['image', 'paragraph', 'paragraph']);
    expect(book.images).toHaveLength(1);
  });
});
