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
