/**
 * MathML as readable text. Books are read as text (and translated), so an equation becomes the
 * linear form people type: its `alttext` when the author gave one (and not a placeholder: "equation",
 * "Alternative text not available", the same text on every formula), else Presentation MathML written
 * out — tokens in order, x^2 for a superscript, a/b for a fraction, √(…) for a root, a matrix as
 * [a, b; c, d] — or its TeX annotation. A maths book that lost its equations lost a third of its words.
 */
import { findFirst, localName } from './markup.ts';
import { isPlaceholderAltText } from './mathml-placeholders.ts';
import type { MarkupElement, MarkupNode } from './markup.ts';

/** Function application, invisible times / separator / plus: nothing to read. */
const INVISIBLE = /[\u2061-\u2064]/g;
/** Operators written without spaces around them. */
const TIGHT_OPERATORS = new Set([
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '|',
  '‖',
  '⌈',
  '⌉',
  '⌊',
  '⌋',
  '⟨',
  '⟩',
  '!',
  '′',
  '″',
  "'",
]);
/** Large operators: what follows them is their operand, after a space. */
const LARGE_OPERATORS = /^[∑∏∐∫∬∭∮⋃⋂⋁⋀]$/;

function elements(e: MarkupElement): MarkupElement[] {
  return e.children.filter((c): c is MarkupElement => c.kind === 'element');
}

function tokenText(node: MarkupNode): string {
  if (node.kind === 'text') return node.text;
  return node.children.map(tokenText).join('');
}

/** Wraps a compound operand in parentheses so that "a+b over c" reads (a + b)/c. */
function group(text: string): string {
  const t = text.trim();
  if (/^(?:\p{N}+(?:[.,]\p{N}+)?|\p{L})$/u.test(t) || /^√?\([^()]*\)$/u.test(t)) return t;
  return `(${t})`;
}

/** A script (sub-, superscript, under, over): single tokens stay bare, anything longer is grouped. */
function script(text: string): string {
  const t = text.trim();
  return /^[\p{L}\p{N}.′″∞*+−-]+$/u.test(t) && !/^[+−-]./u.test(t) ? t : `(${t})`;
}

function linear(e: MarkupElement): string {
  const name = localName(e.name);
  const kids = elements(e);
  const part = (i: number) => (kids[i] ? linear(kids[i]) : '');
  switch (name) {
    case 'mi':
    case 'mn':
    case 'mtext':
    case 'ms':
      return tokenText(e).replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
    case 'mo': {
      const op = tokenText(e).replace(INVISIBLE, '').trim();
      if (!op) return '';
      if (TIGHT_OPERATORS.has(op)) return op;
      if (op === ',' || op === ';') return `${op} `;
      if (LARGE_OPERATORS.test(op)) return op;
      return ` ${op} `;
    }
    case 'mspace':
      return ' ';
    case 'msup':
      return `${part(0)}^${script(part(1))}`;
    case 'msub':
      return `${part(0)}_${script(part(1))}`;
    case 'msubsup':
      return `${part(0)}_${script(part(1))}^${script(part(2))}`;
    case 'munder':
    case 'mover': {
      // An accent or a brace over or under its base (x̄, a⏟) adds nothing readable; a limit does.
      if (kids[1] && localName(kids[1].name) === 'mo' && !isLargeOperator(kids[0] ?? kids[1])) return part(0);
      return `${part(0)}${name === 'munder' ? '_' : '^'}${script(part(1))}`;
    }
    case 'munderover':
      return `${part(0)}_${script(part(1))}^${script(part(2))}`;
    case 'mfrac':
      return `${group(part(0))}/${group(part(1))}`;
    case 'msqrt':
      return `√(${row(kids)})`;
    case 'mroot':
      return `${script(part(1))}√(${part(0).trim()})`;
    case 'mfenced': {
      const open = e.attrs.open ?? '(';
      const close = e.attrs.close ?? ')';
      const separator = (e.attrs.separators ?? ',').trim()[0] ?? '';
      return `${open}${kids.map((k) => row([k])).join(separator ? `${separator} ` : ' ')}${close}`;
    }
    case 'mtable':
      return `[${kids
        .map((tr) =>
          elements(tr)
            .map((td) => row(elements(td)).trim())
            .filter(Boolean)
            .join(', '),
        )
        .join('; ')}]`;
    case 'mlongdiv':
      // Elementary long division: divisor, result, dividend, then the working, which is left out.
      return `${part(2).trim()} ÷ ${part(0).trim()} = ${part(1).trim()}`;
    case 'msline':
    case 'mscarries':
      return '';
    case 'mstack':
    case 'msgroup':
      return kids
        .map((k) => linear(k).trim())
        .filter(Boolean)
        .join(' ');
    case 'semantics':
    case 'maction':
      // The presentation form comes first; annotations (TeX, content MathML) and other actions after.
      return part(0);
    case 'mphantom':
    case 'annotation':
    case 'annotation-xml':
    case 'none':
    case 'mprescripts':
      return '';
    default:
      // mrow, mstyle, mpadded, menclose, merror, mmultiscripts, math...: their children in order.
      return row(kids);
  }
}

/** A large operator (∑, ∫...), bare or with its limits. */
function isLargeOperator(e: MarkupElement): boolean {
  const name = localName(e.name);
  if (name === 'mo') return LARGE_OPERATORS.test(tokenText(e).trim());
  if (!/^m(?:sub|sup|subsup|under|over|underover)$/.test(name)) return false;
  const base = elements(e)[0];
  return base !== undefined && isLargeOperator(base);
}

/** Children read in order; operators carry their own spacing, a large operator's operand follows a space. */
function row(kids: MarkupElement[]): string {
  let out = '';
  let afterLargeOperator = false;
  for (const kid of kids) {
    let text = linear(kid);
    if (!text) continue;
    // A sign at the start of a row or after another operator is a prefix: it sticks to its operand.
    if (localName(kid.name) === 'mo' && (!out.trim() || /[([{]$|\s$/.test(out))) text = text.trim();
    if (afterLargeOperator && !/^\s/.test(text)) out += ' ';
    out += text;
    afterLargeOperator = isLargeOperator(kid);
  }
  return out;
}

/** The formula written out from its Presentation MathML, else its TeX annotation. */
function writtenOut(math: MarkupElement): string {
  const written = row(elements(math))
    .replace(/\s+/g, ' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')
    .replace(/^\s*[,;]?\s*|\s+$/g, '')
    .trim();
  if (written) return written;
  const tex = findFirst(
    math,
    (e) => localName(e.name) === 'annotation' && /^(?:application\/x-tex|tex|latex)$/i.test(e.attrs.encoding ?? ''),
  );
  return tex ? tokenText(tex).replace(/\s+/g, ' ').trim() : '';
}

/**
 * The readable text of a <math> element: its alt text, unless that is a placeholder (a stock phrase,
 * mathml-placeholders.ts, or one of `placeholders`, found on the whole book), else the MathML itself.
 */
export function mathText(math: MarkupElement, placeholders?: ReadonlySet<string>): string {
  const alt = math.attrs.alttext?.trim();
  if (alt && !placeholders?.has(alt) && !isPlaceholderAltText(alt)) return alt;
  return writtenOut(math);
}

/** A formula as written out, compared whatever its spacing and character forms. */
const formulaKey = (math: MarkupElement) => writtenOut(math).normalize('NFKC').replace(/\s+/g, '');

/**
 * Alt texts a book gives to formulas that are not the same: "the same alt text on every formula" is
 * a placeholder, whatever it says. An alt text on three formulas written three ways, or on every
 * formula of the book when they are written in two, describes none of them.
 */
export function repeatedAltTexts(maths: MarkupElement[]): Set<string> {
  const formulas = new Map<string, Set<string>>();
  for (const math of maths) {
    const alt = math.attrs.alttext?.trim();
    if (!alt) continue;
    let keys = formulas.get(alt);
    if (!keys) formulas.set(alt, (keys = new Set()));
    keys.add(formulaKey(math));
  }
  const out = new Set<string>();
  for (const [alt, keys] of formulas) {
    const distinct = [...keys].filter(Boolean).length;
    if (distinct >= 3 || (distinct >= 2 && formulas.size === 1)) out.add(alt);
  }
  return out;
}
