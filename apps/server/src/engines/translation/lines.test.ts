import { describe, expect, it } from 'vitest';
import { buildTranslationMessages, LINES_INSTRUCTION } from './llm-segments.ts';
import { asOneLine, hasLines, joinLines, splitMarkupLines } from './lines.ts';

describe('lines of a block as segments', () => {
  it('splits plain text and markup at its line breaks, each line well-formed', () => {
    expect(splitMarkupLines('Little Harry Hughes and his schoolfellows all\nWent out for to play ball.')).toEqual([
      'Little Harry Hughes and his schoolfellows all',
      'Went out for to play ball.',
    ]);
    // An element open across a break is closed before it and opened again after it, attributes kept.
    expect(
      splitMarkupLines('<em>Arma <strong>virumque\ncano</strong>, Troiae</em>\nqui <a href="#c2-b1">1</a>'),
    ).toEqual([
      '<em>Arma <strong>virumque</strong></em>',
      '<em><strong>cano</strong>, Troiae</em>',
      'qui <a href="#c2-b1">1</a>',
    ]);
    expect(splitMarkupLines('one<br/>two<br>three')).toEqual(['one', 'two', 'three']);
    expect(splitMarkupLines('a\n\nb')).toEqual(['a', '', 'b']);
  });

  it('joins translated lines back, each kept to one line', () => {
    expect(joinLines(['一行', '第二\n行', '', '三<br>行'])).toBe('一行\n第二 行\n\n三 行');
    expect(asOneLine('  x \n y ')).toBe('x y');
    expect(hasLines('a\nb')).toBe(true);
    expect(hasLines('a<br/>b')).toBe(true);
    expect(hasLines('a b')).toBe(false);
  });

  it('asks the model to keep lines only when a batch holds lines', () => {
    const [plain] = buildTranslationMessages(['Went out for to play ball.'], 'en', 'zh');
    expect(plain?.content).not.toContain(LINES_INSTRUCTION);
    const [verse, user] = buildTranslationMessages(['Then out came', 'And she all dressed'], 'en', 'zh', [], '', true);
    expect(verse?.content).toContain(LINES_INSTRUCTION);
    expect(user?.content).toBe('[[1]] Then out came\n[[2]] And she all dressed');
  });
});
