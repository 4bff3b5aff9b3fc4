/**
 * Builds small PDFs for tests: pages of text runs placed where a test wants them, in fonts that map
 * to Unicode the usual way or not at all. Not used by the parsers.
 *
 * Fonts (pdf.js's standard Helvetica and Courier: text is extracted, never drawn):
 * - `plain`: Helvetica, WinAnsi; the run's text is written as Latin-1 bytes.
 * - `mono`: Courier, WinAnsi: every character 0.6 em wide, for layouts measured in characters.
 * - `named`: any character, by glyph name (uniXXXX) in the font's encoding: Hebrew, Arabic,
 *   vertical forms. The run's characters are drawn in the order given (a PDF draws right-to-left
 *   text in visual order: give it so).
 * - `shifted` and `recoded`: a subset font whose glyphs have no names pdf.js knows (g3, g4…) and no
 *   ToUnicode map, its codes 29 below the characters' (glyph ids of a font that starts at the
 *   space): pdf.js gives the codes as text. `shifted` draws the space as glyph 3 too (U+0003 comes
 *   out, as with most TrueType subsets); `recoded` keeps the space, so only Latin-looking garbage
 *   comes out ("3HQH]QL SURVWUHGN").
 */

export type FixtureFont = 'plain' | 'mono' | 'named' | 'shifted' | 'recoded';

export interface FixtureRun {
  text: string;
  x: number;
  y: number;
  size?: number;
  font?: FixtureFont;
  /** Drawn invisibly (text rendering mode 3), as the OCR layer over a scanned page. */
  invisible?: boolean;
}

export interface FixturePage {
  runs: FixtureRun[];
  /** A grey image covering the page, as a scan. */
  image?: boolean;
  width?: number;
  height?: number;
  /** /Rotate of the page, clockwise degrees. */
  rotate?: number;
  /** A crop box inside the media box: [x0, y0, x1, y1]. */
  cropBox?: [number, number, number, number];
}

/** Codes 1–126 named g1…g126: names pdf.js cannot turn into characters. */
const UNMAPPED_FONT = `<</Type/Font/Subtype/Type1/BaseFont/ABCDEF+Custom/Encoding<</Type/Encoding/Differences[1 ${Array.from({ length: 126 }, (_, i) => `/g${i + 1}`).join(' ')}]>>>>`;
const SHIFT = 29;

const FONT_KEYS: Record<FixtureFont, string> = { plain: 'F1', mono: 'F2', named: 'F3', shifted: 'F4', recoded: 'F4' };

function fonts(named: string[]): Record<string, string> {
  const glyphs = named.map((ch) => `/uni${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  return {
    F1: '<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>',
    F2: '<</Type/Font/Subtype/Type1/BaseFont/Courier/Encoding/WinAnsiEncoding>>',
    F3: `<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[128 ${glyphs.join(' ')}]>>>>`,
    F4: UNMAPPED_FONT,
  };
}

/** A PDF string literal of the run's text in its font's codes (`named`: the characters given codes from 128). */
function encode(run: FixtureRun, named: string[]): string {
  let bytes = '';
  for (const ch of run.text) {
    let code = run.font === 'named' && ch.charCodeAt(0) > 126 ? 128 + named.indexOf(ch) : ch.charCodeAt(0);
    if (run.font === 'shifted' || (run.font === 'recoded' && ch !== ' ')) code -= SHIFT;
    if (code > 255 || code < 1) throw new Error(`Not in the fixture font: ${ch}`);
    const byte = String.fromCharCode(code);
    bytes +=
      byte === '(' || byte === ')' || byte === '\\'
        ? `\\${byte}`
        : code > 126 || code < 32
          ? `\\${code.toString(8).padStart(3, '0')}`
          : byte;
  }
  return `(${bytes})`;
}

/** An outline (bookmarks) entry: it leads to a page, at a height when `y` is given. */
export interface FixtureOutline {
  title: string;
  /** 1-based. */
  page: number;
  y?: number;
  children?: FixtureOutline[];
}

/** A PDF string literal of Latin-1 text. */
const literal = (text: string) => `(${text.replace(/[()\\]/g, (c) => `\\${c}`)})`;

/** A PDF of `pages` (uncompressed, classic cross-reference table), with an outline if given. */
export function pdfFixture(pages: FixturePage[], options: { outline?: FixtureOutline[] } = {}): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) && objects.length;
  const catalog = add('');
  const root = add('');
  const named = [
    ...new Set(pages.flatMap((p) => p.runs.filter((r) => r.font === 'named').flatMap((r) => [...r.text]))),
  ].filter((ch) => ch.charCodeAt(0) > 126);
  if (named.length > 128) throw new Error('Too many characters for the fixture font');
  const fontIds = Object.fromEntries(Object.entries(fonts(named)).map(([key, body]) => [key, add(body)]));
  const fontResources = Object.entries(fontIds)
    .map(([key, id]) => `/${key} ${id} 0 R`)
    .join('');
  const image = add(
    '<</Type/XObject/Subtype/Image/Width 2/Height 2/ColorSpace/DeviceGray/BitsPerComponent 8/Length 4>>stream\n\xc0\xc8\xd0\xd8\nendstream',
  );
  const kids = pages.map((page) => {
    const width = page.width ?? 612;
    const height = page.height ?? 792;
    const ops: string[] = [];
    if (page.image) ops.push(`q ${width} 0 0 ${height} 0 0 cm /Im1 Do Q`);
    for (const run of page.runs) {
      const font = FONT_KEYS[run.font ?? 'plain'];
      ops.push(
        `BT ${run.invisible ? '3 Tr ' : ''}/${font} ${run.size ?? 10} Tf ${run.x} ${run.y} Td ${encode(run, named)} Tj ET`,
      );
    }
    const stream = ops.join('\n');
    const content = add(`<</Length ${stream.length}>>stream\n${stream}\nendstream`);
    const placement =
      (page.rotate ? `/Rotate ${page.rotate}` : '') + (page.cropBox ? `/CropBox[${page.cropBox.join(' ')}]` : '');
    return add(
      `<</Type/Page/Parent ${root} 0 R/MediaBox[0 0 ${width} ${height}]${placement}/Contents ${content} 0 R` +
        `/Resources<</Font<<${fontResources}>>/XObject<</Im1 ${image} 0 R>>>>>>`,
    );
  });
  let outlines = '';
  if (options.outline?.length) {
    const outlineRoot = add('');
    // Each level: items linked as siblings under their parent; Count is the number of descendants.
    const items = (entries: FixtureOutline[], parent: number): { ids: number[]; count: number } => {
      const ids = entries.map(() => add(''));
      let count = entries.length;
      entries.forEach((entry, i) => {
        const below = entry.children?.length ? items(entry.children, ids[i]!) : undefined;
        if (below) count += below.count;
        const dest = `[${kids[entry.page - 1]} 0 R/XYZ 0 ${entry.y ?? 'null'} 0]`;
        objects[ids[i]! - 1] =
          `<</Title ${literal(entry.title)}/Parent ${parent} 0 R/Dest ${dest}` +
          (i > 0 ? `/Prev ${ids[i - 1]} 0 R` : '') +
          (i < ids.length - 1 ? `/Next ${ids[i + 1]} 0 R` : '') +
          (below ? `/First ${below.ids[0]} 0 R/Last ${below.ids.at(-1)} 0 R/Count ${below.count}` : '') +
          '>>';
      });
      return { ids, count };
    };
    const top = items(options.outline, outlineRoot);
    objects[outlineRoot - 1] =
      `<</Type/Outlines/First ${top.ids[0]} 0 R/Last ${top.ids.at(-1)} 0 R/Count ${top.count}>>`;
    outlines = `/Outlines ${outlineRoot} 0 R`;
  }
  objects[catalog - 1] = `<</Type/Catalog/Pages ${root} 0 R${outlines}>>`;
  objects[root - 1] = `<</Type/Pages/Kids[${kids.map((k) => `${k} 0 R`).join(' ')}]/Count ${kids.length}>>`;

  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<</Size ${objects.length + 1}/Root ${catalog} 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  // Latin-1: every character of the file is one byte.
  return Uint8Array.from(pdf, (ch) => ch.charCodeAt(0));
}

/** Lines of text laid out as a column: `lines` from `top` down, `leading` apart. */
export function columnRuns(lines: string[], x: number, top: number, leading = 12, size = 10): FixtureRun[] {
  return lines.map((text, i) => ({ text, x, y: top - i * leading, size }));
}
