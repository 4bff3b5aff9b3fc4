import { englishLanguageName, READING_LANGUAGES } from '@yidu/shared';
import type { LanguageCode } from '@yidu/shared';
import type { ChatMessage } from '../llm/types.ts';
import { isReadingLanguage } from './source-language.ts';
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

/** Glossary terms that occur in this batch: the rest would only cost prompt tokens. */
export function relevantTerms(glossary: readonly GlossaryTerm[] | undefined, texts: readonly string[]): GlossaryTerm[] {
  if (!glossary?.length) return [];
  const haystack = texts.join('\n').toLowerCase();
  const seen = new Set<string>();
  return glossary.filter((t) => {
    const key = t.source.toLowerCase();
    if (!key.trim() || seen.has(key) || !haystack.includes(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A short system prompt (about 170 characters, 33 tokens, plus the used glossary terms): on a page of ordinary
 * paragraphs the whole prompt stays close to the source length (see llm.test.ts for the measure).
 */
export function buildTranslationMessages(
  texts: readonly string[],
  from: string,
  to: LanguageCode,
  glossary?: readonly GlossaryTerm[],
): ChatMessage[] {
  // A language outside the 26 is named as Intl names it ('he' → Hebrew); one it does not know is left to the model.
  const sourceName =
    from === 'auto' ? undefined : isReadingLanguage(from) ? languageName(from) : englishLanguageName(from);
  const source = sourceName ? ` from ${sourceName}` : '';
  const terms = relevantTerms(glossary, texts);
  const lines = [
    `Translate each segment${source} into ${languageName(to)}. Reply with only the translations, each after its [[n]] marker, in order; keep HTML tags and entities.`,
  ];
  if (terms.length) lines.push(`Terms: ${terms.map((t) => `${t.source} = ${t.target}`).join('; ')}`);
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
