/**
 * The SVG pictures of an EPUB (files shown by `<img>` or `<image>`, drawings inline in its pages and
 * SVG pages of its spine) made into PNG images (../svg/): each is rebuilt from a whitelist, then drawn.
 * A picture that cannot be made safe or drawn is left out with a warning; the book is read without it.
 */
import type { BookBuilder } from '../builder.ts';
import { throwIfAborted } from '../errors.ts';
import { declaresEntities, findAll, findFirst, localName, parseMarkup } from '../markup.ts';
import type { MarkupElement } from '../markup.ts';
import { rasterizeSvg } from '../svg/svg-raster.ts';
import { safeSvg, SVG_LIMITS } from '../svg/svg-safe.ts';
import type { BookImage } from '../types.ts';
import { resolveZipPath, type SafeZip } from '../zip.ts';
import { isRemote } from './epub-toc.ts';

export type SvgSource =
  | { kind: 'file'; path: string }
  /** A drawing inline in a page (`base`: the page's path, for what the drawing places). */
  | { kind: 'inline'; element: MarkupElement; base: string };

/** Raster pictures a drawing places, read from the book before it is rebuilt. */
const MAX_PLACED_BYTES = 20 * 1024 * 1024;

async function svgRoot(zip: SafeZip, source: SvgSource): Promise<MarkupElement | string> {
  if (source.kind === 'inline') return source.element;
  let text: string | undefined;
  try {
    text = await zip.readText(source.path, SVG_LIMITS.bytes);
  } catch {
    return `is larger than ${SVG_LIMITS.bytes} bytes or damaged`;
  }
  if (text === undefined) return 'is missing';
  if (declaresEntities(text)) return 'declares XML entities';
  const root = findFirst(parseMarkup(text), (e) => localName(e.name) === 'svg');
  return root ?? 'is not an SVG document';
}

/**
 * Draws each source into a PNG (in the book's order of first use). The words of a picture (its
 * `<title>`) become the text of its image blocks that have none (no `alt`).
 */
export async function loadSvgPictures(
  zip: SafeZip,
  sources: Map<string, SvgSource>,
  book: BookBuilder,
  signal?: AbortSignal,
): Promise<BookImage[]> {
  const images: BookImage[] = [];
  const titles = new Map<string, string>();
  let drawn = 0;
  for (const [id, source] of sources) {
    throwIfAborted(signal);
    if (drawn >= SVG_LIMITS.picturesPerBook) {
      book.warn(`More than ${SVG_LIMITS.picturesPerBook} SVG pictures; the others are left out`);
      break;
    }
    const where = source.kind === 'file' ? source.path : `an inline drawing in ${source.base}`;
    const root = await svgRoot(zip, source);
    if (typeof root === 'string') {
      book.warn(`SVG picture ${where} ${root}; left out`);
      continue;
    }
    const base = source.kind === 'file' ? source.path : source.base;
    const placed = new Map<string, Buffer>();
    for (const image of findAll(root, (e) => localName(e.name) === 'image')) {
      const href = image.attrs.href ?? image.attrs['xlink:href'];
      if (!href || href.startsWith('data:') || href.startsWith('#') || isRemote(href)) continue;
      const data = await zip.read(resolveZipPath(base, href), MAX_PLACED_BYTES).catch(() => undefined);
      if (data) placed.set(href, data);
    }
    const outcome = safeSvg(root, { picture: (href) => placed.get(href) });
    if (!outcome.ok) {
      book.warn(`SVG picture ${where}: ${outcome.reason}; left out`);
      continue;
    }
    drawn++;
    try {
      const png = await rasterizeSvg(outcome.picture);
      images.push({ id, data: png.data, mediaType: 'image/png', width: png.width, height: png.height });
      if (outcome.picture.title) titles.set(id, outcome.picture.title);
    } catch (error) {
      book.warn(`SVG picture ${where} could not be drawn (${(error as Error).message}); left out`);
    }
  }
  for (const chapter of book.chapters)
    for (const block of chapter.blocks) {
      const title = block.imageId ? titles.get(block.imageId) : undefined;
      if (title && !block.text) block.text = title;
    }
  return images;
}
