import { englishLanguageName, READING_LANGUAGES } from '@yidu/shared';
import type { LanguageCode } from '@yidu/shared';
import type { ChatMessage } from '../llm/types.ts';
import { isReadingLanguage } from './source-language.ts';
import { termsInAll } from './glossary-terms.ts';
import type { GlossaryTerm } from './types.ts';

/**
 * The wire format of LLM batch translation: each segment starts a line with `[[n]]`. Double brackets
 * because single ones ([1]) are common in book text as footnote calls; the marker costs about 3 tokens.
 */
export function marker(n: number): string {
  return `[[${n}]]`;
}

/** English names models know best; zh gets "Simplified" because "Chinese" alone invites mixed scripts. */
export function languageName(code: LanguageCode): string {
  if (code === 'zh') return 'Simplified Chinese';
  return READING_LANGUAGES.find((l) => l.code === code)?.name ?? code;
}

/** Glossary terms that occur in this batch, in the glossary's order: the rest would only cost prompt tokens. */
export function relevantTerms(glossary: readonly GlossaryTerm[] | undefined, texts: readonly string[]): GlossaryTerm[] {
  const found = new Set(termsInAll(texts, glossary));
  return (glossary ?? []).filter((t) => found.has(t));
}

/**
 * Tokens the context of one request may add to its prompt (the terms and the chapter summary): on a
 * batch of 6,000 characters that is about a tenth more. Terms come first: a name rendered two ways
 * is a visible fault, a shorter summary is not.
 */
export const CONTEXT_TOKEN_BUDGET = 320;

/**
 * A cautious count of tokens without a tokenizer: CJK characters are about one token each in current
 * tokenizers (o200k), other text about four characters a token; this takes 3.2 to stay above both.
 */
export function estimateTokens(text: string): number {
  const wide = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / 3.2);
}

/** The longest start of the text within the tokens, cut after a sentence when one ends in its second half. */
function clip(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (estimateTokens(text.slice(0, mid)) + 1 <= tokens) low = mid;
    else high = mid - 1;
  }
  const cut = text.slice(0, low);
  const end = Math.max(...['. ', '。', '！', '？', '! ', '? '].map((p) => cut.lastIndexOf(p)));
  return end > low / 2 ? cut.slice(0, end + 1).trim() : `${cut.trim()}…`;
}

/** The context lines of a request: the terms that occur, then what the chapter told so far, within the budget. */
export function contextLines(
  texts: readonly string[],
  glossary: readonly GlossaryTerm[] | undefined,
  summary: string | undefined,
  budget = CONTEXT_TOKEN_BUDGET,
): string[] {
  const lines: string[] = [];
  let left = budget;
  const terms: string[] = [];
  for (const t of relevantTerms(glossary, texts)) {
    const pair = `${t.source} = ${t.target}`;
    const cost = estimateTokens(pair) + 1;
    if (cost > left - 3) break;
    terms.push(pair);
    left -= cost;
  }
  if (terms.length) {
    lines.push(`Terms: ${terms.join('; ')}`);
    left -= 3;
  }
  const story = summary?.replace(/\s+/g, ' ').trim();
  const label = 'Story so far (context only, do not translate): ';
  if (story && left - estimateTokens(label) > 12) lines.push(label + clip(story, left - estimateTokens(label)));
  return lines;
}

/** Said only when a batch holds lines of verse (lines.ts): it costs about 25 tokens. */
export const LINES_INSTRUCTION =
  'Some segments are consecutive lines of a poem or song: translate each as one line of its own, never joining or splitting lines.';

/**
 * A short system prompt (about 170 characters, 33 tokens), then the terms used in the batch and the
 * chapter so far within CONTEXT_TOKEN_BUDGET: on a page of ordinary paragraphs the whole prompt stays
 * close to the source length (see llm.test.ts for the measure).
 */
export function buildTranslationMessages(
  texts: readonly string[],
  from: string,
  to: LanguageCode,
  glossary?: readonly GlossaryTerm[],
  summary?: string,
  verse?: boolean,
): ChatMessage[] {
  // A language outside the 26 is named as Intl names it ('he' → Hebrew); one it does not know is left to the model.
  const sourceName =
    from === 'auto' ? undefined : isReadingLanguage(from) ? languageName(from) : englishLanguageName(from);
  const source = sourceName ? ` from ${sourceName}` : '';
  const lines = [
    `Translate each segment${source} into ${languageName(to)}. Reply with only the translations, each after its [[n]] marker, in order; keep HTML tags and entities.`,
    ...(verse ? [LINES_INSTRUCTION] : []),
    ...contextLines(texts, glossary, summary),
  ];
  return [
    { role: 'system', content: lines.join('\n') },
    { role: 'user', content: texts.map((t, i) => `${marker(i + 1)} ${t}`).join('\n') },
  ];
}

const MARKER_RE = /\[\[\s*(\d{1,4})\s*\]\]/g;

/**
 * Splits a model's answer into exactly `count` segments, or returns undefined when markers are
 * missing, repeated or out of range (the caller then retries or splits the batch). Chatter before
 * the first marker and code fences are ignored; with count 1 a marker-less answer is the translation.
 */
export function parseSegments(answer: string, count: number): string[] | undefined {
  const text = answer
    .replace(/^\s*```[a-z]*\s*\n/i, '')
    .replace(/\n\s*```\s*$/, '')
    .trim();
  const found = [...text.matchAll(MARKER_RE)];
  if (found.length === 0) return count === 1 && text !== '' ? [text] : undefined;
  if (found.length !== count) return undefined;
  const out = new Array<string | undefined>(count).fill(undefined);
  for (let i = 0; i < found.length; i++) {
    const match = found[i] as RegExpMatchArray;
    const n = Number(match[1]);
    if (n < 1 || n > count || out[n - 1] !== undefined) return undefined;
    const start = (match.index ?? 0) + match[0].length;
    const end = i + 1 < found.length ? ((found[i + 1] as RegExpMatchArray).index ?? text.length) : text.length;
    out[n - 1] = text.slice(start, end).trim();
  }
  return out as string[];
}
