import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glossaryKey, protectTerms, termsIn, unprotectTerms } from './glossary-terms.ts';
import { createEngine } from './registry.ts';
import { TranslationChain } from './resilient.ts';
import {
  startFakeDeepl,
  startFakeGoogle,
  startFakeLibreTranslate,
  startFakeMicrosoft,
  type FakeServer,
} from './testing/fake-servers.ts';

const glossary = [
  { source: 'Pip', target: '皮普' },
  { source: 'Miss Havisham', target: '郝薇香小姐' },
  { source: 'Havisham', target: '郝薇香' },
  { source: 'the marshes', target: '沼泽地' },
  { source: '甄士隐', target: 'Zhen Shiyin' },
];

describe('glossary terms in a segment', () => {
  it('matches whole words in spaced scripts, anywhere in CJK, names by case and common terms in any case', () => {
    const found = (text: string) => termsIn(text, glossary).map((t) => t.source);
    expect(found('Pip ran across The Marshes to see Miss Havisham.')).toEqual([
      'Miss Havisham',
      'the marshes',
      'Havisham',
      'Pip',
    ]);
    expect(found('A pipe, a pip of an apple, Pipkin.')).toEqual([]);
    expect(found('此开卷第一回也，甄士隐梦幻识通灵')).toEqual(['甄士隐']);
    // Never inside a tag.
    expect(termsIn('<a href="#Pip">see</a>', glossary)).toEqual([]);
  });

  it('keys the memory by the terms that occur, so other entries leave a paragraph alone', () => {
    const text = 'Pip ran.';
    const before = glossaryKey(termsIn(text, glossary));
    const otherChanged = glossary.map((t) => (t.source === 'Havisham' ? { ...t, target: '赫薇香' } : t));
    expect(glossaryKey(termsIn(text, otherChanged))).toBe(before);
    const ownChanged = glossary.map((t) => (t.source === 'Pip' ? { ...t, target: '匹普' } : t));
    expect(glossaryKey(termsIn(text, ownChanged))).not.toBe(before);
    expect(glossaryKey(termsIn('Nobody here.', glossary))).toBe('');
  });

  it("marks each occurrence in the engine's way, longest term first, outside tags, and takes the markup off again", () => {
    const text = 'Pip met <em>Miss Havisham</em> & Havisham.';
    const terms = termsIn(text, glossary);
    const en = { from: 'en', to: 'zh' };
    expect(protectTerms(text, terms, 'dictionary', en)).toBe(
      '<mstrans:dictionary translation="皮普">Pip</mstrans:dictionary> met <em><mstrans:dictionary translation="郝薇香小姐">Miss Havisham</mstrans:dictionary></em> & <mstrans:dictionary translation="郝薇香">Havisham</mstrans:dictionary>.',
    );
    // Microsoft's dictionary needs English on one side: otherwise the rendering is protected as it is.
    const protectedZhJa = protectTerms('甄士隐', termsIn('甄士隐', glossary), 'dictionary', { from: 'zh', to: 'jp' });
    expect(protectedZhJa).toBe('<span translate="no" class="notranslate">Zhen Shiyin</span>');
    expect(protectTerms(text, terms, 'inline', en)).toBe('皮普 met <em>郝薇香小姐</em> & 郝薇香.');
    expect(protectTerms(text, terms, 'prompt', en)).toBe(text);
    expect(unprotectTerms(`[zh] ${protectTerms(text, terms, 'noTranslate', en)}`)).toBe(
      '[zh] 皮普 met <em>郝薇香小姐</em> & 郝薇香.',
    );
  });
});

describe('glossary terms through each machine engine', () => {
  const fakes: FakeServer[] = [];
  let microsoft: FakeServer;
  let deepl: FakeServer;
  let google: FakeServer;
  let libre: FakeServer;
  beforeAll(async () => {
    fakes.push((microsoft = await startFakeMicrosoft()));
    fakes.push((deepl = await startFakeDeepl()));
    fakes.push((google = await startFakeGoogle()));
    fakes.push((libre = await startFakeLibreTranslate()));
  });
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
  });

  const translate = (engine: Parameters<typeof createEngine>[0], from = 'zh', to: 'en' | 'jp' = 'en') =>
    new TranslationChain([createEngine(engine)], { maxRetries: 0 }).translate({
      texts: ['甄士隐梦幻识通灵'],
      from,
      to,
      glossary,
    });

  it('gives Microsoft a dynamic dictionary entry and reads back the rendering it placed', async () => {
    const out = await translate({ name: 'microsoft', enabled: true, endpoint: microsoft.url });
    expect(microsoft.calls.at(-1)?.body).toContain(
      '<mstrans:dictionary translation=\\"Zhen Shiyin\\">甄士隐</mstrans:dictionary>',
    );
    expect(out.texts).toEqual(['[en] Zhen Shiyin梦幻识通灵']);
  });

  it('protects the rendering from translation on DeepL, Google v2 and LibreTranslate, and inlines it for keyless Google', async () => {
    const deeplOut = await translate({ name: 'deepl', enabled: true, endpoint: deepl.url, apiKey: 'k' });
    expect(JSON.stringify(deepl.calls.at(-1)?.json)).toContain('<span translate=\\"no\\" class=\\"notranslate\\">');
    expect(deeplOut.texts).toEqual(['[EN-US] Zhen Shiyin梦幻识通灵']);
    const v2 = await translate({ name: 'google', enabled: true, endpoint: google.url, apiKey: 'k' });
    expect(v2.texts).toEqual(['[en] Zhen Shiyin梦幻识通灵']);
    const libreOut = await translate({ name: 'libretranslate', enabled: true, endpoint: libre.url });
    expect(JSON.stringify(libre.calls.at(-1)?.json)).toContain('notranslate');
    expect(libreOut.texts).toEqual(['[en] Zhen Shiyin梦幻识通灵']);
    const keyless = await translate({ name: 'google', enabled: true, endpoint: google.url });
    expect(google.calls.at(-1)?.query.q).toBe('Zhen Shiyin梦幻识通灵');
    expect(keyless.texts).toEqual(['[en] Zhen Shiyin梦幻识通灵']);
  });
});
