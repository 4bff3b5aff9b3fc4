/**
 * What (X)HTML, SVG and EPUB elements mean when a document becomes blocks: which start blocks, which
 * are never read, which inline tags survive into the html, which branch of a switch a reader shows,
 * and which elements are hidden.
 */
import { localName } from './markup.ts';
import type { MarkupElement, MarkupNode } from './markup.ts';

export const HEADING = /^h([1-6])$/;
const CONTAINERS = new Set([
  'body',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'figure',
  'figcaption',
  'ul',
  'ol',
  'dl',
  'dd',
  'dt',
  'center',
  'hgroup',
  'form',
  'fieldset',
  'details',
  'summary',
  'address',
  'nav',
  'caption',
  'blockquote',
  'li',
  'p',
  'pre',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'hr',
]);
export const IGNORED = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'video',
  'audio',
  'canvas',
  'button',
  'input',
  'select',
  'textarea',
  'title',
  'link',
  'meta',
  // SVG: descriptions for assistive technology and metadata, not what the drawing shows.
  'desc',
  'metadata',
]);
export const INLINE_TAGS: Record<string, string> = {
  em: 'em',
  i: 'em',
  cite: 'em',
  dfn: 'em',
  var: 'em',
  strong: 'strong',
  b: 'strong',
  sup: 'sup',
  sub: 'sub',
};
const CJK = '\\u2e80-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef\\u3000-\\u303f';
export const CJK_GAP = new RegExp(`([${CJK}]) (?=[${CJK}])`, 'g');

export function isBlockName(name: string): boolean {
  return CONTAINERS.has(name) || HEADING.test(name);
}

export function textContentLength(node: MarkupNode): number {
  if (node.kind === 'text') return node.text.trim().length;
  let n = 0;
  for (const c of node.children) n += textContentLength(c);
  return n;
}

/** Namespaces whose `epub:case` we can show: MathML is read as text, SVG for its text. */
const SUPPORTED_NAMESPACES = new Set(['http://www.w3.org/1998/Math/MathML', 'http://www.w3.org/2000/svg']);

/**
 * The one branch of a switch a reader shows: for `epub:switch`, the first case in a namespace we
 * support, else the default; for SVG's switch, its first child (browsers take XHTML foreign objects).
 */
export function chooseSwitchBranch(e: MarkupElement): MarkupElement | undefined {
  const kids = e.children.filter((c): c is MarkupElement => c.kind === 'element');
  const cases = kids.filter((k) => localName(k.name) === 'case');
  const fallback = kids.find((k) => localName(k.name) === 'default');
  if (!cases.length && !fallback) return kids[0];
  return cases.find((k) => SUPPORTED_NAMESPACES.has(k.attrs['required-namespace'] ?? '')) ?? fallback;
}

export function isHidden(e: MarkupElement): boolean {
  if ('hidden' in e.attrs) return true;
  const style = e.attrs.style;
  return style !== undefined && /display\s*:\s*none/i.test(style);
}

/**
 * A picture's text alternative worth keeping: not empty, not its file name ("image001.png"), not a
 * word that only says it is a picture ("image", "cover", "插图").
 */
export function altText(alt: string | undefined): string {
  const text = (alt ?? '').replace(/\s+/g, ' ').trim();
  if (/^[\w .-]*\.(?:jpe?g|png|gif|webp|svg|bmp|tiff?)$/i.test(text)) return '';
  if (
    /^(?:image|img|picture|pic|photo|figure|fig|illustration|cover|logo|graphic|插图|图片|图|封面|イラスト|画像)\s*\d*$/i.test(
      text,
    )
  )
    return '';
  return text;
}

/**
 * A link back from a note to where it is cited (`epub:type="backlink"`, `role="doc-backlink"`, or in a
 * note an arrow alone): the reader offers its own way back, and the arrow is not the note's text.
 */
export function isBackLink(a: MarkupElement, inNote: boolean): boolean {
  if (/\bbacklink\b/.test(a.attrs['epub:type'] ?? '') || a.attrs.role === 'doc-backlink') return true;
  if (!inNote) return false;
  const text = a.children.map((c) => (c.kind === 'text' ? c.text : '')).join('');
  // An arrow, perhaps with the variation selector that asks for its text or emoji form.
  return a.children.every((c) => c.kind === 'text') && /^(?:\s|[↩↑⇑⇧^](?:\u{fe0e}|\u{fe0f})?)+$/u.test(text);
}

/** Verse and songs as Standard Ebooks and the DAISY vocabulary mark them, or as classes name them. */
const VERSE_TYPES = /\bz3998:(?:verse|poem|song|lyrics|hymn)\b/;
/** What holds the lines of a stanza (never a span: spans within a line are not lines). */
const STANZAS = new Set(['p', 'div', 'blockquote', 'li', 'dd', 'section']);
const VERSE_CLASSES = /\b(?:verse|poem|poetry|stanza|song|lyrics)\b/i;

/**
 * A `<span>` that is a line of verse with no `<br/>` before it (its style sheet shows each span as a
 * line): a span following another span among the children of a stanza, inside verse.
 */
export function startsVerseLine(span: MarkupElement): boolean {
  const stanza = span.parent;
  if (!stanza || !STANZAS.has(localName(stanza.name))) return false;
  const siblings = stanza.children.filter((c): c is MarkupElement => c.kind === 'element');
  const at = siblings.indexOf(span);
  if (at <= 0 || localName(siblings[at - 1]!.name) !== 'span') return false;
  for (let e: MarkupElement | undefined = stanza; e; e = e.parent) {
    if (VERSE_TYPES.test(e.attrs['epub:type'] ?? '') || VERSE_CLASSES.test(e.attrs.class ?? '')) return true;
  }
  return false;
}

const LINE_GROUP_CLASSES = /\b(?:linegroup|line-group|lg|stanza|verse|poem|poetry)\b/i;
const LINE_ELEMENTS = new Set(['div', 'p', 'span']);

/**
 * A stanza written as one element per line (`<div class="linegroup"><div>line</div>…`, as the IDPF's
 * Waste Land has it): verse by its class or epub:type, whose children are all single lines (no line
 * break or block inside). A verse element whose children are stanzas (Standard Ebooks' `<p>` of
 * `<span>` lines) is not one: each stanza is a block of its own.
 */
export function isLineGroup(e: MarkupElement): boolean {
  if (!LINE_GROUP_CLASSES.test(e.attrs.class ?? '') && !VERSE_TYPES.test(e.attrs['epub:type'] ?? '')) return false;
  const single = (line: MarkupElement): boolean =>
    line.children.every(
      (c) =>
        c.kind === 'text' ||
        (localName(c.name) !== 'br' && !isBlockName(localName(c.name)) && (localName(c.name) === 'a' || single(c))),
    );
  let count = 0;
  // Lines, or groups of lines within it (a quotation of a song in the middle of a stanza).
  const linesOnly = (group: MarkupElement): boolean =>
    group.children.every((c) => {
      if (c.kind === 'text') return !c.text.trim();
      const name = localName(c.name);
      if (LINE_ELEMENTS.has(name) && single(c)) return ++count > 0;
      return (name === 'div' || name === 'blockquote') && linesOnly(c);
    });
  return linesOnly(e) && count >= 2;
}

/** A verse line's printed number (`<span class="lnum">20</span>`): a mark in the margin, not words of the line. */
export function isLineNumber(e: MarkupElement): boolean {
  return /^(?:lnum|linenum|line-?num(?:ber)?|verse-?num(?:ber)?)$/i.test((e.attrs.class ?? '').trim());
}
