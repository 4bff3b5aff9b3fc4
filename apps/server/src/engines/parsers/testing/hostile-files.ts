/**
 * Hostile files, made on the spot for tests and benchmarks: each is small on disk and built to make a
 * naive parser exhaust memory or time (see PARSE_LIMITS and isolated/parse-host.ts). Not used by
 * the parsers.
 */
import zlib from 'node:zlib';
import { buildDocx, zip } from '../docx/docx-fixture.ts';

/** An EPUB of one chapter with `paragraphs` tiny paragraphs (21 million: about 3 MB that inflate to 170 MB). */
export function paragraphFloodEpub(paragraphs = 21_000_000): Buffer {
  // Paragraphs differ a little ("a" or "b", by a fixed pseudo-random sequence), so the chapter
  // compresses about 60:1: under the ZIP ratio cap, so it reaches the XHTML reader.
  const parts: string[] = [];
  let seed = 7;
  const chunk: string[] = [];
  for (let i = 0; i < paragraphs; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    chunk.push(seed & 0x10000 ? '<p>a</p>' : '<p>b</p>');
    if (chunk.length === 100_000) {
      parts.push(chunk.join(''));
      chunk.length = 0;
    }
  }
  parts.push(chunk.join(''));
  return epubWithChapter(
    Buffer.concat([Buffer.from(XHTML_HEAD), ...parts.map((p) => Buffer.from(p)), Buffer.from(XHTML_TAIL)]),
  );
}

/** An EPUB whose chapter nests `depth` div elements. */
export function deeplyNestedEpub(depth = 10_000): Buffer {
  const body = `${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`;
  return epubWithChapter(Buffer.from(`${XHTML_HEAD}${body}${XHTML_TAIL}`));
}

/** A DOCX whose body nests `depth` tables, each in a cell of the one around it. */
export function deeplyNestedDocx(depth = 10_000): Buffer {
  const open = '<w:tbl><w:tr><w:tc>';
  const close = '<w:p><w:r><w:t>x</w:t></w:r></w:p></w:tc></w:tr></w:tbl>';
  return buildDocx({ body: `${open.repeat(depth)}<w:p><w:r><w:t>deep</w:t></w:r></w:p>${close.repeat(depth)}` });
}

/** Rich Text under a .doc name: 29 MB of empty paragraphs (7.6 million `\par`). */
export function paragraphFloodRtf(bytes = 29 * 1024 * 1024): Buffer {
  const out = Buffer.alloc(bytes, '\\par');
  out.write('{\\rtf1\\ansi ', 0, 'latin1');
  return out;
}

/** Rich Text whose groups nest 100,000 deep. */
export function deeplyNestedRtf(depth = 100_000): Buffer {
  return Buffer.from(`{\\rtf1\\ansi ${'{'.repeat(depth)}deep${'}'.repeat(depth)}}`, 'latin1');
}

/** A TXT of `bytes` bytes of tiny one-word lines: about 7.6 million paragraphs in 29 MB. */
export function tinyLinesTxt(bytes = 29 * 1024 * 1024): Buffer {
  const words = ['ab', 'cd', 'efg', 'hi', 'jkl', 'mn', 'op', 'qrs'];
  const line = words.map((w) => `${w}\n`).join('');
  const out = Buffer.alloc(bytes, line);
  out[out.length - 1] = 0x0a;
  return out;
}

/** A one-page PDF whose content stream is about 1 MB of deflate that inflates to `inflatedBytes`. */
export async function flateBombPdf(inflatedBytes = 1024 * 1024 * 1024): Promise<Buffer> {
  const stream = await deflateRepeated(Buffer.alloc(1024 * 1024, ' '), Math.ceil(inflatedBytes / (1024 * 1024)));
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>',
    { dict: '/Filter /FlateDecode', data: stream },
  ]);
}

/** A tiny PDF with one empty page of 200 × 200 inches (the largest a PDF may declare). */
export function hugePagePdf(): Buffer {
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Resources << >> >>',
  ]);
}

/** A PDF of `pages` empty pages. */
export function manyPagesPdf(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'),
  ]);
}

const XHTML_HEAD =
  '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>';
const XHTML_TAIL = '</body></html>';

function epubWithChapter(chapter: Buffer): Buffer {
  return epubOfDocuments([chapter]);
}

/** An EPUB of these XHTML documents, one spine item (and so, without a table of contents, one chapter) each. */
export function epubOfDocuments(documents: (Buffer | string)[]): Buffer {
  const items = documents.map(
    (_, i) => `<item id="c${i + 1}" href="c${i + 1}.xhtml" media-type="application/xhtml+xml"/>`,
  );
  const refs = documents.map((_, i) => `<itemref idref="c${i + 1}"/>`);
  return zip([
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    {
      name: 'META-INF/container.xml',
      data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    },
    {
      name: 'OEBPS/content.opf',
      data: `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Hostile</dc:title><dc:language>en</dc:language></metadata><manifest>${items.join('')}</manifest><spine>${refs.join('')}</spine></package>`,
    },
    ...documents.map((data, i) => ({
      name: `OEBPS/c${i + 1}.xhtml`,
      data: typeof data === 'string' ? `${XHTML_HEAD}${data}${XHTML_TAIL}` : data,
    })),
  ]);
}

/** One zlib stream of `count` copies of `block`, deflated as they are written (never all in memory). */
async function deflateRepeated(block: Buffer, count: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const finished = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  for (let i = 0; i < count; i++) {
    if (!deflate.write(block)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await finished;
  return Buffer.concat(out);
}

type PdfObject = string | { dict: string; data: Buffer };

/** A PDF of the given objects (numbered from 1; the first is the catalog) with a correct xref table. */
function pdf(objects: PdfObject[]): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    const body =
      typeof object === 'string'
        ? Buffer.from(`${i + 1} 0 obj\n${object}\nendobj\n`)
        : Buffer.concat([
            Buffer.from(`${i + 1} 0 obj\n<< ${object.dict} /Length ${object.data.length} >>\nstream\n`),
            object.data,
            Buffer.from('\nendstream\nendobj\n'),
          ]);
    chunks.push(body);
    length += body.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
  ].join('');
  chunks.push(Buffer.from(xref));
  return Buffer.concat(chunks);
}
