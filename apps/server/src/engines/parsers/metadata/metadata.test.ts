import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zip } from '../docx/docx-fixture.ts';
import { cleanAuthor, cleanDescription, cleanTitle } from './metadata-clean.ts';
import { readFileMetadata, textHeaderMetadata, type FileMetadata } from './metadata.ts';
import { sniff } from '../sniff.ts';
import type { BookFormat } from '../types.ts';
import { SafeZip } from '../zip.ts';

const CORPUS =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');
const WILD = path.join(CORPUS, '../wild');

async function metadataOf(file: string): Promise<FileMetadata> {
  const data = readFileSync(file);
  const sniffed = sniff(data);
  if (!sniffed.ok) throw sniffed.error;
  return readFileMetadata(data, sniffed.format);
}

/** What the upload wizard proposed before (the file name) and what the file says now. */
const EXPECTED: [file: string, title: string | undefined, author: string | undefined][] = [
  ['corpus/epub/en-moby-dick-epub3.epub', 'Moby-Dick', 'Herman Melville'],
  ['corpus/epub/ja-kusamakura-epub3-vertical.epub', '草枕', '夏目 漱石'],
  ['corpus/epub/zh-hongloumeng-epub2.epub', '红楼梦', '曹雪芹，高鹗'],
  [
    'corpus/epub/ar-regime-anticancer-epub3-rtl.epub',
    'Le Vrai Régime anti-cancer',
    'Pr David Khayat, Nathalie Hutter-Lardeau',
  ],
  ['wild/epub/en-britannica-georgia-epub3-footnotes.epub', 'Georgia', 'Various'],
  [
    'wild/epub/en-childrens-literature-epub3-long.epub',
    "Children's Literature",
    'Charles Madison Curry, Erle Elsworth Clippinger',
  ],
  ['wild/epub/la-liber-esther-epub2-english-boilerplate.epub', 'Latin Vulgate, Esther: Liber Esther', undefined],
  ['corpus/pdf/en-free-culture-book.pdf', 'Free Culture', 'Lawrence Lessig'],
  // Info dictionary inside an object stream (xdvipdfmx).
  ['corpus/pdf/zh-debian-reference-cjk.pdf', 'Debian 参考手册', 'Osamu Aoki (青木 修)'],
  // Encrypted with an empty user password: RC4 and AES-128.
  ['wild/pdf/en-aviation-table-rc4-empty-password.pdf', 'Losing the Cabin', 'Mark Lacagnina'],
  ['corpus/pdf/en-encrypted-owner-password-only.pdf', undefined, 'Frank Voci'], // title "IBM-PDFs.graffle"
  ['wild/pdf/en-ieee-paper-two-column-tex-control-chars.pdf', undefined, 'Txus'], // title "SoriaComas_…_rev_dmegias-david-josep2.pdf"
  ['wild/pdf/en-journal-article-17-pages-3b2.pdf', undefined, undefined], // title "88300 162..177"
  ['wild/pdf/en-scanned-jbig2-four-rotations.pdf', undefined, undefined], // title "Untitled"
  ['wild/pdf/fr-scanned-page-image-only.pdf', undefined, undefined], // title "Adobe Photoshop PDF"
  ['wild/pdf/zh-quarterly-report-22-pages-wps.pdf', undefined, undefined], // author "Administrator"
  [
    'wild/pdf/fr-transport-plan-65-pages-word.pdf',
    'Plan stratégique du sentier récréatif régional de Prescott et Russell',
    undefined,
  ], // author "office-2007"
  [
    'wild/pdf/jp-amc-manual-78-pages-dblatex.pdf',
    'Auto Multiple Choice',
    'Bienvenue Alexis, Sarkar Anirvan, Kagotani Hiroto, Bréal Frédéric',
  ],
  ['corpus/pdf/encrypted-user-password.pdf', undefined, undefined],
  ['corpus/docx/en-blogcfc-manual-headings.docx', 'BlogCFC 3', 'Raymond Camden'],
  ['corpus/docx/zh-mixed-short.docx', undefined, undefined], // author "pc"
  ['wild/docx/zh-fields-nested-instrtext.docx', undefined, undefined], // author "i"
  ['wild/docx/ru-uz-en-mixed-textbox-notes-table.docx', 'Русский вариант', undefined], // author "vbiryukova"
  // Word 97-2003 summary information.
  [
    'corpus/doc/en-parental-involvement-guidance.doc',
    'Parental Involvement: Title I, Part A Non-Regulatory Guidance (MS WORD)',
    undefined,
  ], // author "Lorraine.wise"
  ['wild/doc/en-fields-footnote-endnote.doc', undefined, 'Fridrich Strba'],
  ['wild/doc/fr-word6-fast-saved-fax-form.doc', 'KATALYSE', undefined], // author "Preferred Customer"
  ['wild/doc/ru-word6-setup-text-cp1251.doc', undefined, undefined], // "Document 6.1" by "Author 6.1"
  ['corpus/doc/broken-bad-header.doc', undefined, undefined],
  ['corpus/txt/en-sherlock-holmes-utf8-bom-crlf.txt', 'The Adventures of Sherlock Holmes', 'Arthur Conan Doyle'],
  ['corpus/txt/en-pride-and-prejudice-cp1252-crlf.txt', 'Pride and Prejudice', 'Jane Austen'],
  ['corpus/txt/ja-wagahai-neko-sjis-crlf.txt', '吾輩は猫である', '夏目漱石'],
  ['corpus/txt/zh-xiyouji-gb18030.txt', '西游记', '吴承恩'],
  ['wild/txt/jp-rashomon-shift-jis-english-header.txt', 'Rashomon', 'AKUTAGAWA Ryunosuke'],
  [
    'wild/txt/en-frankenstein-hard-wrapped-utf8.txt',
    'Frankenstein; or, the Modern Prometheus',
    'Mary Wollstonecraft (Godwin) Shelley',
  ],
  ['corpus/txt/zh-sanguo-yanyi-gbk.txt', undefined, undefined],
  ['corpus/bad/truncated-moby-dick.epub', undefined, undefined],
];

describe.skipIf(!existsSync(CORPUS))('metadata of the corpus files', () => {
  it.each(EXPECTED)('%s', async (file, title, author) => {
    const metadata = await metadataOf(path.join(CORPUS, '..', file));
    expect({ title: metadata.title, author: metadata.author }).toEqual({ title, author });
  });

  it('gives every EPUB whose package has a dc:title that title', async () => {
    let checked = 0;
    for (const root of [CORPUS, WILD]) {
      for (const name of readdirSync(path.join(root, 'epub')).filter((n) => n.endsWith('.epub'))) {
        const file = path.join(root, 'epub', name);
        const zipped = await SafeZip.open(readFileSync(file));
        const opf = await zipped.readText(zipped.names().find((n) => n.endsWith('.opf'))!);
        // EPUB 3 marks the main title; otherwise the first one is the title.
        const main = /<meta refines="#([^"]+)" property="title-type">main</.exec(opf!)?.[1];
        const titles = [...opf!.matchAll(/<dc:title([^>]*)>([^<]+)</g)];
        const expected = (titles.find((t) => main && t[1]!.includes(`id="${main}"`)) ?? titles[0])?.[2]?.trim();
        if (!expected) continue;
        expect((await metadataOf(file)).title, name).toBe(expected.replace(/\s+/g, ' '));
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(19);
  });

  it('finds the cover an EPUB names, and a DOCX preview picture', async () => {
    const moby = await metadataOf(path.join(CORPUS, 'epub/en-moby-dick-epub3.epub'));
    expect(moby.cover?.mediaType).toBe('image/jpeg');
    expect(moby.cover!.data.length).toBeGreaterThan(100_000);
    const docx = await metadataOf(path.join(WILD, 'docx/en-tracked-changes-deleted-word.docx'));
    expect(docx.cover?.mediaType).toBe('image/jpeg');
    expect((await metadataOf(path.join(CORPUS, 'epub/ja-kusamakura-epub3-vertical.epub'))).cover).toBeUndefined();
  });

  it('reads descriptions, with the markup of the package taken out', async () => {
    const arlequin = await metadataOf(path.join(WILD, 'epub/es-arlequin-epub2-all-spine-nonlinear.epub'));
    expect(arlequin.description).toMatch(/^Paul Desmond admira a su buen amigo George Arlequín/);
    const aviation = await metadataOf(path.join(WILD, 'pdf/en-aviation-table-rc4-empty-password.pdf'));
    expect(aviation.description).toBe('Aviation Safety World October 2006');
  });
});

describe('junk metadata', () => {
  it.each([
    'SoriaComas_DomingoFerrer_Sanchez_Megias_iDP-R2_rev_dmegias-david-josep2.pdf',
    'Microsoft Word - report.doc',
    'Microsoft Word - Moby Dick',
    'IBM-PDFs.graffle',
    'C:\\Users\\me\\Desktop\\book',
    'thesis_final_v3',
    '88300 162..177',
    '2014-05-06',
    'Untitled',
    'untitled-1',
    'Document1',
    '无标题',
    '未命名文档',
    'Sans titre',
    'Adobe Photoshop PDF',
    'PowerPoint Presentation',
    '   ',
    'Ãû³Æ',
    'Broken \ufffd title',
  ])('%j is not a title', (title) => expect(cleanTitle(title)).toBeUndefined());

  it('is not a title when it names the program that made the file', () => {
    expect(cleanTitle('Adobe InDesign', ['Adobe InDesign CS2 (4.0.4)'])).toBeUndefined();
    expect(cleanTitle('Normal', ['Normal.dotm'])).toBeUndefined();
    expect(cleanTitle('Learning Adobe InDesign the Hard Way', ['Adobe InDesign CS2 (4.0.4)'])).toBe(
      'Learning Adobe InDesign the Hard Way',
    );
  });

  it.each(['Moby-Dick', '草枕', 'Free Culture', 'Le Vrai Régime anti-cancer', '1984', 'Плач', 'R.U.R.'])(
    '%j is a title',
    (title) => expect(cleanTitle(`  ${title}\n`)).toBe(title),
  );

  it.each([
    'Administrator',
    'pc',
    'i',
    'vbiryukova',
    'office-2007',
    'Windows User',
    '微软用户',
    'user@example.com',
    'Anonymous',
    '佚名',
  ])('%j is not an author', (author) => expect(cleanAuthor(author)).toBeUndefined());

  it.each(['Herman Melville', '夏目 漱石', 'Txus', 'Allison, Timothy B.', 'МБУ МЦБ', 'Boulet'])(
    '%j is an author',
    (author) => expect(cleanAuthor(author)).toBe(author),
  );

  it('flattens descriptions and drops placeholders and repeats of the title', () => {
    expect(cleanDescription('&lt;p&gt;A <b>whale</b> of a tale.&lt;/p&gt;')).toBe('A whale of a tale.');
    expect(cleanDescription('Subject')).toBeUndefined();
    expect(cleanDescription('Moby-Dick', 'Moby-Dick')).toBeUndefined();
    expect(cleanDescription('x'.repeat(6000))!.length).toBeLessThanOrEqual(5000);
  });
});

describe('plain text headers', () => {
  it('reads Title and Author lines, Aozora headers, 作者 lines and a "by" line', () => {
    expect(
      textHeaderMetadata('Title: A Long\n       Title\nAuthor: Someone\n\n*** START OF THE PROJECT GUTENBERG EBOOK\n'),
    ).toEqual({
      titles: ['A Long Title'],
      authors: ['Someone'],
    });
    expect(
      textHeaderMetadata(
        '羅生門\n芥川龍之介\n\n-------------------------------------------------------\n吾輩《わがはい》は猫である\n',
      ),
    ).toEqual({
      titles: ['羅生門'],
      authors: ['芥川龍之介'],
    });
    expect(textHeaderMetadata('《围城》\n作者：钱锺书\n\n第一章\n')).toEqual({
      titles: ['《围城》'],
      authors: ['钱锺书'],
    });
    expect(textHeaderMetadata('Chapter 1\n\nIt was a dark night, by all accounts.\n')).toEqual({});
  });
});

// ---------- hostile files ----------

/** A PDF made of these object bodies (numbered from 1) and trailer entries, with a correct xref table. */
function pdf(objects: (string | Buffer)[], trailer: string): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ];
  parts.push(
    Buffer.from(`${xref.join('')}trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${length}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}
const stream = (dict: string, data: Buffer) =>
  Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);

describe('hostile files', { timeout: 20_000 }, () => {
  const info = '<< /Title (A Real Title) /Author (An Author) >>';

  it('reads Info next to an XMP packet that inflates to hundreds of megabytes, and skips the packet', async () => {
    const bomb = deflateSync(Buffer.alloc(300 * 1024 * 1024, 0x20), { level: 9 });
    const file = pdf(
      [
        '<< /Type /Catalog /Metadata 3 0 R >>',
        info,
        stream('/Type /Metadata /Subtype /XML /Filter /FlateDecode', bomb),
      ],
      '/Root 1 0 R /Info 2 0 R',
    );
    expect(await readFileMetadata(file, 'pdf')).toEqual({ title: 'A Real Title', author: 'An Author' });
  });

  it('survives deep nesting, endless strings, reference loops and a trailer chain that points at itself', async () => {
    const deep = `<< /Title (Deep) /X ${'['.repeat(100_000)} >>`;
    expect(await readFileMetadata(pdf(['<< /Type /Catalog >>', deep], '/Root 1 0 R /Info 2 0 R'), 'pdf')).toEqual({});
    const endless = `<< /Title (${'('.repeat(300_000)} >>`;
    expect(await readFileMetadata(pdf(['<< >>', endless], '/Info 2 0 R'), 'pdf')).toEqual({});
    // The title is a reference to itself; the Info dictionary's stream length is its own object.
    const loop = pdf(
      ['<< /Type /Catalog /Metadata 1 0 R >>', '<< /Title 2 0 R /Author (Loop Author) >>'],
      '/Root 1 0 R /Info 2 0 R /Prev 9',
    );
    const looped = Buffer.concat([
      loop.subarray(0, loop.lastIndexOf('startxref')),
      Buffer.from(`startxref\n${loop.indexOf('xref\n')}\n%%EOF\n`),
    ]);
    expect(await readFileMetadata(looped, 'pdf')).toEqual({ author: 'Loop Author' });
  });

  /** A PDF 1.5 file: catalog (1), Info (2) inside object stream 3, and xref stream 4 with a PNG Up predictor. */
  function compressedPdf(objectStreamOf3: number | undefined): Buffer {
    const head = Buffer.from('%PDF-1.7\n');
    const catalog = Buffer.from('1 0 obj\n<< /Type /Catalog >>\nendobj\n');
    const numbers = '2 0 ';
    const objstm = Buffer.concat([
      Buffer.from('3 0 obj\n'),
      stream(
        `/Type /ObjStm /N 1 /First ${numbers.length} /Filter /FlateDecode`,
        deflateSync(Buffer.from(numbers + info)),
      ),
      Buffer.from('\nendobj\n'),
    ]);
    const xrefAt = head.length + catalog.length + objstm.length;
    const rows = [
      [0, 0, 0],
      [1, head.length, 0],
      [2, 3, 0],
      objectStreamOf3 === undefined ? [1, head.length + catalog.length, 0] : [2, objectStreamOf3, 0],
      [1, xrefAt, 0],
    ];
    const raw = rows.map((r) => [r[0]!, r[1]! >> 8, r[1]! & 0xff, r[2]!]);
    // Filter byte 2 ("Up"): each byte stored as its difference from the byte above it.
    const predicted = raw.flatMap((row, i) => [2, ...row.map((b, c) => (b - (i ? raw[i - 1]![c]! : 0) + 256) & 0xff)]);
    const xref = Buffer.concat([
      Buffer.from('4 0 obj\n'),
      stream(
        '/Type /XRef /Size 5 /W [1 2 1] /Root 1 0 R /Info 2 0 R /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>',
        deflateSync(Buffer.from(predicted)),
      ),
      Buffer.from('\nendobj\n'),
    ]);
    return Buffer.concat([head, catalog, objstm, xref, Buffer.from(`startxref\n${xrefAt}\n%%EOF\n`)]);
  }

  it('reads the Info dictionary from an object stream, and gives up on an object stream inside itself', async () => {
    expect(await readFileMetadata(compressedPdf(undefined), 'pdf')).toEqual({
      title: 'A Real Title',
      author: 'An Author',
    });
    expect(await readFileMetadata(compressedPdf(3), 'pdf')).toEqual({});
  });

  const epub = (opf: string | Buffer, extra: { name: string; data: Buffer | string }[] = []) =>
    zip([
      { name: 'mimetype', data: 'application/epub+zip', store: true },
      {
        name: 'META-INF/container.xml',
        data: '<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
      },
      { name: 'OEBPS/content.opf', data: opf },
      ...extra,
    ]);

  it('reads nothing from an EPUB whose package is a zip bomb, declared or lying', async () => {
    const huge = Buffer.concat([
      Buffer.from('<package><metadata><dc:title>Bomb</dc:title></metadata>'),
      Buffer.alloc(50 * 1024 * 1024, 0x20),
    ]);
    expect(await readFileMetadata(epub(huge), 'epub')).toEqual({});
    // The central directory says 100 bytes; inflating is stopped at the cap all the same.
    const lying = epub(huge);
    const central = lying.lastIndexOf(Buffer.from('OEBPS/content.opf')) - 46;
    lying.writeUInt32LE(100, central + 24);
    expect(await readFileMetadata(lying, 'epub')).toEqual({});
  });

  it('reads a package full of unclosed elements', async () => {
    const unclosed = Array.from({ length: 150_000 }, (_, i) => `<dc:creator id="c${i}">`).join('');
    const opf = `<package><metadata><dc:title>Fine</dc:title>${unclosed}</metadata></package>`;
    expect(await readFileMetadata(epub(opf), 'epub')).toEqual({ title: 'Fine' });
  });

  it('refuses packages that declare entities, and ignores covers that are not images', async () => {
    const entities =
      '<!DOCTYPE p [<!ENTITY a "aaaa">]><package><metadata><dc:title>&a;</dc:title></metadata></package>';
    expect(await readFileMetadata(epub(entities), 'epub')).toEqual({});
    const opf =
      '<package><metadata><dc:title>Covered</dc:title></metadata><manifest><item id="c" href="cover.jpg" media-type="image/jpeg" properties="cover-image"/></manifest></package>';
    const fake = await readFileMetadata(
      epub(opf, [{ name: 'OEBPS/cover.jpg', data: '<script>alert(1)</script>' }]),
      'epub',
    );
    expect(fake).toEqual({ title: 'Covered' });
  });

  it('ends on an OLE file whose allocation table loops', async () => {
    const file = Buffer.alloc(512 * 4);
    Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(file);
    file.writeUInt16LE(9, 0x1e); // 512-byte sectors
    file.writeUInt16LE(6, 0x20);
    file.writeUInt32LE(1, 0x2c); // one FAT sector: sector 0
    file.writeUInt32LE(1, 0x30); // the directory starts at sector 1
    file.writeUInt32LE(4096, 0x38);
    file.writeUInt32LE(0, 0x4c);
    for (let i = 1; i < 128; i++) file.writeUInt32LE(0xffffffff, 0x4c + i * 4);
    // FAT (sector 0, at offset 512): sector 1 → 2 → 1 → …
    file.writeUInt32LE(2, 512 + 4);
    file.writeUInt32LE(1, 512 + 8);
    expect(await readFileMetadata(file, 'doc')).toEqual({});
  });

  it('returns nothing for formats and files it cannot read', async () => {
    const formats: BookFormat[] = ['epub', 'docx', 'pdf', 'txt', 'doc'];
    for (const format of formats) expect(await readFileMetadata(Buffer.from('garbage'), format)).toEqual({});
  });
});
