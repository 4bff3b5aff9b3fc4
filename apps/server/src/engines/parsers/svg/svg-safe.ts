/**
 * An SVG picture of a book (an EPUB's `<img src="x.svg">`, an inline `<svg>`, an SVG page of the spine)
 * rebuilt from a whitelist into a self-contained drawing that nothing but pixels can come out of.
 *
 * Why pictures and not SVG: an SVG is a document that can run scripts, load other files and embed
 * HTML. Yidu turns each one into a PNG in the parse process (svg-raster.ts) and never serves SVG from
 * a book, so a book cannot put a script in front of its reader however the SVG is made. Before it is
 * drawn the SVG is rebuilt from what it means as a drawing: known SVG elements and attributes only (no
 * script, foreignObject, event handlers, animation, external style sheets), links only within the
 * drawing (`#id`) or to pictures of the book given as data (never to a file, a URL or another
 * document), entity declarations refused, the drawing's size capped, and the work of its `<use>`
 * references counted (a billion-laughs of nested uses is refused before anything is drawn).
 */
import { escapeHtml, localName } from '../markup.ts';
import type { MarkupElement, MarkupNode } from '../markup.ts';
import { imageInfo } from '../image-info.ts';

export const SVG_LIMITS = {
  /** Bytes of one SVG file (Standard Ebooks' largest, a cover with a photograph in it, has 1.9 MB). */
  bytes: 8 * 1024 * 1024,
  /** Longest side of the picture drawn, in pixels (a music score of a page is drawn at 1,700 × 2,300). */
  side: 2400,
  /** Pixels of the picture drawn. */
  pixels: 4_000_000,
  /** Elements drawn once every `<use>` is counted as what it repeats. */
  drawnElements: 100_000,
  /** Pixels of a raster picture placed in the drawing. */
  embeddedPixels: 40_000_000,
  /**
   * Pictures drawn per book (Ulysses has 6; a drawing takes 0.1-1.5 s): a book of thousands of inline
   * drawings must not spend its whole parse time on them. Later ones are left out with a warning.
   */
  picturesPerBook: 500,
} as const;

/** SVG's element names with their case (the markup reader lowers every name). */
const ELEMENTS = new Map(
  [
    'svg',
    'g',
    'defs',
    'symbol',
    'use',
    'path',
    'rect',
    'circle',
    'ellipse',
    'line',
    'polyline',
    'polygon',
    'text',
    'tspan',
    'textPath',
    'linearGradient',
    'radialGradient',
    'stop',
    'pattern',
    'clipPath',
    'mask',
    'marker',
    'image',
    'style',
    'filter',
    'feGaussianBlur',
    'feOffset',
    'feBlend',
    'feFlood',
    'feComposite',
    'feMerge',
    'feMergeNode',
    'feColorMatrix',
  ].map((name) => [name.toLowerCase(), name]),
);
/** Elements whose content is unwrapped: their children are drawn, they are not (links, switches). */
const UNWRAPPED = new Set(['a', 'switch']);
/** Elements that hold text. */
const TEXT_HOLDERS = new Set(['text', 'tspan', 'textpath', 'style']);
/** Shapes: an SVG with none of them (text only, or a frame around a photograph) is not a drawing. */
const SHAPES = new Set(['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'use']);

/** Attributes whose name has capitals in SVG. */
const CAMEL_ATTRIBUTES = new Map(
  [
    'viewBox',
    'preserveAspectRatio',
    'gradientUnits',
    'gradientTransform',
    'patternUnits',
    'patternContentUnits',
    'patternTransform',
    'clipPathUnits',
    'maskUnits',
    'maskContentUnits',
    'filterUnits',
    'primitiveUnits',
    'spreadMethod',
    'textLength',
    'lengthAdjust',
    'startOffset',
    'markerWidth',
    'markerHeight',
    'markerUnits',
    'refX',
    'refY',
    'stdDeviation',
    'pathLength',
  ].map((name) => [name.toLowerCase(), name]),
);
/** Lowercase attribute names of SVG's presentation and geometry (with hyphens), or XML's own. */
const PLAIN_ATTRIBUTE = /^(?:[a-z][a-z0-9-]*|xml:space|xml:lang)$/;
/** Elements within elements and uses, at most (markup nests at most 256 deep). */
const MAX_USE_DEPTH = 2000;
const FRAGMENT = /^#[^\s"'<>]+$/;
const DATA_PICTURE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]+$/;

export interface SafeSvg {
  /** The rebuilt drawing, at the size it is to be drawn (`width`, `height` in pixels). */
  svg: string;
  width: number;
  height: number;
  /** Its `<title>` (or aria-label): what the picture shows, in words. */
  title?: string;
}

export type SvgOutcome = { ok: true; picture: SafeSvg } | { ok: false; reason: string };

export interface SafeSvgOptions {
  /**
   * A picture of the book a drawing places (`<image href="photo.jpg">`, relative to the SVG): its
   * bytes, or undefined to leave it out. Only raster pictures are ever placed.
   */
  picture?(href: string): Buffer | undefined;
}

/** Whether an `<svg>` draws something of its own (shapes), rather than only text or a photograph. */
export function isDrawing(svg: MarkupElement): boolean {
  const visit = (e: MarkupElement): boolean =>
    e.children.some((c) => c.kind === 'element' && (SHAPES.has(localName(c.name)) || visit(c)));
  return visit(svg);
}

/** The words of a drawing: its own `<title>`, else its aria-label. */
export function svgTitle(svg: MarkupElement): string | undefined {
  const title = svg.children.find((c): c is MarkupElement => c.kind === 'element' && localName(c.name) === 'title');
  const text = (title ? textOf(title) : (svg.attrs['aria-label'] ?? '')).replace(/\s+/g, ' ').trim();
  return text || undefined;
}

function textOf(node: MarkupNode): string {
  return node.kind === 'text' ? node.text : node.children.map(textOf).join('');
}

/** A length in CSS pixels ("12", "12px", "9pt", "2in", "5mm"), or undefined (percentages, garbage). */
function pixels(value: string | undefined): number | undefined {
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)\s*(px|pt|pc|in|cm|mm)?\s*$/i.exec(value ?? '');
  if (!m) return undefined;
  const n =
    Number(m[1]) *
    ({ px: 1, pt: 4 / 3, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 }[m[2]?.toLowerCase() ?? 'px'] ?? 1);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Only `url(#id)` survives in style: no other file, address or style sheet is ever loaded. */
function safeCss(css: string): string {
  return css
    .replace(/@import[^;]*;?/gi, '')
    .replace(/url\(\s*(['"]?)(?!#)[^)]*\1\s*\)/gi, 'none')
    .replace(/expression\s*\(/gi, '(')
    .replace(/[<>]/g, '');
}

/**
 * The drawing rebuilt from the whitelist, or why it is refused. `root` is the `<svg>` element (of an
 * SVG file read with parseMarkup, or inline in a page).
 */
export function safeSvg(root: MarkupElement, options: SafeSvgOptions = {}): SvgOutcome {
  const byId = new Map<string, MarkupElement>();
  const collect = (e: MarkupElement) => {
    if (e.attrs.id && !byId.has(e.attrs.id)) byId.set(e.attrs.id, e);
    for (const c of e.children) if (c.kind === 'element') collect(c);
  };
  collect(root);

  // What drawing it costs, each <use> counted as the element it repeats: nested uses multiply.
  // A chain of uses deeper than any drawing needs is refused too (it would exhaust the stack).
  const cost = new Map<MarkupElement, number>();
  const visiting = new Set<MarkupElement>();
  const drawn = (e: MarkupElement, depth: number): number => {
    const known = cost.get(e);
    if (known !== undefined) return known;
    if (visiting.has(e) || depth > MAX_USE_DEPTH) return Infinity;
    visiting.add(e);
    let n = 1;
    for (const c of e.children) if (c.kind === 'element') n += drawn(c, depth + 1);
    if (localName(e.name) === 'use') {
      const href = e.attrs.href ?? e.attrs['xlink:href'] ?? '';
      const target = FRAGMENT.test(href) ? byId.get(href.slice(1)) : undefined;
      if (target) n += drawn(target, depth + 1);
    }
    visiting.delete(e);
    n = Math.min(n, Number.MAX_SAFE_INTEGER);
    cost.set(e, n);
    return n;
  };
  if (drawn(root, 0) > SVG_LIMITS.drawnElements) {
    return { ok: false, reason: `it draws more than ${SVG_LIMITS.drawnElements} elements (or refers to itself)` };
  }

  // The size it declares, and the size it is drawn at: twice that (for sharp screens), within the caps.
  const box = (root.attrs.viewbox ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const hasBox = box.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0;
  let width = pixels(root.attrs.width) ?? (hasBox ? box[2]! : undefined);
  let height = pixels(root.attrs.height) ?? (hasBox ? box[3]! : undefined);
  if (width === undefined && height !== undefined && hasBox) width = (height * box[2]!) / box[3]!;
  if (height === undefined && width !== undefined && hasBox) height = (width * box[3]!) / box[2]!;
  width ??= 300;
  height ??= 150;
  const scale = Math.min(2, SVG_LIMITS.side / Math.max(width, height), Math.sqrt(SVG_LIMITS.pixels / (width * height)));
  const outWidth = Math.max(1, Math.round(width * scale));
  const outHeight = Math.max(1, Math.round(height * scale));
  const viewBox = hasBox ? box.join(' ') : `0 0 ${width} ${height}`;

  const attributes = (e: MarkupElement, name: string): string => {
    let out = '';
    for (const [raw, value] of Object.entries(e.attrs)) {
      if (raw.startsWith('on') || raw === 'xmlns') continue;
      let attribute = CAMEL_ATTRIBUTES.get(raw) ?? raw;
      let safe = value;
      if (raw === 'href' || raw === 'xlink:href') {
        attribute = 'xlink:href';
        if (name === 'image') {
          const data = DATA_PICTURE.test(value)
            ? Buffer.from(value.slice(value.indexOf(',') + 1), 'base64')
            : undefined;
          // A path within the book, never an address with a scheme (http:, file:…).
          const within = !FRAGMENT.test(value) && !/^[a-z][a-z0-9+.-]*:/i.test(value.trim());
          const bytes = data ?? (within ? options.picture?.(value) : undefined);
          const info = bytes ? imageInfo(bytes) : undefined;
          const size = (info?.width ?? 0) * (info?.height ?? 0);
          if (!bytes || !info || size > SVG_LIMITS.embeddedPixels) continue;
          safe = `data:${info.mediaType};base64,${bytes.toString('base64')}`;
        } else if (!FRAGMENT.test(value)) continue;
      } else if (!PLAIN_ATTRIBUTE.test(raw) && !CAMEL_ATTRIBUTES.has(raw)) continue;
      else if (raw === 'style') safe = safeCss(value);
      else if (/url\s*\(/i.test(value) && !/^\s*url\(\s*#[^)]*\)\s*$/i.test(value)) continue;
      if (e === root && (raw === 'width' || raw === 'height' || raw === 'viewbox' || raw === 'x' || raw === 'y'))
        continue;
      out += ` ${attribute}="${escapeHtml(safe)}"`;
    }
    return out;
  };

  const rebuild = (e: MarkupElement): string => {
    const name = localName(e.name);
    if (UNWRAPPED.has(name)) return e.children.map((c) => (c.kind === 'element' ? rebuild(c) : '')).join('');
    const tag = ELEMENTS.get(name);
    // Only SVG's own elements: an element of another vocabulary (inkscape:, rdf:, html:) is left out.
    if (!tag || (e.name.includes(':') && !e.name.startsWith('svg:'))) return '';
    let inner = '';
    for (const c of e.children) {
      if (c.kind === 'element') inner += rebuild(c);
      else if (TEXT_HOLDERS.has(name)) inner += escapeHtml(name === 'style' ? safeCss(c.text) : c.text);
    }
    const own = attributes(e, name);
    if (e === root) {
      return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${outWidth}" height="${outHeight}" viewBox="${viewBox}"${own}>${inner}</svg>`;
    }
    return `<${tag}${own}>${inner}</${tag}>`;
  };

  const picture: SafeSvg = { svg: rebuild(root), width: outWidth, height: outHeight };
  const title = svgTitle(root);
  if (title) picture.title = title;
  return { ok: true, picture };
}
