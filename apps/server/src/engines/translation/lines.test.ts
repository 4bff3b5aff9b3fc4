import { describe, expect, it } from 'vitest';
import { buildTranslationMessages, LINES_INSTRUCTION } from './llm-segments.ts';
import { asOneLine, hasLines, joinLines, splitMarkupLines, translateByLines } from './lines.ts';
import type { TranslateInput } from './types.ts';

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

  it('sends the lines of each text as segments of one call, and answers one text per text', async () => {
    const calls: TranslateInput[] = [];
    const chain = {
      translate: async (input: TranslateInput) => {
        calls.push(input);
        return {
          texts: input.texts.map((t) => `T:${t}`),
          characters: 0,
          engine: 'microsoft' as const,
          model: 'v3',
          sources: input.texts.map((_t, i) => ({
            engine: i === 1 ? ('deepl' as const) : ('microsoft' as const),
            model: 'v3',
          })),
        };
      },
    };
    const out = await translateByLines(chain, { texts: ['Prose.', 'one\n\n<em>two</em>'], from: 'en', to: 'zh' });
    expect(calls.map((c) => [c.texts, c.lines])).toEqual([[['Prose.', 'one', '<em>two</em>'], true]]);
    expect(out.texts).toEqual(['T:Prose.', 'T:one\n\nT:<em>two</em>']);
    expect(out.sources.map((s) => s.engine)).toEqual(['microsoft', 'deepl']);
    // Without lines the call is the chain's own.
    await translateByLines(chain, { texts: ['Prose.'], from: 'en', to: 'zh' });
    expect(calls[1]).toEqual({ texts: ['Prose.'], from: 'en', to: 'zh' });
  });
});
