import { describe, expect, it } from 'vitest';
import type { PageBlock } from '@yidu/shared/reader';
import { heartbeatDue, IDLE_MS, pickVoice, readingSegments, sentenceAround, utterances } from './wordsToLearn.ts';

const block = (id: string, text: string, extra: Partial<PageBlock> = {}): PageBlock => ({
  id,
  type: 'paragraph',
  text,
  html: null,
  translation: null,
  status: 'done',
  level: null,
  imageUrl: null,
  noteLabel: null,
  noteRefs: null,
  pdfPage: null,
  pdfRegions: null,
  ...extra,
});

describe('the sentence a word stands in', () => {
  it('runs from the previous sentence end to the next, closing quote included', () => {
    const text = 'Call me Ishmael. Some years ago, never mind how long, I went to sea! "Why?" he asked.';
    const at = text.indexOf('never');
    expect(sentenceAround(text, at, at + 5)).toBe('Some years ago, never mind how long, I went to sea!');
    const why = text.indexOf('Why');
    expect(sentenceAround(text, why, why + 3)).toBe('"Why?"');
  });

  it('knows Chinese sentence ends and cuts a very long sentence around the word', () => {
    const text = '列位看官：你道此书从何而来？说起根由虽近荒唐，细按则深有趣味。';
    const at = text.indexOf('荒唐');
    expect(sentenceAround(text, at, at + 2)).toBe('说起根由虽近荒唐，细按则深有趣味。');
    const long = `${'a '.repeat(400)}WORD ${'b '.repeat(400)}`;
    const w = long.indexOf('WORD');
    const sentence = sentenceAround(long, w, w + 4);
    expect(sentence.length).toBeLessThanOrEqual(400);
    expect(sentence).toContain('WORD');
  });
});

describe('what is read aloud', () => {
  const blocks = [
    block('c1-b1', 'Loomings', { type: 'heading', translation: '<em>序</em>' }),
    block('c1-b2', 'Call me Ishmael.', { translation: '叫我以实玛利<sup>1</sup>。' }),
    block('c1-b3', '', { type: 'image' }),
    block('c1-b4', 'It is a way I have.', { status: 'pending' }),
    block('c1-b5', 'Failed here.', { status: 'failed' }),
  ];
  const list = (mode: 'original' | 'translation' | 'both', translated = true) =>
    readingSegments(blocks, mode, translated).map((s) => `${s.blockId}:${s.side}:${s.pending ? '…' : s.text}`);

  it('reads the originals, the translations, or each original then its translation', () => {
    expect(list('original')).toEqual([
      'c1-b1:original:Loomings',
      'c1-b2:original:Call me Ishmael.',
      'c1-b4:original:It is a way I have.',
      'c1-b5:original:Failed here.',
    ]);
    // Markup and note calls are not read; a pending translation is waited for, a failed one skipped.
    expect(list('translation')).toEqual([
      'c1-b1:translation:序',
      'c1-b2:translation:叫我以实玛利。',
      'c1-b4:translation:…',
    ]);
    expect(list('both')).toEqual([
      'c1-b1:original:Loomings',
      'c1-b1:translation:序',
      'c1-b2:original:Call me Ishmael.',
      'c1-b2:translation:叫我以实玛利。',
      'c1-b4:original:It is a way I have.',
      'c1-b4:translation:…',
      'c1-b5:original:Failed here.',
    ]);
    // A book read in its own language has only its text.
    expect(list('translation', false)).toEqual(list('original', false));
  });

  it('cuts long paragraphs into short utterances at sentence ends', () => {
    const text = 'One sentence here. '.repeat(30);
    const parts = utterances(text);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.length <= 220 && p.endsWith('.'))).toBe(true);
    expect(parts.join(' ')).toBe(text.trim());
  });

  it('picks the chosen voice, else one of the language, the default first', () => {
    const voice = (voiceURI: string, lang: string, isDefault = false) =>
      ({ voiceURI, lang, name: voiceURI, default: isDefault, localService: true }) as SpeechSynthesisVoice;
    const voices = [voice('en-gb', 'en-GB'), voice('en-us', 'en-US', true), voice('zh', 'zh-CN'), voice('ja', 'ja-JP')];
    expect(pickVoice(voices, 'en-US')?.voiceURI).toBe('en-us');
    expect(pickVoice(voices, 'en')?.voiceURI).toBe('en-us');
    expect(pickVoice(voices, 'zh-CN')?.voiceURI).toBe('zh');
    expect(pickVoice(voices, 'ko')).toBeUndefined();
    expect(pickVoice(voices, 'en', 'en-gb')?.voiceURI).toBe('en-gb');
  });
});

describe('reading time', () => {
  it('beats only while the reader is visible and in use (or reading aloud)', () => {
    const now = 10 * IDLE_MS;
    expect(heartbeatDue({ visible: true, now, lastActivity: now - 1000, readingAloud: false })).toBe(true);
    expect(heartbeatDue({ visible: true, now, lastActivity: now - IDLE_MS, readingAloud: false })).toBe(false);
    expect(heartbeatDue({ visible: true, now, lastActivity: now - IDLE_MS, readingAloud: true })).toBe(true);
    expect(heartbeatDue({ visible: false, now, lastActivity: now, readingAloud: true })).toBe(false);
  });
});
