import type { LanguageCode, LookupEntry } from '@yidu/shared';
import { z } from 'zod';
import type { ChatMessage, LlmClient } from '../../engines/llm/types.ts';
import { badResponse } from '../../engines/translation/http.ts';
import type { MicrosoftDictionary } from '../../engines/translation/microsoft-dictionary.ts';
import { languageName } from '../ai/prompts.ts';

/**
 * Where a word is looked up: the LLM, which reads the sentence and answers the word's meaning there
 * (with pronunciation and a line of usage) as JSON, validated; or a translation engine's dictionary
 * (Microsoft's), which knows the word's meanings but not the sentence. Each source names the cache
 * entries it makes (engine, model) and whether the sentence is part of their key.
 */
export interface LookupSource {
  readonly engine: 'llm' | 'microsoft';
  readonly model: string;
  /** The sentence changes this source's answer (it is part of the cache key). */
  readonly readsSentence: boolean;
  /** The entry, or undefined when the source does not know the word. Engine failures throw EngineError. */
  lookup(word: { text: string; sentence: string; from: string; to: LanguageCode }): Promise<LookupEntry | undefined>;
}

const MAX_FIELD = 600;
// Optional before the transform: a field the model left out is '' (zod requires a transformed key otherwise).
const field = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'string' ? v.trim().slice(0, MAX_FIELD) : typeof v === 'number' ? String(v) : ''));
/** What the model must answer; anything else in its answer is dropped, missing fields become ''. */
const LlmAnswer = z.object({
  lemma: field,
  meaning: field.refine((v) => v !== '', 'a meaning is required'),
  pronunciation: field,
  partOfSpeech: field,
  usage: field,
  usageTranslation: field,
  alternatives: z
    .array(z.unknown())
    .optional()
    .catch([])
    .transform((list = []) =>
      list.flatMap((v) => (typeof v === 'string' && v.trim() ? [v.trim().slice(0, 200)] : [])).slice(0, 4),
    ),
});

export function lookupPrompt(word: { text: string; sentence: string; from: string; to: string }): ChatMessage[] {
  const book = languageName(word.from);
  const reader = languageName(word.to);
  return [
    {
      role: 'system',
      content:
        `You are a learner's dictionary for a reader of a book written in ${book}; the reader reads ${reader}. ` +
        'Answer with one JSON object and nothing else, with these string fields: ' +
        `"lemma" (the dictionary form in ${book} when it differs from the word, else ""), ` +
        `"meaning" (what the word or phrase means in this sentence, in ${reader}, at most 30 words), ` +
        '"pronunciation" (IPA for alphabetic languages, pinyin with tone marks for Chinese, kana and romaji for Japanese, ' +
        'revised romanisation for Korean; "" when unsure), ' +
        `"partOfSpeech" (in ${reader}), ` +
        `"usage" (one short, natural example sentence in ${book} using the word, not the given sentence), ` +
        `"usageTranslation" (that example in ${reader}); ` +
        `and "alternatives" (an array of at most 3 other common meanings of the word, in ${reader}).`,
    },
    {
      role: 'user',
      content: `Word: ${word.text}\nSentence: ${word.sentence || word.text}`,
    },
  ];
}

/** The model's answer as an entry; a malformed answer is a bad response (the next source is tried). */
export function parseLookupAnswer(text: string, word: string): LookupEntry {
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw badResponse('llm', 'The model did not answer the lookup as JSON');
  }
  const parsed = LlmAnswer.safeParse(value);
  if (!parsed.success) throw badResponse('llm', `The model's lookup answer is incomplete: ${parsed.error.message}`);
  const a = parsed.data;
  return {
    text: word,
    lemma: a.lemma.toLowerCase() === word.toLowerCase() ? '' : a.lemma,
    meaning: a.meaning,
    pronunciation: a.pronunciation,
    partOfSpeech: a.partOfSpeech,
    usage: a.usage,
    usageTranslation: a.usageTranslation,
    alternatives: a.alternatives,
    source: 'llm',
  };
}

export class LlmLookup implements LookupSource {
  readonly engine = 'llm' as const;
  readonly readsSentence = true;
  private readonly llm: LlmClient;
  constructor(llm: LlmClient) {
    this.llm = llm;
  }
  get model(): string {
    return this.llm.model;
  }

  async lookup(word: { text: string; sentence: string; from: string; to: LanguageCode }): Promise<LookupEntry> {
    const answer = await this.llm.complete(lookupPrompt(word), {
      responseFormat: 'json',
      maxTokens: 400,
      temperature: 0.2,
    });
    return parseLookupAnswer(answer.text, word.text);
  }
}

/** How many of a dictionary's translations make the meaning; the rest are alternatives. */
const MEANINGS = 2;

export class DictionaryLookup implements LookupSource {
  readonly engine = 'microsoft' as const;
  readonly model = 'microsoft-dictionary-v3';
  readonly readsSentence = false;
  private readonly dictionary: MicrosoftDictionary;
  constructor(dictionary: MicrosoftDictionary) {
    this.dictionary = dictionary;
  }

  async lookup(word: { text: string; from: string; to: LanguageCode }): Promise<LookupEntry | undefined> {
    const answer = await this.dictionary.lookup(word.text, word.from, word.to);
    if (!answer) return undefined;
    const first = answer.translations.slice(0, MEANINGS);
    return {
      text: word.text,
      lemma: answer.lemma,
      meaning: first.map((t) => t.text).join('; '),
      pronunciation: answer.pronunciation,
      partOfSpeech: [...new Set(first.map((t) => t.partOfSpeech).filter(Boolean))].join(', '),
      usage: answer.example?.source ?? '',
      usageTranslation: answer.example?.target ?? '',
      alternatives: answer.translations.slice(MEANINGS, MEANINGS + 4).map((t) => t.text),
      source: 'microsoft',
    };
  }
}
