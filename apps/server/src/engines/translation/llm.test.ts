import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LlmTranslationEngine } from './llm.ts';
import { buildTranslationMessages } from './llm-segments.ts';
import { TranslationChain } from './resilient.ts';
import { startFakeOpenAi } from './testing/fake-servers.ts';
import type { FakeServer } from './testing/fake-servers.ts';
import { SAMPLE_PARAGRAPHS } from './testing/sample-paragraphs.ts';
import { countTokens } from 'gpt-tokenizer';

function chatMessages(fake: FakeServer, index: number): { role: string; content: string }[] {
  return (
    fake.calls.filter((c) => c.path === '/v1/chat/completions')[index]?.json as {
      messages: { role: string; content: string }[];
    }
  ).messages;
}

describe('LlmTranslationEngine', () => {
  let fake: FakeServer;
  beforeEach(async () => {
    fake = await startFakeOpenAi({ key: 'sk' });
  });
  afterEach(async () => {
    await fake.close();
  });

  const engine = (extra: Partial<ConstructorParameters<typeof LlmTranslationEngine>[0]> = {}) =>
    new LlmTranslationEngine({ baseUrl: fake.url, apiKey: 'sk', model: 'deepseek-chat', ...extra });

  it('translates a page of paragraphs in one request and reports usage', async () => {
    const texts = [...SAMPLE_PARAGRAPHS];
    texts[1] = `${texts[1]} <em>Really</em> <a href="#fn1"><sup>1</sup></a>`;
    const e = engine();
    expect(e.model).toBe('deepseek-chat');
    const out = await e.translate({ texts, from: 'en', to: 'zh' });
    expect(out.texts).toEqual(texts.map((t) => `[Simplified Chinese] ${t}`));
    expect(fake.calls).toHaveLength(1);
    expect(out.characters).toBe(texts.reduce((n, t) => n + [...t].length, 0));
    const messages = chatMessages(fake, 0);
    const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
    expect(out.usage).toEqual({
      promptTokens: Math.ceil(promptChars / 4),
      completionTokens: expect.any(Number),
    });
    expect(out.usage?.completionTokens).toBeGreaterThan(0);
    expect((fake.calls[0]?.json as { temperature?: number }).temperature).toBe(0);
  });

  it("never takes a reasoning model's thinking for the translation", async () => {
    // The thoughts even quote segment markers, which would be parsed as translations if kept.
    fake.setBehaviour({ think: 'Segment [[1]] means hello; [[2]] is a name. Draft: [[1]] 你好 [[2]] 名字' });
    const texts = ['Hello there.', 'Ishmael.'];
    const out = await engine().translate({ texts, from: 'en', to: 'zh' });
    expect(out.texts).toEqual(texts.map((t) => `[Simplified Chinese] ${t}`));
  });

  it('keeps prompt overhead well under 1.3× the source on a realistic 20-paragraph page', async () => {
    const glossary = [
      { source: 'Mr. Bennet', target: '班纳特先生' },
      { source: 'Netherfield', target: '尼日斐花园' },
      { source: 'Darcy', target: '达西' }, // not on this page: must stay out of the prompt
    ];
    await engine().translate({ texts: SAMPLE_PARAGRAPHS, from: 'en', to: 'zh', glossary });
    const messages = chatMessages(fake, 0);
    // Tokens as OpenAI's o200k tokenizer counts them, with the chat format's ~3 tokens per message
    // and 3 to prime the reply: what an API bills as prompt tokens.
    const sourceTokens = SAMPLE_PARAGRAPHS.reduce((n, t) => n + countTokens(t), 0);
    const promptTokens = 3 + messages.reduce((n, m) => n + 3 + countTokens(m.content), 0);
    const ratio = promptTokens / sourceTokens;
    console.log(
      `llm prompt overhead: ${SAMPLE_PARAGRAPHS.length} paragraphs, source ${sourceTokens} tokens, prompt ${promptTokens} tokens ` +
        `(system ${countTokens(messages[0]?.content ?? '')}), ratio ${ratio.toFixed(3)}`,
    );
    expect(messages[0]?.content).toContain('Mr. Bennet = 班纳特先生');
    expect(messages[0]?.content).not.toContain('Darcy');
    expect(ratio).toBeLessThan(1.3);
    // The fixed part, measured alone: the share that a bigger page amortises.
    const [system] = buildTranslationMessages(['x'], 'en', 'zh');
    expect(countTokens(system?.content ?? '')).toBeLessThan(40);
  });

  it('retries a batch once when the model drops a marker', async () => {
    fake.setBehaviour({
      reply: ({ callIndex }) => (callIndex === 0 ? `[[1]] only the first\n[[3]] and third` : undefined),
    });
    const out = await engine().translate({ texts: ['a', 'b', 'c'], from: 'en', to: 'de' });
    expect(out.texts).toEqual(['[German] a', '[German] b', '[German] c']);
    expect(fake.calls).toHaveLength(2);
    // Both attempts cost tokens and are reported.
    const first = Math.ceil(chatMessages(fake, 0).reduce((n, m) => n + m.content.length, 0) / 4);
    expect(out.usage?.promptTokens).toBe(first * 2);
  });

  it('splits a batch the model keeps merging until each part parses', async () => {
    // This "model" merges the last two segments of any request with more than two.
    fake.setBehaviour({
      reply: ({ messages }) => {
        const user = messages.at(-1)?.content ?? '';
        const lines = user.split('\n');
        if (lines.length <= 2) return undefined;
        const merged = lines.slice(0, -1).join('\n') + ' ' + lines.at(-1)?.replace(/^\[\[\d+\]\] /, '');
        return merged.replace(/\[\[(\d+)\]\] /g, '[[$1]] [X] ');
      },
    });
    const out = await engine().translate({ texts: ['a', 'b', 'c', 'd'], from: 'en', to: 'fr' });
    expect(out.texts).toEqual(['[French] a', '[French] b', '[French] c', '[French] d']);
    // 4 segments: try + retry, then halves of 2 that parse at once.
    expect(fake.calls).toHaveLength(4);
    expect(chatMessages(fake, 2).at(-1)?.content).toBe('[[1]] a\n[[2]] b');
    expect(chatMessages(fake, 3).at(-1)?.content).toBe('[[1]] c\n[[2]] d');
  });

  it('gives up with badResponse when even a single segment comes back empty', async () => {
    fake.setBehaviour({ reply: () => '   ' });
    await expect(engine().translate({ texts: ['a'], from: 'en', to: 'fr' })).rejects.toMatchObject({
      engine: 'llm',
      kind: 'badResponse',
    });
    expect(fake.calls).toHaveLength(2);
  });

  it('is batched by the chain by maxBatchItems', async () => {
    const chain = new TranslationChain([engine({ maxBatchItems: 8 })]);
    const out = await chain.translate({ texts: SAMPLE_PARAGRAPHS, from: 'auto', to: 'ko' });
    expect(out.engine).toBe('llm');
    expect(out.model).toBe('deepseek-chat');
    expect(out.texts).toEqual(SAMPLE_PARAGRAPHS.map((t) => `[Korean] ${t}`));
    expect(fake.calls.map((c) => c.items)).toEqual([8, 8, 4]);
    expect(out.usage?.promptTokens).toBeGreaterThan(0);
  });
});
