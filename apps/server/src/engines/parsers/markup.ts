/**
 * A small, forgiving XML/HTML tokenizer that builds a tree. EPUB XHTML, OPF/NCX and small XML parts
 * (DOCX core properties) go through it; large DOCX parts use the streaming xml-stream.ts instead. It never fetches anything, never expands custom entities (documents declaring
 * entities are refused before they get here) and copes with the tag soup real EPUBs contain.
 */
import { ParseError } from './errors.ts';
import { PARSE_LIMITS } from './limits.ts';

export interface MarkupElement {
  kind: 'element';
  /** Lower-cased, prefix kept (`dc:title`, `epub:switch`). */
  name: string;
  attrs: Record<string, string>;
  children: MarkupNode[];
  parent?: MarkupElement;
}

export interface MarkupText {
  kind: 'text';
  text: string;
}

export type MarkupNode = MarkupElement | MarkupText;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
// Their content is not markup; we skip it entirely (scripts and styles never reach a reader).
const RAW = new Set(['script', 'style', 'textarea', 'title-raw']);

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  shy: '\u00ad',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  zwnj: '\u200c',
  zwj: '\u200d',
  lrm: '\u200e',
  rlm: '\u200f',
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  hellip: '…',
  middot: '·',
  bull: '•',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  sect: '§',
  para: '¶',
  dagger: '†',
  Dagger: '‡',
  prime: '′',
  Prime: '″',
  times: '×',
  divide: '÷',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  pound: '£',
  euro: '€',
  yen: '¥',
  cent: '¢',
  iexcl: '¡',
  iquest: '¿',
  aelig: 'æ',
  AElig: 'Æ',
  oelig: 'œ',
  OElig: 'Œ',
  szlig: 'ß',
  eacute: 'é',
  egrave: 'è',
  ecirc: 'ê',
  euml: 'ë',
  aacute: 'á',
  agrave: 'à',
  acirc: 'â',
  auml: 'ä',
  atilde: 'ã',
  aring: 'å',
  iacute: 'í',
  igrave: 'ì',
  icirc: 'î',
  iuml: 'ï',
  oacute: 'ó',
  ograve: 'ò',
  ocirc: 'ô',
  ouml: 'ö',
  otilde: 'õ',
  oslash: 'ø',
  uacute: 'ú',
  ugrave: 'ù',
  ucirc: 'û',
  uuml: 'ü',
  ccedil: 'ç',
  ntilde: 'ñ',
  yacute: 'ý',
  yuml: 'ÿ',
  Eacute: 'É',
  Egrave: 'È',
  Ecirc: 'Ê',
  Aacute: 'Á',
  Agrave: 'À',
  Acirc: 'Â',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  Ccedil: 'Ç',
  Ntilde: 'Ñ',
};

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** True when the document declares entities (billion-laughs and external-entity tricks). */
export function declaresEntities(source: string): boolean {
  const head = source.slice(0, 65536);
  const doctype = /<!DOCTYPE[^[>]*\[/i.exec(head);
  return doctype !== null && /<!ENTITY/i.test(source.slice(doctype.index, doctype.index + 1_000_000));
}

const ATTR_RE = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;

function parseAttrs(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  ATTR_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ATTR_RE.exec(source)) !== null) {
    const name = m[1]!.toLowerCase();
    if (name in attrs) continue;
    attrs[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/**
 * Parses markup into a root element named '#root'. Never throws on malformed input; refuses, with
 * fileTooComplex, a document with more elements or deeper nesting than PARSE_LIMITS allow (the tree
 * of 21 million paragraphs would take gigabytes; deep nesting would overflow the walkers' stacks).
 */
export function parseMarkup(source: string): MarkupElement {
  const root: MarkupElement = { kind: 'element', name: '#root', attrs: {}, children: [] };
  const stack: MarkupElement[] = [root];
  let elements = 0;
  const top = (): MarkupElement => stack[stack.length - 1]!;
  let i = 0;
  const n = source.length;
  const pushText = (raw: string, decode: boolean) => {
    if (!raw) return;
    const text = decode ? decodeEntities(raw) : raw;
    const parent = top();
    const last = parent.children[parent.children.length - 1];
    if (last?.kind === 'text') last.text += text;
    else parent.children.push({ kind: 'text', text });
  };
  while (i < n) {
    const lt = source.indexOf('<', i);
    if (lt === -1) {
      pushText(source.slice(i), true);
      break;
    }
    if (lt > i) pushText(source.slice(i, lt), true);
    if (source.startsWith('<!--', lt)) {
      const end = source.indexOf('-->', lt + 4);
      i = end === -1 ? n : end + 3;
      continue;
    }
    if (source.startsWith('<![CDATA[', lt)) {
      const end = source.indexOf(']]>', lt + 9);
      pushText(source.slice(lt + 9, end === -1 ? n : end), false);
      i = end === -1 ? n : end + 3;
      continue;
    }
    if (source[lt + 1] === '!' || source[lt + 1] === '?') {
      // DOCTYPE / processing instruction; an internal subset may contain '>' inside brackets.
      let end = source.indexOf('>', lt);
      const bracket = source.indexOf('[', lt);
      if (bracket !== -1 && end !== -1 && bracket < end) {
        const close = source.indexOf(']>', bracket);
        end = close === -1 ? end : close + 1;
      }
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (source[lt + 1] === '/') {
      const end = source.indexOf('>', lt);
      const name = source
        .slice(lt + 2, end === -1 ? n : end)
        .trim()
        .toLowerCase();
      i = end === -1 ? n : end + 1;
      // Close the nearest open element with this name; ignore stray end tags.
      for (let s = stack.length - 1; s > 0; s--) {
        if (stack[s]!.name === name) {
          stack.length = s;
          break;
        }
      }
      continue;
    }
    const nameMatch = /^<([a-zA-Z][^\s/>]*)/.exec(source.slice(lt, lt + 200));
    if (!nameMatch) {
      pushText('<', false);
      i = lt + 1;
      continue;
    }
    // Find the end of the tag, honouring quoted attribute values that may contain '>'.
    let j = lt + nameMatch[0].length;
    let quote = '';
    for (; j < n; j++) {
      const c = source[j];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') break;
    }
    const name = nameMatch[1]!.toLowerCase();
    let inner = source.slice(lt + nameMatch[0].length, j);
    const selfClosing = inner.endsWith('/');
    if (selfClosing) inner = inner.slice(0, -1);
    if (++elements > PARSE_LIMITS.elementsPerDocument) {
      throw new ParseError('fileTooComplex', `A document has more than ${PARSE_LIMITS.elementsPerDocument} elements`);
    }
    const element: MarkupElement = { kind: 'element', name, attrs: parseAttrs(inner), children: [], parent: top() };
    top().children.push(element);
    i = j + 1;
    if (selfClosing || VOID.has(name)) continue;
    if (RAW.has(name)) {
      const closeRe = new RegExp(`</${name}`, 'gi');
      closeRe.lastIndex = i;
      const close = closeRe.exec(source)?.index ?? -1;
      i = close === -1 ? n : source.indexOf('>', close) + 1 || n;
      continue;
    }
    // HTML's implied end tags for the common cases (a <p> cannot contain another <p>).
    if (name === 'p' || name === 'li') {
      for (let s = stack.length - 1; s > 0; s--) {
        const open = stack[s]!.name;
        if (open === name) {
          stack.length = s;
          element.parent = top();
          top().children.pop();
          top().children.push(element);
          break;
        }
        if (open !== 'span' && open !== 'em' && open !== 'strong' && open !== 'b' && open !== 'i') break;
      }
    }
    stack.push(element);
    if (stack.length > PARSE_LIMITS.nestingDepth + 1) {
      throw new ParseError('fileTooComplex', `Elements nest more than ${PARSE_LIMITS.nestingDepth} deep`);
    }
  }
  return root;
}

export function* walkElements(node: MarkupElement): Generator<MarkupElement> {
  for (const child of node.children) {
    if (child.kind === 'element') {
      yield child;
      yield* walkElements(child);
    }
  }
}

/** The local name without its namespace prefix (`dc:title` → `title`). */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

export function findFirst(node: MarkupElement, test: (e: MarkupElement) => boolean): MarkupElement | undefined {
  for (const e of walkElements(node)) if (test(e)) return e;
  return undefined;
}

export function findAll(node: MarkupElement, test: (e: MarkupElement) => boolean): MarkupElement[] {
  const out: MarkupElement[] = [];
  for (const e of walkElements(node)) if (test(e)) out.push(e);
  return out;
}

export function byLocalName(name: string): (e: MarkupElement) => boolean {
  return (e) => localName(e.name) === name;
}

/** All text below a node, whitespace collapsed. */
export function textContent(node: MarkupNode): string {
  const parts: string[] = [];
  const visit = (n: MarkupNode) => {
    if (n.kind === 'text') parts.push(n.text);
    else for (const c of n.children) visit(c);
  };
  visit(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
