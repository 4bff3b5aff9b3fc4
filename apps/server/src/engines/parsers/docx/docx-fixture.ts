/**
 * Builds DOCX files for tests and measurements: small hand-written documents exercising one feature
 * each, and a large book of real corpus prose wrapped in the markup Word itself writes (rsids, fonts,
 * sizes on every run), so the XML-to-text ratio is realistic. Not used by the parsers.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface ZipInput {
  name: string;
  data: Buffer | string;
  store?: boolean;
}

const W_NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:v="urn:schemas-microsoft-com:vml"';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

interface ZipRecord {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  method: number;
  offset: number;
}

/** A minimal ZIP writer (no ZIP64): enough for test documents up to a few hundred MB. */
class ZipWriter {
  private readonly records: ZipRecord[] = [];
  private offset = 0;
  private readonly write: (chunk: Buffer) => void;

  constructor(write: (chunk: Buffer) => void) {
    this.write = write;
  }

  private header(record: ZipRecord): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0800, 6); // UTF-8 names
    h.writeUInt16LE(record.method, 8);
    h.writeUInt32LE(record.crc, 14);
    h.writeUInt32LE(record.compressed, 18);
    h.writeUInt32LE(record.size, 22);
    h.writeUInt16LE(record.name.length, 26);
    return Buffer.concat([h, record.name]);
  }

  add(entry: ZipInput): void {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data) : entry.data;
    const body = entry.store ? data : zlib.deflateRawSync(data);
    const record: ZipRecord = {
      name: Buffer.from(entry.name),
      crc: zlib.crc32(data),
      compressed: body.length,
      size: data.length,
      method: entry.store ? 0 : 8,
      offset: this.offset,
    };
    this.push(this.header(record));
    this.push(body);
    this.records.push(record);
  }

  /** Adds an entry whose content is produced piece by piece (deflated as it comes). */
  async addStream(name: string, produce: (write: (text: string) => Promise<number>) => Promise<void>): Promise<void> {
    const deflate = zlib.createDeflateRaw({ level: 6 });
    const parts: Buffer[] = [];
    let compressed = 0;
    deflate.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      compressed += chunk.length;
    });
    let crc = 0;
    let size = 0;
    // Each write resolves to the archive size so far, so producers can stop at a target file size.
    await produce(async (text) => {
      const data = Buffer.from(text);
      crc = zlib.crc32(data, crc);
      size += data.length;
      if (!deflate.write(data)) await new Promise((resolve) => deflate.once('drain', resolve));
      return this.offset + compressed;
    });
    // 'end' (not the end() callback) fires once the last compressed bytes have been read.
    await new Promise<void>((resolve) => {
      deflate.once('end', resolve);
      deflate.end();
    });
    const body = Buffer.concat(parts);
    const record: ZipRecord = {
      name: Buffer.from(name),
      crc,
      compressed: body.length,
      size,
      method: 8,
      offset: this.offset,
    };
    this.push(this.header(record));
    this.push(body);
    this.records.push(record);
  }

  private push(chunk: Buffer): void {
    this.write(chunk);
    this.offset += chunk.length;
  }

  finish(): void {
    const start = this.offset;
    for (const r of this.records) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(20, 4);
      c.writeUInt16LE(20, 6);
      c.writeUInt16LE(0x0800, 8);
      c.writeUInt16LE(r.method, 10);
      c.writeUInt32LE(r.crc, 16);
      c.writeUInt32LE(r.compressed, 20);
      c.writeUInt32LE(r.size, 24);
      c.writeUInt16LE(r.name.length, 28);
      c.writeUInt32LE(r.offset, 42);
      this.push(Buffer.concat([c, r.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.records.length, 8);
    end.writeUInt16LE(this.records.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.push(end);
  }
}

export function zip(entries: ZipInput[]): Buffer {
  const chunks: Buffer[] = [];
  const writer = new ZipWriter((c) => chunks.push(c));
  for (const e of entries) writer.add(e);
  writer.finish();
  return Buffer.concat(chunks);
}

export interface DocxParts {
  /** The content of w:body. */
  body: string;
  styles?: string;
  footnotes?: string;
  /** The content of w:numbering (abstractNum and num elements). */
  numbering?: string;
  /** Extra relationships of document.xml: `<Relationship .../>` elements. */
  rels?: string;
  core?: { title?: string; creator?: string };
  media?: Record<string, Buffer>;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function packageEntries(parts: DocxParts): ZipInput[] {
  const entries: ZipInput[] = [
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    },
    {
      name: 'word/_rels/document.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdStyles" Type="${REL}/styles" Target="styles.xml"/>${parts.footnotes ? `<Relationship Id="rIdNotes" Type="${REL}/footnotes" Target="footnotes.xml"/>` : ''}${parts.numbering ? `<Relationship Id="rIdNum" Type="${REL}/numbering" Target="numbering.xml"/>` : ''}${parts.rels ?? ''}</Relationships>`,
    },
  ];
  if (parts.core) {
    entries.push({
      name: 'docProps/core.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">${parts.core.title ? `<dc:title>${escapeXml(parts.core.title)}</dc:title>` : ''}${parts.core.creator ? `<dc:creator>${escapeXml(parts.core.creator)}</dc:creator>` : ''}</cp:coreProperties>`,
    });
  }
  entries.push({
    name: 'word/styles.xml',
    data: `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W_NS}>${parts.styles ?? DEFAULT_STYLES}</w:styles>`,
  });
  if (parts.footnotes) {
    entries.push({
      name: 'word/footnotes.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:footnotes ${W_NS}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>${parts.footnotes}</w:footnotes>`,
    });
  }
  if (parts.numbering) {
    entries.push({
      name: 'word/numbering.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:numbering ${W_NS}>${parts.numbering}</w:numbering>`,
    });
  }
  for (const [name, data] of Object.entries(parts.media ?? {})) entries.push({ name: `word/media/${name}`, data });
  return entries;
}

export const DEFAULT_STYLES =
  '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
  [1, 2, 3]
    .map(
      (n) =>
        `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="${n - 1}"/></w:pPr></w:style>`,
    )
    .join('') +
  '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style>' +
  '<w:style w:type="character" w:styleId="Emphasis"><w:name w:val="Emphasis"/><w:rPr><w:i/></w:rPr></w:style>';

/** A DOCX with the given body (and optional styles, footnotes, media) as a Buffer. */
export function buildDocx(parts: DocxParts): Buffer {
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W_NS}><w:body>${parts.body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`;
  return zip([...packageEntries(parts), { name: 'word/document.xml', data: document }]);
}

/** A deterministic pseudo-random sequence (mulberry32), so generated files are identical each time. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** English prose paragraphs from the corpus (Sherlock Holmes, Pride and Prejudice). */
export function corpusParagraphs(corpus: string): string[] {
  const sherlock = readFileSync(path.join(corpus, 'txt/en-sherlock-holmes-utf8-bom-crlf.txt'), 'utf8');
  const pride = new TextDecoder('windows-1252').decode(
    readFileSync(path.join(corpus, 'txt/en-pride-and-prejudice-cp1252-crlf.txt')),
  );
  return `${sherlock}\n\n${pride}`
    .replace(/^\uFEFF/, '')
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 40 && !/gutenberg/i.test(p));
}

/**
 * Writes a DOCX of about `targetBytes` (the file size): chapters with Heading 1 titles, paragraphs
 * split into several runs with Word's usual run properties, some italic and bold, a footnote every
 * 50 paragraphs. Returns the file's size.
 */
export async function writeLargeDocx(file: string, corpus: string, targetBytes = 30 * 1024 * 1024): Promise<number> {
  const paragraphs = corpusParagraphs(corpus);
  const rand = random(42);
  const rsid = () =>
    Math.floor(rand() * 0xffffffff)
      .toString(16)
      .toUpperCase()
      .padStart(8, '0');
  const out = createWriteStream(file);
  let written = 0;
  const writer = new ZipWriter((chunk) => {
    written += chunk.length;
    out.write(chunk);
  });
  for (const entry of packageEntries({
    body: '',
    core: { title: 'Large generated book', creator: 'Yidu measurements' },
    footnotes: ' ',
  })) {
    if (entry.name !== 'word/footnotes.xml') writer.add(entry);
  }
  const rPr = (extra: string) =>
    `<w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:cs="Times New Roman"/>${extra}<w:sz w:val="24"/><w:szCs w:val="24"/><w:lang w:val="en-GB"/></w:rPr>`;
  const notes: string[] = [];
  let size = 0;
  await writer.addStream('word/document.xml', async (write) => {
    await write(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W_NS}><w:body>`);
    let i = 0;
    // Leave room for the footnotes part written after the body.
    for (let chapter = 1; size < targetBytes * 0.985; chapter++) {
      const parts: string[] = [
        `<w:p w:rsidR="${rsid()}" w:rsidRDefault="${rsid()}"><w:pPr><w:pStyle w:val="Heading1"/><w:spacing w:before="240" w:after="120"/></w:pPr><w:r>${rPr('<w:b/>')}<w:t>Chapter ${chapter}</w:t></w:r></w:p>`,
      ];
      for (let k = 0; k < 40; k++, i++) {
        const text = paragraphs[i % paragraphs.length]!;
        const words = text.split(' ');
        const runs: string[] = [];
        for (let w = 0; w < words.length;) {
          const take = 3 + Math.floor(rand() * 12);
          const piece = words.slice(w, w + take).join(' ') + (w + take < words.length ? ' ' : '');
          w += take;
          const r = rand();
          const extra = r < 0.06 ? '<w:i/><w:iCs/>' : r < 0.08 ? '<w:b/><w:bCs/>' : '';
          runs.push(
            `<w:r w:rsidRPr="${rsid()}">${rPr(extra)}<w:t xml:space="preserve">${escapeXml(piece)}</w:t></w:r>`,
          );
        }
        if (i % 50 === 49) {
          const id = notes.length + 1;
          notes.push(
            `<w:footnote w:id="${id}"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Note ${id}: ${escapeXml(paragraphs[(i * 7) % paragraphs.length]!.slice(0, 200))}</w:t></w:r></w:p></w:footnote>`,
          );
          runs.push(
            `<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="${id}"/></w:r>`,
          );
        }
        parts.push(
          `<w:p w:rsidR="${rsid()}" w:rsidRDefault="${rsid()}" w:rsidP="${rsid()}"><w:pPr><w:spacing w:after="120" w:line="276" w:lineRule="auto"/><w:ind w:firstLine="567"/><w:jc w:val="both"/>${rPr('')}</w:pPr>${runs.join('')}</w:p>`,
        );
      }
      size = await write(parts.join(''));
    }
    await write('<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>');
  });
  writer.add({
    name: 'word/footnotes.xml',
    data: `<?xml version="1.0" encoding="UTF-8"?><w:footnotes ${W_NS}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>${notes.join('')}</w:footnotes>`,
  });
  writer.finish();
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return written;
}
