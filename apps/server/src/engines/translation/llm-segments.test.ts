import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer';
import {
  buildTranslationMessages,
  CONTEXT_TOKEN_BUDGET,
  contextLines,
  parseSegments,
  relevantTerms,
} from './llm-segments.ts';

describe('LLM segment format', () => {
  it('numbers segments and names the languages', () => {
    const [system, user] = buildTranslationMessages(['Hello.', 'Bye <em>now</em>.'], 'en', 'zh');
    expect(system?.content).toContain('from English into Simplified Chinese.');
    expect(user?.content).toBe('[[1]] Hello.\n[[2]] Bye <em>now</em>.');
    const [auto] = buildTranslationMessages(['x'], 'auto', 'jp');
    expect(auto?.content).toContain('Translate each segment into Japanese.');
  });

  it('puts only the glossary terms that occur in the batch into the prompt', () => {
    const glossary = [
      { source: 'Frodo', target: '弗罗多' },
      { source: 'Gandalf', target: '甘道夫' },
      { source: 'the Shire', target: '夏尔' },
    ];
    expect(relevantTerms(glossary, ['Frodo left THE SHIRE.'])).toEqual([glossary[0], glossary[2]]);
    const [system] = buildTranslationMessages(['Frodo walked.'], 'en', 'zh', glossary);
    expect(system?.content).toContain('Terms: Frodo = 弗罗多');
    expect(system?.content).not.toContain('Gandalf');
    const [plain] = buildTranslationMessages(['Nobody.'], 'en', 'zh', glossary);
    expect(plain?.content).not.toContain('Terms');
  });

  it('adds the terms, then the chapter so far, within the token budget as a real tokenizer counts it', () => {
    const summary =
      '伊丽莎白在舞会上第一次见到达西先生，觉得他傲慢无礼。宾利先生对简一见倾心。班纳特太太一心想把女儿们嫁出去。'.repeat(
        8,
      );
    const [system] = buildTranslationMessages(['Elizabeth smiled.'], 'en', 'zh', [], summary);
    expect(system?.content).toContain('Story so far (context only, do not translate): 伊丽莎白在舞会上');
    const names = Array.from({ length: 120 }, (_, i) => ({ source: `Name${i}`, target: `名字${i}号人物` }));
    const texts = [names.map((n) => n.source).join(' ')];
    for (const [glossary, story] of [
      [names, summary],
      [names.slice(0, 3), summary],
      [[], summary],
      [names, undefined],
    ] as const) {
      const lines = contextLines(texts, glossary, story);
      const tokens = countTokens(lines.join('\n'));
      expect(tokens).toBeLessThanOrEqual(CONTEXT_TOKEN_BUDGET);
      if (glossary.length) expect(lines[0]).toMatch(/^Terms: Name0 = 名字0号人物; Name1 = /);
      if (story && glossary.length < 10) expect(lines.at(-1)).toMatch(/^Story so far/);
    }
    // Many terms leave no room for the summary; a few leave most of it.
    expect(contextLines(texts, names, summary).some((l) => l.startsWith('Story'))).toBe(false);
  });

  it('parses well-formed answers, tolerating chatter, fences, spacing and multi-line segments', () => {
    expect(parseSegments('[[1]] 你好。\n[[2]] 再见。', 2)).toEqual(['你好。', '再见。']);
    expect(parseSegments('Here you go:\n```\n[[1]] a\n[[ 2 ]]b\nstill b\n```', 2)).toEqual(['a', 'b\nstill b']);
    expect(parseSegments('[[2]] b [[1]] a', 2)).toEqual(['a', 'b']);
    expect(parseSegments('just the translation', 1)).toEqual(['just the translation']);
    expect(parseSegments('[[1]] <em>x</em> [1]', 1)).toEqual(['<em>x</em> [1]']);
  });

  it('rejects answers with dropped, merged, repeated or stray markers', () => {
    expect(parseSegments('[[1]] a\n[[3]] c', 3)).toBeUndefined();
    expect(parseSegments('[[1]] a and b', 2)).toBeUndefined();
    expect(parseSegments('[[1]] a\n[[1]] b', 2)).toBeUndefined();
    expect(parseSegments('[[1]] a\n[[2]] b\n[[3]] c', 2)).toBeUndefined();
    expect(parseSegments('no markers at all', 2)).toBeUndefined();
    expect(parseSegments('', 1)).toBeUndefined();
  });

  it('names a source language outside the 26, and leaves an unknown one to the model', () => {
    expect(buildTranslationMessages(['x'], 'he', 'zh')[0]?.content).toContain('from Hebrew into Simplified Chinese.');
    expect(buildTranslationMessages(['x'], 'la', 'en')[0]?.content).toContain('from Latin into English.');
    expect(buildTranslationMessages(['x'], 'qqq', 'en')[0]?.content).toContain('Translate each segment into English.');
  });
});
