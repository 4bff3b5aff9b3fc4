/**
 * Writes generated large books for the parse benchmark: an EPUB, a TXT and a DOCX of about 30 MB each, made
 * of real prose from the corpus repeated into many chapters (so the text is realistic, not 'aaaa'), and
 * two PDFs of about 30 MB joined from corpus PDFs with poppler's `pdfunite`.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import JSZip from 'jszip';
import { writeLargeDocx } from '../apps/server/src/engines/parsers/docx/docx-fixture.ts';

export async function generateLargeBooks(
  corpus: string,
  outDir: string,
  targetBytes = 30 * 1024 * 1024,
): Promise<{ epub: string; txt: string; docx: string }> {
  await mkdir(outDir, { recursive: true });
  const full = (await readFile(path.join(corpus, 'txt/en-sherlock-holmes-utf8-bom-crlf.txt'), 'utf8')).replace(
    /^\uFEFF/,
    '',
  );
  // Only the stories: Gutenberg's licence markers, repeated, would make the parser keep a single copy.
  const source = full.slice(full.indexOf('\n', full.indexOf('*** START OF')), full.indexOf('*** END OF'));
  const paragraphs = source
    .split(/\r?\n\r?\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 40);

  // TXT: "Chapter N" headings followed by paragraphs.
  const txtParts: string[] = [];
  let size = 0;
  let chapter = 0;
  let i = 0;
  while (size < targetBytes) {
    chapter += 1;
    txtParts.push(`Chapter ${chapter}\n\n`);
    for (let k = 0; k < 40; k++, i++) {
      const p = paragraphs[i % paragraphs.length]! + '\n\n';
      txtParts.push(p);
      size += p.length;
    }
  }
  const txt = path.join(outDir, 'large.txt');
  await writeFile(txt, txtParts.join(''));

  // EPUB 3: one XHTML document per chapter, stored uncompressed so the file is about the target size.
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
  );
  const manifest: string[] = [];
  const spine: string[] = [];
  const nav: string[] = [];
  size = 0;
  i = 0;
  for (let c = 1; size < targetBytes; c++) {
    const body = Array.from({ length: 40 }, () => `<p>${escape(paragraphs[i++ % paragraphs.length]!)}</p>`).join('\n');
    const doc = `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter ${c}</title></head><body><h1>Chapter ${c}</h1>\n${body}</body></html>`;
    size += doc.length;
    zip.file(`OEBPS/ch${c}.xhtml`, doc, { compression: 'STORE' });
    manifest.push(`<item id="ch${c}" href="ch${c}.xhtml" media-type="application/xhtml+xml"/>`);
    spine.push(`<itemref idref="ch${c}"/>`);
    nav.push(`<li><a href="ch${c}.xhtml">Chapter ${c}</a></li>`);
  }
  zip.file(
    'OEBPS/nav.xhtml',
    `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><ol>${nav.join('')}</ol></nav></body></html>`,
  );
  zip.file(
    'OEBPS/content.opf',
    `<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">bench-large</dc:identifier><dc:title>Large generated book</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${manifest.join('')}</manifest><spine>${spine.join('')}</spine></package>`,
  );
  const epub = path.join(outDir, 'large.epub');
  await writeFile(epub, await zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' }));
  const docx = path.join(outDir, 'large.docx');
  await writeLargeDocx(docx, corpus, targetBytes);
  return { epub, txt, docx };
}

function escape(text: string): string {
  return text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/**
 * Two PDFs of about 30 MB from real ones (poppler's `pdfunite`, installed with `pdftotext`):
 * `large.pdf`, a two-column paper with figures repeated to 30 MB (434 pages, what a 30 MB PDF usually
 * is: pages with pictures), and `long.pdf`, a 352-page book repeated with the paper to 2,956 pages,
 * just under the 3,000 pages a PDF may have. Each copy brings its own fonts, as joined files do.
 */
export async function generateLargePdfs(
  corpus: string,
  outDir: string,
  targetBytes = 30 * 1024 * 1024,
): Promise<{ large: string; long: string }> {
  await mkdir(outDir, { recursive: true });
  const paper = path.join(corpus, 'pdf/en-tracemonkey-two-column-footnotes.pdf');
  const book = path.join(corpus, 'pdf/en-free-culture-book.pdf');
  const copies = Math.ceil(targetBytes / (await stat(paper)).size);
  const large = path.join(outDir, 'large.pdf');
  const long = path.join(outDir, 'long.pdf');
  const unite = promisify(execFile);
  await unite('pdfunite', [...Array<string>(copies).fill(paper), large]);
  await unite('pdfunite', [...Array<string>(8).fill(book), ...Array<string>(10).fill(paper), long]);
  return { large, long };
}
