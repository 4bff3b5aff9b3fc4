import { createHash } from 'node:crypto';
import type { GlossaryTerm } from './types.ts';

/**
 * Where glossary terms occur in a segment, and how each kind of engine is told to keep them. One
 * definition of "occurs" serves the LLM prompt, the machine engines' markup, the translation-memory
 * key and the quote of a retranslation, so all four agree on which paragraphs a term touches.
 */

/** How an engine is told about a term (TranslationEngine.glossaryMarkup). */
export type GlossaryMarkup =
  /** The terms go into the prompt (the LLM engine); the text is sent as it is. */
  | 'prompt'
  /**
   * Microsoft's dynamic dictionary: `<mstrans:dictionary translation="target">source</mstrans:dictionary>`
   * lets the service place the given rendering itself. It needs English on one side and an explicit
   * source language; otherwise the term is protected as `noTranslate`.
   */
  | 'dictionary'
  /** The rendering in an element the service leaves untranslated in HTML mode (`translate="no"`, `class="notranslate"`). */
  | 'noTranslate'
  /** A plain-text service with no protecting markup: the rendering is put in place of the term. */
  | 'inline';

/** Scripts written with spaces between words: a term in them matches whole words only ("Pip" is not in "Pipe"). */
const SPACED = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{N}]/u;
const patterns = new Map<string, RegExp>();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A term written in lower case matches any case (a common noun may open a sentence); one with a
 * capital matches as written or in capitals (names: "Bath" the town, not "bath"; "BATH" in a heading).
 */
function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (!pattern) {
    const before = SPACED.test(source[0] ?? '') ? '(?<![\\p{L}\\p{N}])' : '';
    const after = SPACED.test(source.at(-1) ?? '') ? '(?![\\p{L}\\p{N}])' : '';
    const lower = source === source.toLowerCase();
    const body = lower ? escapeRegExp(source) : `(?:${escapeRegExp(source)}|${escapeRegExp(source.toUpperCase())})`;
    pattern = new RegExp(`${before}${body}${after}`, lower ? 'giu' : 'gu');
    if (patterns.size > 20_000) patterns.clear();
    patterns.set(source, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}

/** The text between the tags of a segment's inline HTML (terms are never matched inside a tag). */
const TAG = /(<[^>]*>)/;
const textParts = (html: string): string[] => html.split(TAG).filter((_, i) => i % 2 === 0);

/** The entries whose source occurs in the text, longest first (a longer term wins where they overlap). */
export function termsIn(text: string, glossary: readonly GlossaryTerm[] | undefined): GlossaryTerm[] {
  if (!glossary?.length) return [];
  const parts = textParts(text);
  const seen = new Set<string>();
  const found: GlossaryTerm[] = [];
  for (const term of glossary) {
    const source = term.source.trim();
    if (!source || seen.has(source)) continue;
    if (parts.some((part) => patternOf(source).test(part))) {
      seen.add(source);
      found.push(term);
    }
  }
  return found.sort((a, b) => b.source.length - a.source.length);
}

/** The entries occurring in any of the texts (a batch), longest first. */
export const termsInAll = (texts: readonly string[], glossary: readonly GlossaryTerm[] | undefined) =>
  termsIn(texts.join('\n'), glossary);

/**
 * The translation-memory key of a text's glossary: '' when no entry occurs in it, else a hash of the
 * entries that do. A change of any other entry leaves the key, and so the memory, of this text alone.
 */
export function glossaryKey(terms: readonly GlossaryTerm[]): string {
  if (terms.length === 0) return '';
  const lines = terms.map((t) => `${t.source}\u0001${t.target}`).sort();
  return `g${createHash('sha256').update(lines.join('\u0002')).digest('base64url').slice(0, 22)}`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The text as an engine of this markup gets it: every occurrence of a term marked so that the engine
 * renders it as the glossary says. `from`/`to` decide whether Microsoft's dictionary applies.
 */
export function protectTerms(
  html: string,
  terms: readonly GlossaryTerm[],
  markup: GlossaryMarkup,
  languages: { from: string; to: string },
): string {
  if (markup === 'prompt' || terms.length === 0) return html;
  const dictionary =
    markup === 'dictionary' && languages.from !== 'auto' && (languages.from === 'en' || languages.to === 'en');
  const wrap = (matched: string, term: GlossaryTerm): string => {
    if (dictionary)
      return `<mstrans:dictionary translation="${escapeHtml(term.target)}">${matched}</mstrans:dictionary>`;
    if (markup === 'inline') return escapeHtml(term.target);
    return `<span translate="no" class="notranslate">${escapeHtml(term.target)}</span>`;
  };
  const sorted = [...terms].sort((a, b) => b.source.length - a.source.length);
  return html
    .split(TAG)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      // Longest first, each occurrence replaced by a placeholder so that a shorter term never
      // matches inside a longer one's markup; the placeholders become markup at the end.
      const marked: string[] = [];
      let out = part;
      sorted.forEach((term) => {
        out = out.replace(patternOf(term.source.trim()), (matched) => {
          marked.push(wrap(matched, term));
          return `\uE000${marked.length - 1}\uE001`;
        });
      });
      return out.replace(/\uE000(\d+)\uE001/g, (_m, n: string) => marked[Number(n)]!);
    })
    .join('');
}

const NO_TRANSLATE_SPAN = /<span\b[^>]*?(?:\bnotranslate\b|\btranslate\s*=\s*["']?no\b)[^>]*>([\s\S]*?)<\/span>/gi;
const DICTIONARY = /<mstrans:dictionary\b[^>]*?\btranslation\s*=\s*"([^"]*)"[^>]*>[\s\S]*?<\/mstrans:dictionary>/gi;

/** A translation without the markup protectTerms added (services return the protected element as sent). */
export function unprotectTerms(html: string): string {
  if (!html.includes('<')) return html;
  return html.replace(NO_TRANSLATE_SPAN, '$1').replace(DICTIONARY, '$1');
}
