import { describe, expect, it } from 'vitest';
import { bookText } from '../builder.ts';
import { buildDocx } from '../docx/docx-fixture.ts';
import { readFileMetadata } from '../metadata/metadata.ts';
import { parseBook } from '../registry.ts';
import { sniff } from '../sniff.ts';
import { SafeZip } from '../zip.ts';

const prose = 'The tide came in over the flats and the boats lifted one after another. ';

/** A document as Word 2003 saves "XML Document": properties, fonts, styles, then the body. */
const WORDML_2003 = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<?mso-application progid="Word.Document"?>
<w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml"
  xmlns:wx="http://schemas.microsoft.com/office/word/2003/auxHint" xmlns:o="urn:schemas-microsoft-com:office:office">
<o:DocumentProperties><o:Title>Harbour Days</o:Title><o:Author>Jane Roe</o:Author><o:Company>Nobody Ltd</o:Company></o:DocumentProperties>
<w:fonts><w:font w:name="Times New Roman"><w:panose-1 w:val="02020603050405020304"/></w:font></w:fonts>
<w:styles>
 <w:style w:type="paragraph" w:default="on" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
 <w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:pStyle w:val="Heading1"/><w:outlineLvl w:val="0"/></w:pPr></w:style>
 <w:style w:type="paragraph" w:styleId="Kapitel"><w:name w:val="Kapitel"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
</w:styles>
<w:docPr><w:footnotePr><w:footnote w:type="separator"><w:p><w:r><w:separator/></w:r></w:p></w:footnote></w:footnotePr></w:docPr>
<w:body><wx:sect>
 <w:hdr w:type="odd"><w:p><w:r><w:t>Running head</w:t></w:r></w:p></w:hdr>
 <w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Morning</w:t></w:r></w:p>
 <w:p><w:r><w:t xml:space="preserve">${prose}</w:t></w:r><w:r><w:footnote><w:p><w:r><w:t>A note &amp; more.</w:t></w:r></w:p></w:footnote></w:r><w:r><w:t xml:space="preserve"> Then</w:t></w:r><w:r><w:tab/><w:t>on.</w:t></w:r></w:p>
 <w:p><w:r><w:instrText> HYPERLINK "http://x" </w:instrText></w:r><w:r><w:t>Link</w:t></w:r><w:r><w:delText>deleted</w:delText></w:r><w:r><w:t xml:space="preserve"> kept ${prose}</w:t></w:r></w:p>
 <w:p><w:r><w:pict><w:binData w:name="wordml://1.png">iVBORw0KGgo=</w:binData></w:pict></w:r></w:p>
 <w:p><w:pPr><w:pStyle w:val="Kapitel"/></w:pPr><w:r><w:t>Evening</w:t></w:r></w:p>
 <w:p><w:r><w:t>${prose}</w:t></w:r></w:p>
</wx:sect></w:body></w:wordDocument>`;

describe('Word documents saved as one XML file', () => {
  it('reads Word 2003 XML: chapters from its heading styles, notes written in the text, title and author', async () => {
    const file = Buffer.from(WORDML_2003);
    expect(sniff(file)).toEqual({ ok: true, format: 'doc' });
    const book = await parseBook(file);
    expect(book.metadata).toMatchObject({ title: 'Harbour Days', author: 'Jane Roe' });
    expect(book.chapters.map((c) => c.title)).toEqual(['Morning', 'Evening']);
    const first = book.chapters[0]!.blocks;
    expect(first.map((b) => b.type)).toEqual(['heading', 'paragraph', 'paragraph', 'footnote']);
    expect(first[1]!.text).toBe(`${prose}[1] Then on.`);
    expect(first[1]!.noteRefs).toEqual([first[3]!.id]);
    expect(first[3]!.text).toBe('A note & more.');
    expect(first[2]!.text).toBe(`Link kept ${prose.trim()}`);
    const text = bookText(book);
    for (const left of ['Running head', 'HYPERLINK', 'deleted', 'iVBOR', 'Nobody', 'Times New Roman']) {
      expect(text).not.toContain(left);
    }
    expect(await readFileMetadata(file, 'doc')).toMatchObject({ title: 'Harbour Days', author: 'Jane Roe' });
  });

  it('reads a Word XML Document (Flat OPC) as the DOCX it packs', async () => {
    const docx = await SafeZip.open(
      await buildDocx({
        body:
          '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Morning</w:t></w:r></w:p>' +
          `<w:p><w:r><w:t>${prose}</w:t></w:r></w:p>` +
          '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Evening</w:t></w:r></w:p>' +
          `<w:p><w:r><w:t>${prose}</w:t></w:r></w:p>`,
        core: { title: 'Harbour Days', creator: 'Jane Roe' },
      }),
    );
    const parts: string[] = [];
    for (const name of docx.names()) {
      const data = (await docx.read(name))!.toString('utf8').replace(/^<\?xml[^>]*>\s*/, '');
      parts.push(
        name.endsWith('.xml') || name.endsWith('.rels')
          ? `<pkg:part pkg:name="/${name}" pkg:contentType="application/xml"><pkg:xmlData>${data}</pkg:xmlData></pkg:part>`
          : `<pkg:part pkg:name="/${name}"><pkg:binaryData>${Buffer.from(data).toString('base64')}</pkg:binaryData></pkg:part>`,
      );
    }
    parts.push('<pkg:part pkg:name="/../../etc/passwd"><pkg:xmlData><x/></pkg:xmlData></pkg:part>');
    const flat = Buffer.from(
      `<?xml version="1.0" standalone="yes"?>\n<?mso-application progid="Word.Document"?>\n` +
        `<pkg:package xmlns:pkg="http://schemas.microsoft.com/office/2006/xmlPackage">${parts.join('\n')}</pkg:package>`,
    );
    expect(sniff(flat)).toEqual({ ok: true, format: 'doc' });
    const book = await parseBook(flat);
    expect(book.stats.format).toBe('doc');
    expect(book.chapters.map((c) => c.title)).toEqual(['Morning', 'Evening']);
    expect(await readFileMetadata(flat, 'doc')).toMatchObject({ title: 'Harbour Days', author: 'Jane Roe' });
  });

  it('refuses entity declarations and says an empty document has no text', async () => {
    const bomb = Buffer.from(
      '<?xml version="1.0"?><?mso-application progid="Word.Document"?><!DOCTYPE w [<!ENTITY a "aaaa">]>' +
        '<w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml"><w:body/></w:wordDocument>',
    );
    await expect(parseBook(bomb)).rejects.toMatchObject({ key: 'fileTooComplex' });
    const empty = Buffer.from(
      '<?xml version="1.0"?><w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml"><w:body><w:p/></w:body></w:wordDocument>',
    );
    await expect(parseBook(empty)).rejects.toMatchObject({ key: 'noTextFound' });
  });
});
