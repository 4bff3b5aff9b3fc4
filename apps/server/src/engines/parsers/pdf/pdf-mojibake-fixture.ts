/**
 * Builds PDFs whose fonts draw Cyrillic letters but map their codes to Latin-1 or WinAnsi, the way
 * real files come out of two old tool chains (for tests; not used by the parsers):
 *
 * - `latex`: pdfTeX with LH/cm-super fonts in the T2A encoding (LARM1000, LABX1200): the encoding
 *   names the glyphs afii10017… as T2A does (its Russian letters sit where Windows-1251 has them),
 *   but the ToUnicode map, made by a setup without Cyrillic glyph-to-Unicode tables, maps every code
 *   to the Latin-1 character of the same number. Maths is set in CMSY10, whose × and ± map to
 *   Unicode correctly. Content streams are compressed, as pdfTeX writes them.
 * - `word`: Word printing with a TrueType "Cyrillic" font under a Western code page: Times New Roman
 *   with WinAnsiEncoding and no ToUnicode map, its codes the Windows-1251 bytes of the text.
 *
 * Any run may also be set in `latin`: Helvetica with WinAnsiEncoding, for text that really is Latin-1.
 */
import { deflateSync } from 'node:zlib';
import iconv from 'iconv-lite';

export type LegacyFont = 'roman' | 'bold' | 'math' | 'latin';

export interface LegacyRun {
  text: string;
  x: number;
  y: number;
  size?: number;
  font?: LegacyFont;
}

/** The glyph name LH and cm-super T2A fonts give a Russian letter (Adobe's afii names). */
function afiiName(code: number): string | undefined {
  if (code === 0x401) return 'afii10023';
  if (code === 0x451) return 'afii10071';
  if (code >= 0x410 && code <= 0x415) return `afii${10017 + code - 0x410}`;
  if (code >= 0x416 && code <= 0x42f) return `afii${10024 + code - 0x416}`;
  if (code >= 0x430 && code <= 0x435) return `afii${10065 + code - 0x430}`;
  if (code >= 0x436 && code <= 0x44f) return `afii${10072 + code - 0x436}`;
  return undefined;
}

/** A ToUnicode CMap mapping each code from 32 to 255 to the Latin-1 character of that number. */
function latin1ToUnicode(): string {
  const entries: string[] = [];
  for (let code = 32; code <= 255; code++) {
    const hex = code.toString(16).toUpperCase().padStart(2, '0');
    entries.push(`<${hex}> <00${hex}>`);
  }
  const chunks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const part = entries.slice(i, i + 100);
    chunks.push(`${part.length} beginbfchar\n${part.join('\n')}\nendbfchar`);
  }
  return (
    '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (TeX) /Ordering (T2A) /Supplement 0 >> def\n' +
    '/CMapName /TeX-T2A-0 def\n/CMapType 2 def\n1 begincodespacerange\n<00> <FF>\nendcodespacerange\n' +
    `${chunks.join('\n')}\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n`
  );
}

/** The T2A encoding's Russian letters, named: codes 0xC0–0xFF as in Windows-1251. */
function t2aDifferences(): string {
  const names: string[] = [];
  const letters = new TextDecoder('windows-1251');
  for (let code = 0xc0; code <= 0xff; code++)
    names.push(`/${afiiName(letters.decode(Uint8Array.of(code)).charCodeAt(0))}`);
  return `[192 ${names.join(' ')}]`;
}

const WIDTHS = `/FirstChar 32/LastChar 255/Widths[${Array.from({ length: 224 }, () => 500).join(' ')}]`;

/** A PDF string of the run's codes: Windows-1251 bytes for the Cyrillic fonts, the maths font's own codes. */
function encode(run: LegacyRun): string {
  const font = run.font ?? 'roman';
  const MATH: Record<string, number> = { '×': 2, '±': 6, '·': 1 };
  const bytes =
    font === 'math'
      ? Buffer.from([...run.text].map((ch) => MATH[ch] ?? ch.charCodeAt(0)))
      : iconv.encode(run.text, font === 'latin' ? 'windows-1252' : 'windows-1251');
  let out = '';
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    out +=
      ch === '(' || ch === ')' || ch === '\\'
        ? `\\${ch}`
        : byte < 32 || byte > 126
          ? `\\${byte.toString(8).padStart(3, '0')}`
          : ch;
  }
  return `(${out})`;
}

/** A PDF of `pages` as the tool chain `maker` writes it (see the head of this file). */
export function legacyCyrillicPdf(
  maker: 'latex' | 'word',
  pages: LegacyRun[][],
  info: Record<string, string> = {},
): Uint8Array {
  const objects: (string | Buffer)[] = [];
  const add = (body: string | Buffer) => objects.push(body) && objects.length;
  const catalog = add('');
  const root = add('');
  const stream = (dict: string, data: Buffer) =>
    add(
      Buffer.concat([
        Buffer.from(`<<${dict}/Length ${data.length}>>stream\n`, 'latin1'),
        data,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    );
  const descriptor = (name: string, flags: number) =>
    add(
      `<</Type/FontDescriptor/FontName/${name}/Flags ${flags}/FontBBox[-200 -250 1100 900]/ItalicAngle 0/Ascent 700/Descent -200/CapHeight 680/StemV 80>>`,
    );
  const fonts: Record<LegacyFont, number> = {} as Record<LegacyFont, number>;
  if (maker === 'latex') {
    const toUnicode = stream('/Filter/FlateDecode', deflateSync(latin1ToUnicode()));
    const t2a = (name: string) =>
      add(
        `<</Type/Font/Subtype/Type1/BaseFont/${name}${WIDTHS}/FontDescriptor ${descriptor(name, 4)} 0 R` +
          `/Encoding<</Type/Encoding/Differences${t2aDifferences()}>>/ToUnicode ${toUnicode} 0 R>>`,
      );
    fonts.roman = t2a('QWERTY+LARM1000');
    fonts.bold = t2a('ASDFGH+LABX1200');
    const mathUnicode = stream(
      '/Filter/FlateDecode',
      deflateSync(
        '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CMapName /TeX-OMS-0 def\n/CMapType 2 def\n1 begincodespacerange\n<00> <FF>\nendcodespacerange\n3 beginbfchar\n<01> <00B7>\n<02> <00D7>\n<06> <00B1>\nendbfchar\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n',
      ),
    );
    fonts.math = add(
      `<</Type/Font/Subtype/Type1/BaseFont/ZXCVBN+CMSY10/FirstChar 1/LastChar 6/Widths[278 778 500 500 500 778]` +
        `/FontDescriptor ${descriptor('ZXCVBN+CMSY10', 4)} 0 R/Encoding<</Type/Encoding/Differences[1/periodcentered/multiply 6/plusminus]>>/ToUnicode ${mathUnicode} 0 R>>`,
    );
  } else {
    const times = (name: string) =>
      add(
        `<</Type/Font/Subtype/TrueType/BaseFont/${name}${WIDTHS}/FontDescriptor ${descriptor(name, 32)} 0 R/Encoding/WinAnsiEncoding>>`,
      );
    fonts.roman = times('TimesNewRomanPSMT');
    fonts.bold = times('TimesNewRomanPS-BoldMT');
    fonts.math = fonts.roman;
  }
  fonts.latin = add('<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>');
  const fontResources = Object.entries(fonts)
    .map(([key, id]) => `/F${key} ${id} 0 R`)
    .join('');
  const kids = pages.map((runs) => {
    const ops = runs.map(
      (run) => `BT /F${run.font ?? 'roman'} ${run.size ?? 10} Tf ${run.x} ${run.y} Td ${encode(run)} Tj ET`,
    );
    const content = stream('/Filter/FlateDecode', deflateSync(Buffer.from(ops.join('\n'), 'latin1')));
    return add(
      `<</Type/Page/Parent ${root} 0 R/MediaBox[0 0 595 842]/Contents ${content} 0 R/Resources<</Font<<${fontResources}>>>>>>`,
    );
  });
  objects[catalog - 1] = `<</Type/Catalog/Pages ${root} 0 R>>`;
  objects[root - 1] = `<</Type/Pages/Kids[${kids.map((k) => `${k} 0 R`).join(' ')}]/Count ${kids.length}>>`;
  const producer = maker === 'latex' ? 'pdfTeX-1.40.3' : 'Acrobat PDFMaker 6.0 for Word';
  const infoId = add(
    `<<${Object.entries({ Producer: producer, ...info })
      .map(([key, value]) => `/${key}(${value})`)
      .join('')}>>`,
  );

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xd0\xd4\xc5\xd8\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<</Size ${objects.length + 1}/Root ${catalog} 0 R/Info ${infoId} 0 R>>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

/** Paragraphs set as lines of about `width` characters from `top` down, a first-line indent each. */
export function setParagraphs(paragraphs: string[], top: number, width = 80, leading = 12): LegacyRun[] {
  const runs: LegacyRun[] = [];
  let y = top;
  for (const paragraph of paragraphs) {
    let line = '';
    let first = true;
    const flush = () => {
      runs.push({ text: line, x: first ? 90 : 72, y });
      y -= leading;
      first = false;
      line = '';
    };
    for (const word of paragraph.split(' ')) {
      if (line && line.length + word.length + 1 > width) flush();
      line = line ? `${line} ${word}` : word;
    }
    if (line) flush();
  }
  return runs;
}
