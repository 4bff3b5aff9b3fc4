import { describe, expect, it } from 'vitest';
import { stripThinking, ThinkStripper } from './reasoning.ts';

/** Feeds the text in pieces of `size` characters and joins what comes out. */
function streamed(text: string, size: number): string {
  const stripper = new ThinkStripper();
  let out = '';
  for (let i = 0; i < text.length; i += size) out += stripper.push(text.slice(i, i + size));
  return out + stripper.flush();
}

describe('reasoning never shown as an answer', () => {
  const answer = 'Der Wal ist groß. <em>Ja</em> — 3 < 4.';
  const cases: [string, string][] = [
    ['<think>Let me think: whale means Wal.</think>\n\n' + answer, answer],
    [answer, answer],
    ['<think>a</think>' + answer + '<think>more</think>', answer],
    ['  <think>\nstep 1\nstep 2\n</think>\n\nOK', 'OK'],
    ['<think>the answer never came', ''],
    ['a <thin b', 'a <thin b'],
  ];

  it('removes <think> blocks from whole answers', () => {
    for (const [input, expected] of cases) expect(stripThinking(input)).toBe(expected);
  });

  it('removes them from streams however the tags are split across chunks', () => {
    for (const [input, expected] of cases) {
      for (const size of [1, 2, 3, 5, 7, 100]) expect(streamed(input, size), `${size}: ${input}`).toBe(expected);
    }
  });

  it('drops reasoning before a lone </think> (the block was opened by the prompt template)', () => {
    expect(stripThinking('first I consider the word…</think>\n\nThe answer.')).toBe('The answer.');
  });

  it('holds back only what may be a tag, and gives the rest at once', () => {
    const stripper = new ThinkStripper();
    expect(stripper.push('Hello <')).toBe('Hello ');
    expect(stripper.push('b>world')).toBe('<b>world');
    expect(stripper.push('<thi')).toBe('');
    expect(stripper.push('nk>secret</thi')).toBe('');
    expect(stripper.push('nk> and on')).toBe('and on');
    expect(stripper.flush()).toBe('');
  });
});
