/**
 * Builds PDFs protected by Microsoft Information Rights Management, as Microsoft's tools write them
 * (for tests; not used by the parsers):
 *
 * - `irmWrapperPdf`: PDF IRM v2, a PDF 2.0 wrapper whose one page is the notice that the document is
 *   protected, the real document embedded as an encrypted payload: a file specification named
 *   "MicrosoftIRMServices Protected PDF.pdf" with /AFRelationship /EncryptedPayload and an encrypted
 *   payload dictionary (/Subtype /MicrosoftIRMServices), listed in /EmbeddedFiles and /AF, in a
 *   collection that shows it. `compressed` puts those dictionaries in an object stream (with a
 *   cross-reference stream), where the file's bytes do not show their names.
 * - `irmEncryptedPdf`: the older form, the whole file encrypted with Microsoft's security handler
 *   (/Encrypt with /Filter /MicrosoftIRMServices, a publishing licence, streams of cipher bytes).
 */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

interface PdfObject {
  body: string | Buffer;
  /** Stored in the object stream rather than at the top level of the file. */
  packed?: boolean;
}

/** A PDF string literal of Latin-1 text. */
const literal = (text: string) => `(${text.replace(/[()\\]/g, (c) => `\\${c}`)})`;

/** A stream object's body: its dictionary entries, then the data. */
function streamBody(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<<${dict}/Length ${data.length}>>stream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/**
 * The file: objects numbered from 1 in order. With packed objects, they go into one object stream
 * and the cross-reference table is a stream too (PDF 1.5+); else a classic table.
 */
function writePdf(version: string, objects: PdfObject[], trailer: string): Uint8Array {
  const packed = objects.map((o, i) => ({ ...o, number: i + 1 })).filter((o) => o.packed);
  const all = [...objects];
  const streamNumber = packed.length ? all.length + 1 : 0;
  if (packed.length) {
    let header = '';
    let data = '';
    for (const o of packed) {
      header += `${o.number} ${data.length} `;
      data += `${o.body as string}\n`;
    }
    all.push({
      body: streamBody(
        `/Type/ObjStm/N ${packed.length}/First ${header.length}/Filter/FlateDecode`,
        deflateSync(header + data),
      ),
    });
  }
  const parts: Buffer[] = [Buffer.from(`%PDF-${version}\n%\xe2\xe3\xcf\xd3\n`, 'latin1')];
  let length = parts[0]!.length;
  const offsets = new Map<number, number>();
  all.forEach((o, i) => {
    if (o.packed) return;
    offsets.set(i + 1, length);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof o.body === 'string' ? Buffer.from(o.body, 'latin1') : o.body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  if (!packed.length) {
    const table =
      `xref\n0 ${all.length + 1}\n0000000000 65535 f \n` +
      all.map((_, i) => `${String(offsets.get(i + 1)).padStart(10, '0')} 00000 n \n`).join('') +
      `trailer\n<</Size ${all.length + 1}${trailer}>>\nstartxref\n${length}\n%%EOF\n`;
    parts.push(Buffer.from(table, 'latin1'));
    return new Uint8Array(Buffer.concat(parts));
  }
  // The cross-reference stream: type 1 entries (offset) for top-level objects, type 2 (object stream, index) for packed ones.
  const xrefNumber = all.length + 1;
  offsets.set(xrefNumber, length);
  const rows: Buffer[] = [Buffer.from([0, 0, 0, 0, 0, 0xff, 0xff])];
  for (let n = 1; n <= xrefNumber; n++) {
    const row = Buffer.alloc(7);
    const index = packed.findIndex((o) => o.number === n);
    if (index >= 0) {
      row[0] = 2;
      row.writeUInt32BE(streamNumber, 1);
      row.writeUInt16BE(index, 5);
    } else {
      row[0] = 1;
      row.writeUInt32BE(offsets.get(n)!, 1);
    }
    rows.push(row);
  }
  const xref = streamBody(`/Type/XRef/Size ${xrefNumber + 1}/W[1 4 2]${trailer}`, Buffer.concat(rows));
  parts.push(
    Buffer.concat([Buffer.from(`${xrefNumber} 0 obj\n`, 'latin1'), xref, Buffer.from('\nendobj\n', 'latin1')]),
  );
  parts.push(Buffer.from(`startxref\n${length}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * A page of text lines from the top down, in any script: ASCII as itself, every other character
 * given a code from 128 up and named by its code point (uniXXXX) in the font's encoding.
 */
function noticePage(lines: string[], parent: number, content: number): { page: string; content: Buffer } {
  const named = [...new Set(lines.flatMap((line) => [...line].filter((ch) => ch.charCodeAt(0) > 126)))];
  if (named.length > 128) throw new Error('Too many characters for the notice font');
  const glyphs = named.map((ch) => `/uni${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  const encode = (line: string) =>
    literal(
      [...line].map((ch) => (ch.charCodeAt(0) > 126 ? String.fromCharCode(128 + named.indexOf(ch)) : ch)).join(''),
    );
  const ops = lines.map((line, i) => `BT /F1 11 Tf 56 ${760 - i * 16} Td ${encode(line)} Tj ET`).join('\n');
  const font = `<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[128 ${glyphs.join(' ')}]>>>>`;
  return {
    page: `<</Type/Page/Parent ${parent} 0 R/MediaBox[0 0 612 792]/Contents ${content} 0 R/Resources<</Font<</F1 ${font}>>>>>>`,
    content: streamBody('/Filter/FlateDecode', deflateSync(Buffer.from(ops, 'latin1'))),
  };
}

/** The notice Microsoft's wrapper shows a reader that cannot open the payload. */
export const IRM_NOTICE_EN = [
  'This PDF Document has been protected.',
  'The reader you are using does not support opening files protected by Microsoft Office.',
  'Please use a supported reader, such as Adobe Acrobat Reader or Microsoft Edge,',
  'and sign in with an account that has permission to open it.',
];

/** The older, wholly encrypted form: Microsoft's security handler and cipher text in every stream. */
export function irmEncryptedPdf(): Uint8Array {
  const licence = randomBytes(600).toString('base64');
  const objects: PdfObject[] = [
    { body: '<</Type/Catalog/Pages 2 0 R>>' },
    { body: '<</Type/Pages/Kids[3 0 R]/Count 1>>' },
    {
      body: '<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>',
    },
    { body: streamBody('/Filter/FlateDecode', randomBytes(900)) },
    { body: '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>' },
    {
      body: `<</Filter/MicrosoftIRMServices/MicrosoftIRMVersion 1/V 2/Length 128/PublishingLicense ${literal(licence)}>>`,
    },
  ];
  const id = randomBytes(16).toString('hex');
  return writePdf('1.7', objects, `/Root 1 0 R/Encrypt 6 0 R/ID[<${id}><${id}>]`);
}

export interface WrapperOptions {
  /** The notice on its page, line by line (English by default). */
  notice?: string[];
  /** The payload's file name (Microsoft's by default). */
  payloadName?: string;
  /** Omit the description and encrypted payload dictionary naming Microsoft's filter. */
  anonymous?: boolean;
  /** The dictionaries in an object stream, the cross-reference table a stream. */
  compressed?: boolean;
}

/** A PDF IRM v2 wrapper (see the head of this file). */
export function irmWrapperPdf(options: WrapperOptions = {}): Uint8Array {
  const name = options.payloadName ?? 'MicrosoftIRMServices Protected PDF.pdf';
  const payload = Buffer.from(irmEncryptedPdf());
  const page = noticePage(options.notice ?? IRM_NOTICE_EN, 2, 4);
  const packed = options.compressed === true;
  const describe = options.anonymous
    ? ''
    : `/Desc${literal('This embedded file is encrypted using MicrosoftIRMServices filter')}/EP<</Type/EncryptedPayload/Subtype/MicrosoftIRMServices/Version(2)>>`;
  const objects: PdfObject[] = [
    {
      body: `<</Type/Catalog/Pages 2 0 R/Names<</EmbeddedFiles 5 0 R>>/AF[6 0 R]/Collection<</View/H/D${literal(name)}>>/PageMode/UseAttachments>>`,
      packed,
    },
    { body: '<</Type/Pages/Kids[3 0 R]/Count 1>>', packed },
    { body: page.page, packed },
    { body: page.content },
    { body: `<</Names[${literal(name)} 6 0 R]>>`, packed },
    {
      body: `<</Type/Filespec/F${literal(name)}/UF${literal(name)}/AFRelationship/EncryptedPayload${describe}/EF<</F 7 0 R/UF 7 0 R>>>>`,
      packed,
    },
    {
      body: streamBody(
        `/Type/EmbeddedFile/Subtype/application#2Fpdf/Filter/FlateDecode/Params<</Size ${payload.length}>>`,
        deflateSync(payload),
      ),
    },
    {
      body: `<</Producer${literal('Microsoft Information Protection SDK')}/Creator${literal('Microsoft Purview')}>>`,
      packed,
    },
  ];
  return writePdf('2.0', objects, '/Root 1 0 R/Info 8 0 R');
}
