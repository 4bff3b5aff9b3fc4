/**
 * Displayed formulas: the lines of a formula set apart from the text (centred or indented in their
 * column, with the numerator, the fraction bar and the denominator as rows of their own, often a
 * "(3)" at the right margin) become one picture cropped from the page (pdf-crop.ts), number
 * included; a formula inside a sentence stays text. Read as text, a displayed formula is a
 * paragraph of stray symbols and letters ("fN (x) ∝", "1", "1 + |x|γ").
 *
 * A row is mathematics by what it is made of: operators and relations, Greek and mathematical
 * letters, characters a math font gives no Unicode for (CMEX's big delimiters come out as control
 * characters), single letters and numbers, few words; never code (";", "{", "//", keywords) nor a
 * line in a typewriter face. Rows of mathematics close together make one formula; it must stand
 * apart from the text: centred in the column, or indented, or numbered.
 */
import type { PdfLine } from './pdf-layout.ts';
import { isBodyLine, lineBox, union } from './pdf-figures.ts';
import type { FigureContext } from './pdf-figures.ts';
import type { Box, Graphic } from './pdf-graphics.ts';
import { CROP_MARGIN } from './pdf-crop.ts';

export interface PageFormula {
  /** What is cropped: the formula's rows, fraction bars and radicals, and its number. */
  box: Box;
  /** Its lines, taken out of the text. */
  lines: PdfLine[];
}

export interface MathContext extends FigureContext {
  /** Fonts (line keys) of a typewriter face: code, never mathematics. */
  monospace?: ReadonlySet<string>;
}

const OPERATOR = /[=+−±×÷∑∏∫∮√∞∝≤≥≠≈≡∼≃≅≪≫∈∉∋⊂⊃⊆⊇∪∩∀∃∄∂∇∆→←↔⇒⇐⇔↦⟨⟩‖∥⊕⊗⊥∧∨¬′″·∘⋅<>|^]/gu;
const GREEK = /[\u0391-\u03a9\u03b1-\u03c9\u03d1\u03d5\u03f5\u{1d6a8}-\u{1d7c9}]/gu;
const MATH_LETTER = /[\u{1d400}-\u{1d6a3}\u2102\u210a-\u2113\u2115\u2119-\u211d\u2124]/gu;
const EQUATION_NUMBER = /^\(\s*(?:\d+|[A-Z])(?:[.\-–]\d+)*[a-z]?\s*\)$/;
/** Words a formula may hold: function names and the small words of "x = 1 if n > 0". */
const MATH_WORDS = new Set(
  'sin cos tan cot sec csc log ln exp max min sup inf lim det arg mod gcd lcm var cov for and if otherwise where s.t. subject to all'.split(
    ' ',
  ),
);
/** Code, not mathematics; braces only where code puts them (a set "{0, 1}" is mathematics). */
const CODE =
  /;|\{\s*$|^\s*\}|\/\/|==|!=|&&|\|\||:=|\b(?:var|int|return|function|def|print|printf|end|for\s*\(|while)\b/u;

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

/** How much a line looks like mathematics, by its characters: 0 (prose, code) and up. */
export function mathScore(l: PdfLine, ctx: MathContext): number {
  const text = l.text.trim();
  if (!text || CODE.test(text) || (l.font !== undefined && ctx.monospace?.has(l.font))) return 0;
  const tokens = text.split(/\s+/);
  const words = tokens.filter(
    (t) => /^\p{L}{3,}[,.:]?$/u.test(t) && !MATH_WORDS.has(t.replace(/[,.:]$/, '').toLowerCase()),
  );
  if (words.length >= 3 && words.length >= tokens.length * 0.4) return 0;
  const symbols = count(text, OPERATOR) + count(text, GREEK) + count(text, MATH_LETTER) + (l.badChars ?? 0);
  const singles = tokens.filter((t) => /^[\p{L}\d][′'*]?$|^\(?[\p{L}\d]{1,2}\)?[,.]?$/u.test(t)).length;
  return symbols * 2 + singles - words.length * 2;
}

/** The column a line stands in: the extent of the page's lines of that column. */
function columnOf(l: PdfLine, lines: PdfLine[]): { x0: number; x1: number } {
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const other of lines) {
    if (other.col !== l.col || other.text.length < 20) continue;
    x0 = Math.min(x0, other.x0);
    x1 = Math.max(x1, other.x1);
  }
  return x0 < x1 ? { x0, x1 } : { x0: l.x0, x1: l.x1 };
}

/**
 * The displayed formulas of a page. `lines` are in reading order (figures already taken out);
 * `graphics` give the fraction bars and radicals drawn as rules and paths.
 */
export function findFormulas(lines: PdfLine[], graphics: Graphic[], ctx: MathContext): PageFormula[] {
  const out: PageFormula[] = [];
  const isNumber = (l: PdfLine) => EQUATION_NUMBER.test(l.text.trim());
  let run: PdfLine[] = [];
  const flush = () => {
    const formula = run.length ? asFormula(run, lines, graphics, ctx) : undefined;
    if (formula) out.push(formula);
    run = [];
  };
  for (const l of lines) {
    const prev = run[run.length - 1];
    const near = prev && prev.col === l.col && prev.y - l.y <= Math.max(prev.size, l.size) * 1.9 && prev.y >= l.y - 2;
    const candidate =
      isNumber(l) || (!isBodyLine(l, ctx) && mathScore(l, ctx) >= 3) || (near && isFormulaPiece(l, ctx));
    if (candidate && (near || !prev)) run.push(l);
    else {
      flush();
      if (candidate) run.push(l);
    }
  }
  flush();
  absorbCrumbs(out, lines, ctx);
  const inFormulas = new Set(out.flatMap((f) => f.lines));
  for (const formula of out) clearOfText(formula, lines, inFormulas);
  return out;
}

/**
 * A formula's box stops short of the lines of text above and below it, their descenders and the
 * crop's margin included: a big delimiter's box, sized by its font rather than by its glyph, reached
 * half into the line above.
 */
function clearOfText(formula: PageFormula, lines: PdfLine[], inFormulas: Set<PdfLine>): void {
  const middle = (formula.box.y0 + formula.box.y1) / 2;
  for (const l of lines) {
    if (inFormulas.has(l)) continue;
    const b = lineBox(l);
    if (b.x1 <= formula.box.x0 || b.x0 >= formula.box.x1) continue;
    if (l.y > middle && b.y0 - CROP_MARGIN < formula.box.y1) formula.box.y1 = Math.max(middle, b.y0 - CROP_MARGIN);
    if (l.y <= middle && b.y1 + CROP_MARGIN > formula.box.y0) formula.box.y0 = Math.min(middle, b.y1 + CROP_MARGIN);
  }
}

/** A sub- or superscript, a delimiter or a lone numeral that pdf.js gave a line of its own. */
const isCrumb = (l: PdfLine, ctx: MathContext) =>
  !isBodyLine(l, ctx) &&
  l.text.trim().length <= 12 &&
  !/\p{L}{3}/u.test(l.text) &&
  !EQUATION_NUMBER.test(l.text.trim());

/**
 * Crumbs of a formula left beside it (a big parenthesis or a numerator set above the first row): they
 * are the formula's, never paragraphs of their own.
 */
function absorbCrumbs(formulas: PageFormula[], lines: PdfLine[], ctx: MathContext): void {
  const used = new Set(formulas.flatMap((f) => f.lines));
  for (let round = 0; round < 2; round++) {
    for (const l of lines) {
      if (used.has(l) || !isCrumb(l, ctx)) continue;
      const b = lineBox(l);
      const reach = ctx.bodySize * 3;
      const formula = formulas.find(
        ({ box }) =>
          b.x0 >= box.x0 - reach &&
          b.x1 <= box.x1 + reach &&
          b.y0 <= box.y1 + l.size * 1.2 &&
          b.y1 >= box.y0 - l.size * 1.2,
      );
      if (!formula) continue;
      formula.lines.push(l);
      formula.box = union(formula.box, b);
      used.add(l);
    }
  }
}

/** A row of a formula that says little alone: a numerator "1", a ",", a sub- or superscript. */
function isFormulaPiece(l: PdfLine, ctx: MathContext): boolean {
  return !isBodyLine(l, ctx) && (l.text.trim().length <= 6 || mathScore(l, ctx) >= 2);
}

/** The rows as one displayed formula, if they make one: mathematics, set apart from the text. */
function asFormula(run: PdfLine[], lines: PdfLine[], graphics: Graphic[], ctx: MathContext): PageFormula | undefined {
  const rows = run.filter((l) => !EQUATION_NUMBER.test(l.text.trim()));
  if (!rows.length) return undefined;
  const score = rows.reduce((s, l) => s + mathScore(l, ctx), 0);
  if (score < 4) return undefined;
  let box = run.map(lineBox).reduce(union);
  const column = columnOf(rows[0]!, lines);
  const width = column.x1 - column.x0;
  const rowsBox = rows.map(lineBox).reduce(union);
  const centred = Math.abs((rowsBox.x0 + rowsBox.x1) / 2 - (column.x0 + column.x1) / 2) <= width * 0.12;
  const indented = rowsBox.x0 - column.x0 >= ctx.bodySize * 2;
  const numbered = run.some((l) => EQUATION_NUMBER.test(l.text.trim()));
  // A row as wide as its column is a line of the text, unless it is nothing but mathematics built in
  // rows (a long displayed inequality with a fraction's short row under it; a line of inline
  // mathematics has none): symbols for two formulas, and no run of three letters but a function's
  // name (code has identifiers: "\usepackage[box]{automultiplechoice}"), no quotation marks (a
  // manual's list of operators: "‘=’ ‘+=’ ‘-=’").
  const onlyMathematics =
    score >= 12 &&
    rows.some((l) => l.text.trim().length <= 6) &&
    rows.every(
      (l) =>
        !/[‘’“”"«»]/u.test(l.text) &&
        (l.text.match(/\p{L}{3,}/gu) ?? []).every((word) => MATH_WORDS.has(word.toLowerCase())),
    );
  if (rowsBox.x1 - rowsBox.x0 > width * 0.92 && !numbered && !onlyMathematics) return undefined;
  if (!centred && !indented && !numbered) return undefined;
  // Fraction bars, radicals and big delimiters drawn as paths, within the formula's rows.
  for (const g of graphics) {
    const within = g.x0 >= column.x0 - 4 && g.x1 <= column.x1 + 4 && g.y0 >= box.y0 - 4 && g.y1 <= box.y1 + 4;
    if (within && g.imageArea === 0) box = union(box, g);
  }
  return { box, lines: run };
}
