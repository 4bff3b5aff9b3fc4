/**
 * MathML whose alt text is a placeholder: the mathematics is read from the MathML. Books made by
 * conversion workflows give every formula the same stock alt text ("Alternative text not available"),
 * a numbered label or the name of the picture it replaced; read as alt text, the formulas of a maths
 * book all say the same thing.
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { isPlaceholderAltText } from '../mathml-placeholders.ts';
import { epubParser } from './epub.ts';

const MATHML = 'http://www.w3.org/1998/Math/MathML';

/** Formulas as a LaTeX-to-MathML converter writes them: presentation MathML with the TeX as an annotation. */
const FORMULAS = {
  square: `<mrow><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mn>1</mn></mrow>`,
  fraction: `<mfrac><mi>a</mi><mi>b</mi></mfrac>`,
  roots: `<mrow><mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><mrow><msup><mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></mrow></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></mrow>`,
  sum: `<mrow><munderover><mo>∑</mo><mrow><mi>n</mi><mo>=</mo><mn>1</mn></mrow><mi>∞</mi></munderover><mfrac><mn>1</mn><msup><mi>n</mi><mn>2</mn></msup></mfrac></mrow>`,
};
const TEX: Record<keyof typeof FORMULAS, string> = {
  square: 'x^2+1',
  fraction: '\\frac{a}{b}',
  roots: 'x=\\frac{-b\\pm\\sqrt{b^2-4ac}}{2a}',
  sum: '\\sum_{n=1}^\\infty \\frac{1}{n^2}',
};

function math(formula: keyof typeof FORMULAS, alt: string, display = false): string {
  return (
    `<math xmlns="${MATHML}" alttext="${alt}"${display ? ' display="block"' : ''}><semantics>${FORMULAS[formula]}` +
    `<annotation encoding="application/x-tex">${TEX[formula]}</annotation></semantics></math>`
  );
}

/** A two-chapter EPUB 3 textbook with a navigation document, its formulas given `alt` (a function of the formula). */
async function textbook(alt: (formula: keyof typeof FORMULAS, index: number) => string): Promise<Buffer> {
  let index = 0;
  const m = (formula: keyof typeof FORMULAS, display = false) => math(formula, alt(formula, index++), display);
  const chapters = [
    `<section epub:type="chapter" id="ch1"><h1>1 Algebra</h1>
      <p>The polynomial ${m('square')} has no real root, and a ratio ${m('fraction')} is defined when b is not zero.</p>
      <p>The roots of a quadratic equation are</p>${m('roots', true)}
      <p>where the discriminant decides how many there are.</p></section>`,
    `<section epub:type="chapter" id="ch2"><h1>2 Series</h1>
      <p>Euler showed that</p>${m('sum', true)}<p>equals π²/6, and that ${m('fraction')} may be any rational number.</p></section>`,
  ];
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
  );
  zip.file(
    'OEBPS/package.opf',
    `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:5a1e2f4c-0000-4000-8000-000000000001</dc:identifier><dc:title>Elementary Mathematics</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2021-03-01T00:00:00Z</meta></metadata>` +
      `<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>` +
      chapters
        .map(
          (_, i) =>
            `<item id="c${i + 1}" href="ch${i + 1}.xhtml" media-type="application/xhtml+xml" properties="mathml"/>`,
        )
        .join('') +
      `</manifest><spine>${chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`).join('')}</spine></package>`,
  );
  zip.file(
    'OEBPS/nav.xhtml',
    `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><ol><li><a href="ch1.xhtml#ch1">1 Algebra</a></li><li><a href="ch2.xhtml#ch2">2 Series</a></li></ol></nav></body></html>`,
  );
  chapters.forEach((body, i) =>
    zip.file(
      `OEBPS/ch${i + 1}.xhtml`,
      `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Chapter ${i + 1}</title></head><body>${body}</body></html>`,
    ),
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const WRITTEN_OUT = [
  'The polynomial x^2 + 1 has no real root, and a ratio a/b is defined when b is not zero.',
  'x = (−b ± √(b^2 − 4ac))/(2a)',
  '∑_(n = 1)^∞ 1/(n^2)',
  'equals π²/6, and that a/b may be any rational number.',
];

async function texts(epub: Buffer): Promise<string[]> {
  const book = await epubParser.parse(epub);
  return book.chapters.flatMap((c) => c.blocks.map((b) => b.text));
}

describe('MathML alt texts that are placeholders', () => {
  it('"Alternative text not available" on every formula: the MathML is read', async () => {
    const got = await texts(await textbook(() => 'Alternative text not available'));
    for (const text of WRITTEN_OUT) expect(got).toContain(text);
    expect(got.join('\n')).not.toMatch(/Alternative text/);
  });

  it('the same unknown phrase on every formula is found by its repetition over different formulas', async () => {
    const got = await texts(await textbook(() => 'Formula rendered in the print edition'));
    for (const text of WRITTEN_OUT) expect(got).toContain(text);
    expect(got.join('\n')).not.toMatch(/print edition/);
  });

  it('numbered labels, picture names and stock phrases in other languages are placeholders too', async () => {
    const labels = ['Equation (1.1)', 'eq0002.gif', '数学公式', 'Formel 4', 'Math image'];
    const got = await texts(await textbook((_, i) => labels[i]!));
    expect(got).toContain('The polynomial x^2 + 1 has no real root, and a ratio a/b is defined when b is not zero.');
    expect(got).toContain('x = (−b ± √(b^2 − 4ac))/(2a)');
    expect(got).toContain('∑_(n = 1)^∞ 1/(n^2)');
    // 'Math image' is not a known phrase and is given once: it is kept as the author's words.
    expect(got).toContain('equals π²/6, and that Math image may be any rational number.');
  });

  it('real alt texts stay, the same one included when its formulas are the same', async () => {
    const alts: Record<keyof typeof FORMULAS, string> = {
      square: 'x squared plus one',
      fraction: 'a over b',
      roots: 'x equals minus b plus or minus the square root of b squared minus 4 a c, all over 2 a',
      sum: 'the sum over n from 1 to infinity of 1 over n squared',
    };
    const got = await texts(await textbook((formula) => alts[formula]));
    expect(got).toContain(
      'The polynomial x squared plus one has no real root, and a ratio a over b is defined when b is not zero.',
    );
    expect(got).toContain('equals π²/6, and that a over b may be any rational number.');
  });

  it('a formula with a placeholder and no presentation MathML is read from its TeX annotation', async () => {
    const epub = await textbook(() => 'equation');
    const zip = await JSZip.loadAsync(epub);
    const chapter = await zip.file('OEBPS/ch2.xhtml')!.async('string');
    zip.file('OEBPS/ch2.xhtml', chapter.replace(FORMULAS.sum, ''));
    const got = await texts(await zip.generateAsync({ type: 'nodebuffer' }));
    expect(got).toContain('\\sum_{n=1}^\\infty \\frac{1}{n^2}');
  });

  it('knows placeholders in several languages and leaves descriptions alone', () => {
    for (const alt of [
      'Alternative text not available.',
      'No alt text',
      'image',
      'Equation 3.2',
      '(4)',
      'math_17.png',
      'Texte alternatif non disponible',
      'Équation 2',
      'Alternativtext nicht verfügbar',
      'texto alternativo no disponible',
      '数学公式',
      '数式',
      '수식',
      'формула',
    ])
      expect(isPlaceholderAltText(alt), alt).toBe(true);
    for (const alt of ['x', 'E = mc^2', 'a over b', 'x squared plus one', 'f(x) = 2x + 1', 'Na'])
      expect(isPlaceholderAltText(alt), alt).toBe(false);
  });
});
