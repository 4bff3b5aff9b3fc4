import type { LanguageCode } from '@yidu/shared';
import { badResponse } from './http.ts';
import { MICROSOFT_LANGUAGES, type MicrosoftEngine } from './microsoft.ts';

/**
 * Microsoft Translator's dictionary: the translations of a word with their part of speech
 * (`/dictionary/lookup`), an example of the first one in use (`/dictionary/examples`), and, for
 * words not written in Latin letters, a romanisation as pronunciation (`/transliterate`: pinyin,
 * romaji…). The dictionary knows pairs with English on one side only, and no context: it gives the
 * word's meanings, not its meaning in the sentence (the LLM does that).
 */

/** Reading languages the dictionary pairs with English (its list has no Traditional Chinese, Punjabi, Marathi, Javanese). */
const DICTIONARY_LANGUAGES = new Set<LanguageCode>([
  'en',
  'zh',
  'hi',
  'es',
  'ar',
  'fr',
  'bn',
  'ru',
  'pt',
  'id',
  'ur',
  'de',
  'jp',
  'vi',
  'ko',
  'fa',
  'tr',
  'ta',
  'sw',
  'it',
  'nl',
  'da',
]);

/** Scripts romanised for pronunciation, by Microsoft language code. */
const SCRIPTS: Record<string, string> = {
  'zh-Hans': 'Hans',
  'zh-Hant': 'Hant',
  ja: 'Jpan',
  ko: 'Kore',
  ru: 'Cyrl',
  ar: 'Arab',
  fa: 'Arab',
  ur: 'Arab',
  hi: 'Deva',
  bn: 'Beng',
  ta: 'Taml',
};

/** Microsoft's part-of-speech tags, as words. */
const PARTS: Record<string, string> = {
  ADJ: 'adjective',
  ADV: 'adverb',
  CONJ: 'conjunction',
  DET: 'determiner',
  MODAL: 'modal verb',
  NOUN: 'noun',
  PREP: 'preposition',
  PRON: 'pronoun',
  VERB: 'verb',
};

export interface DictionaryAnswer {
  lemma: string;
  /** Translations, most likely first. */
  translations: { text: string; partOfSpeech: string }[];
  pronunciation: string;
  example: { source: string; target: string } | undefined;
}

interface LookupItem {
  normalizedSource?: unknown;
  displaySource?: unknown;
  translations?: { normalizedTarget?: unknown; displayTarget?: unknown; posTag?: unknown }[];
}
interface ExampleItem {
  examples?: Record<string, unknown>[];
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

export class MicrosoftDictionary {
  private readonly engine: MicrosoftEngine;
  constructor(engine: MicrosoftEngine) {
    this.engine = engine;
  }

  /** Whether a word of `from` can be looked up with its meanings in `to`. */
  supports(from: string, to: LanguageCode): boolean {
    const source = from as LanguageCode;
    if (from === to || !DICTIONARY_LANGUAGES.has(source) || !DICTIONARY_LANGUAGES.has(to)) return false;
    return from === 'en' || to === 'en';
  }

  /** The word's entry, or undefined when the dictionary does not know it. */
  async lookup(
    text: string,
    from: string,
    to: LanguageCode,
    signal?: AbortSignal,
  ): Promise<DictionaryAnswer | undefined> {
    const source = MICROSOFT_LANGUAGES[from as LanguageCode];
    const target = MICROSOFT_LANGUAGES[to];
    if (!source || !target || !this.supports(from, to)) return undefined;
    const [found, pronunciation] = await Promise.all([
      this.engine.post('/dictionary/lookup', { from: source, to: target }, [{ Text: text }], signal),
      this.romanise(text, source, signal),
    ]);
    if (!Array.isArray(found)) throw badResponse('microsoft', 'The dictionary answered no list');
    const item = (found[0] ?? {}) as LookupItem;
    const translations = (item.translations ?? []).flatMap((t) => {
      const shown = str(t.displayTarget).trim();
      return shown
        ? [{ text: shown, normalized: str(t.normalizedTarget), partOfSpeech: PARTS[str(t.posTag)] ?? '' }]
        : [];
    });
    if (translations.length === 0) return undefined;
    const normalizedSource = str(item.normalizedSource) || text.toLowerCase();
    const lemma = str(item.displaySource);
    const first = translations[0]!;
    const examples = await this.engine.post(
      '/dictionary/examples',
      { from: source, to: target },
      [{ Text: normalizedSource, Translation: first.normalized || first.text }],
      signal,
    );
    const example = Array.isArray(examples) ? (examples[0] as ExampleItem | undefined)?.examples?.[0] : undefined;
    return {
      lemma: lemma && lemma.toLowerCase() !== text.toLowerCase() ? lemma : '',
      translations: translations.map(({ text: shown, partOfSpeech }) => ({ text: shown, partOfSpeech })),
      pronunciation,
      example: example
        ? {
            source: `${str(example.sourcePrefix)}${str(example.sourceTerm)}${str(example.sourceSuffix)}`.trim(),
            target: `${str(example.targetPrefix)}${str(example.targetTerm)}${str(example.targetSuffix)}`.trim(),
          }
        : undefined,
    };
  }

  /** Latin letters for a word written in another script (pinyin, romaji…); '' for Latin-script words. */
  private async romanise(text: string, language: string, signal?: AbortSignal): Promise<string> {
    const script = SCRIPTS[language];
    if (!script) return '';
    const answer = await this.engine.post(
      '/transliterate',
      { language, fromScript: script, toScript: 'Latn' },
      [{ Text: text }],
      signal,
    );
    return Array.isArray(answer) ? str((answer[0] as { text?: unknown } | undefined)?.text).trim() : '';
  }
}
