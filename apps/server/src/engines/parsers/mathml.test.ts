import { describe, expect, it } from 'vitest';
import { byLocalName, findFirst, parseMarkup } from './markup.ts';
import { mathText } from './mathml.ts';

const read = (source: string) => mathText(findFirst(parseMarkup(source), byLocalName('math'))!);

describe('MathML as text', () => {
  it('writes out roots, fences, matrices and scripts', () => {
    expect(read('<math><mroot><mi>x</mi><mn>3</mn></mroot></math>')).toBe('3√(x)');
    expect(read('<math><mfenced><mi>a</mi><mi>b</mi></mfenced></math>')).toBe('(a, b)');
    expect(
      read(
        '<math><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable></math>',
      ),
    ).toBe('[1, 0; 0, 1]');
    expect(read('<math><msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup></math>')).toBe('x_i^2');
    expect(read('<math><mi>f</mi><mo>&#x2061;</mo><mo>(</mo><mi>x</mi><mo>)</mo></math>')).toBe('f(x)');
  });

  it('reads the presentation form only: annotations, phantoms and accents add nothing', () => {
    expect(
      read(
        '<math><semantics><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><annotation encoding="application/x-tex">a+b</annotation></semantics></math>',
      ),
    ).toBe('a + b');
    expect(read('<math><mi>a</mi><mphantom><mi>zzz</mi></mphantom></math>')).toBe('a');
    expect(read('<math><mover accent="true"><mi>x</mi><mo>&#xAF;</mo></mover></math>')).toBe('x');
  });
});
