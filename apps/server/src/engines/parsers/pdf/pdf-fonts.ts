/**
 * What pdf.js tells about the fonts of a few pages whose text reads as doubtful (pdf-garbage.ts):
 * which fonts have no usable Unicode map, and whether the text is an invisible layer over a picture
 * (the OCR layer of a scan). The document is opened once more for it, with pdf.js giving each
 * font's encoding and Unicode map (`fontExtraProperties`): that keeps every font's data in memory,
 * which a book's parse must not pay, and only pages in doubt are looked at.
 */
import { throwIfAborted } from '../errors.ts';
import type { PageFontEvidence } from './pdf-garbage.ts';
import { loadPdfJs, openPdf } from './pdf-text.ts';

/** The parts of a pdf.js font (with its extra properties) that tell how its codes become text. */
interface FontDetails {
  composite?: boolean;
  /** A map of codes to text; an identity map ({firstChar, lastChar}) takes the codes for Unicode. */
  toUnicode?: { firstChar?: number; _map?: unknown[] };
  /** Glyph names by code, from the font's encoding. */
  differences?: (string | undefined)[];
}

/** Glyph names that say nothing of the character: g12, glyph7, cid1234, index5, a34 (Type 3). */
const OPAQUE_GLYPH_NAME = /^(?:g|glyph|gid|cid|index|c)?\d+$|^[a-z]{1,2}\d+$/i;

/**
 * A font whose text is its codes: a composite (CID) font with no map to Unicode (pdf.js falls back
 * to an identity map, and glyph ids come out as characters), or a simple font whose encoding names
 * its glyphs by number.
 */
export function lacksUnicodeMap(font: FontDetails | undefined): boolean {
  if (!font) return false;
  if (font.composite) return font.toUnicode !== undefined && 'firstChar' in font.toUnicode;
  const names = (font.differences ?? []).filter(
    (name): name is string => typeof name === 'string' && name !== '.notdef',
  );
  return names.length > 0 && names.filter((name) => OPAQUE_GLYPH_NAME.test(name)).length * 2 > names.length;
}

/** The fonts and layers of `pages` of the PDF in `data` (a copy is made; `data` stays the caller's). */
export async function inspectFonts(
  data: Uint8Array,
  pages: number[],
  signal?: AbortSignal,
): Promise<Map<number, PageFontEvidence>> {
  const out = new Map<number, PageFontEvidence>();
  const { OPS } = await loadPdfJs();
  const images = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageXObjectRepeat]);
  const doc = await openPdf(data, { fontDetails: true });
  try {
    for (const n of pages) {
      throwIfAborted(signal);
      try {
        const page = await doc.getPage(n);
        const ops = await page.getOperatorList();
        let invisibleText = false;
        let image = false;
        ops.fnArray.forEach((fn, i) => {
          // Rendering modes 3 (invisible) and 7 (invisible, added to the clip).
          if (fn === OPS.setTextRenderingMode && ((ops.argsArray[i] as number[])[0]! & 3) === 3) invisibleText = true;
          if (images.has(fn)) image = true;
        });
        const content = await page.getTextContent({ disableNormalization: true });
        let all = 0;
        let unmapped = 0;
        for (const item of content.items) {
          if (!('str' in item)) continue;
          const chars = item.str.replace(/\s+/g, '').length;
          all += chars;
          const font = page.commonObjs.has(item.fontName)
            ? (page.commonObjs.get(item.fontName) as FontDetails)
            : undefined;
          if (lacksUnicodeMap(font)) unmapped += chars;
        }
        page.cleanup();
        out.set(n, { hiddenText: invisibleText && image, unmappedShare: all ? unmapped / all : 0 });
      } catch {
        // A page that cannot be inspected keeps the verdict of the others.
      }
    }
  } finally {
    await doc.destroy().catch(() => undefined);
  }
  return out;
}
