import type { LanguageCode } from '@yidu/shared';
import { EngineError } from './errors.ts';
import { badResponse, billableChars, httpJson, translateNonBlank } from './http.ts';
import { sourceCode } from './source-language.ts';
import type { EngineLimits, TranslateInput, TranslateOutput, TranslationEngine } from './types.ts';

/**
 * Reading-language code → LibreTranslate (Argos) code. Traditional Chinese is 'zt' there. A server
 * has only the language packs its admin installed; these are the ones Argos publishes.
 */
export const LIBRETRANSLATE_LANGUAGES: Partial<Record<LanguageCode, string>> = {
  en: 'en',
  zh: 'zh',
  'zh-TW': 'zt',
  hi: 'hi',
  es: 'es',
  ar: 'ar',
  fr: 'fr',
  bn: 'bn',
  ru: 'ru',
  pt: 'pt',
  id: 'id',
  ur: 'ur',
  de: 'de',
  jp: 'ja',
  vi: 'vi',
  ko: 'ko',
  fa: 'fa',
  tr: 'tr',
  it: 'it',
  nl: 'nl',
  da: 'da',
};

const FROM_LIBRE = new Map<string, LanguageCode>(
  Object.entries(LIBRETRANSLATE_LANGUAGES).map(([ours, theirs]) => [theirs, ours as LanguageCode]),
);

export const LIBRETRANSLATE_DEFAULT_URL = 'https://libretranslate.com';

export interface LibreTranslateOptions {
  endpoint?: string;
  apiKey?: string;
  timeoutMs?: number;
  limits?: EngineLimits;
  maxBatchItems?: number;
  maxBatchChars?: number;
}

function describeLibreError(status: number, _body: string, json: unknown) {
  const error = (json as { error?: unknown } | undefined)?.error;
  const message = typeof error === 'string' ? error : undefined;
  // LibreTranslate answers 400 "... is not supported" for a missing language pack.
  if (status === 400 && message && /not supported/i.test(message))
    return { message, kind: 'unsupportedLanguage' as const };
  return message === undefined ? {} : { message };
}

export class LibreTranslateEngine implements TranslationEngine {
  readonly name = 'libretranslate' as const;
  /** LibreTranslate's HTML mode (translate-html) leaves `translate="no"` elements as they are. */
  readonly glossaryMarkup = 'noTranslate' as const;
  readonly model = 'libretranslate';
  readonly maxBatchItems: number;
  readonly maxBatchChars: number;
  readonly limits: EngineLimits;
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number | undefined;

  constructor(options: LibreTranslateOptions = {}) {
    this.url = `${options.endpoint?.replace(/\/+$/, '') ?? LIBRETRANSLATE_DEFAULT_URL}/translate`;
    this.apiKey = options.apiKey || undefined;
    this.timeoutMs = options.timeoutMs;
    this.limits = { timeoutMs: options.timeoutMs, ...options.limits };
    // Self-hosted servers run on modest CPUs and default to a 5,000-character limit per request (--char-limit).
    this.maxBatchItems = options.maxBatchItems ?? 25;
    this.maxBatchChars = options.maxBatchChars ?? 5_000;
  }

  supports(code: LanguageCode): boolean {
    return LIBRETRANSLATE_LANGUAGES[code] !== undefined;
  }

  async translate(input: TranslateInput): Promise<TranslateOutput> {
    const target = LIBRETRANSLATE_LANGUAGES[input.to];
    // Which other languages an instance translates from depends on its models: it detects those itself.
    const source = sourceCode(input.from, LIBRETRANSLATE_LANGUAGES);
    if (!target || !source) {
      throw new EngineError({
        engine: this.name,
        kind: 'unsupportedLanguage',
        message: `LibreTranslate does not support ${target ? input.from : input.to}`,
      });
    }
    let detected: string | undefined;
    const texts = await translateNonBlank(input.texts, async (send) => {
      const json = (await httpJson({
        engine: this.name,
        url: this.url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          q: send,
          source,
          target,
          format: 'html',
          ...(this.apiKey ? { api_key: this.apiKey } : {}),
        }),
        signal: input.signal,
        timeoutMs: this.timeoutMs,
        describeError: describeLibreError,
      })) as { translatedText?: unknown; detectedLanguage?: unknown };
      const list = json?.translatedText;
      if (!Array.isArray(list) || list.length !== send.length || list.some((t) => typeof t !== 'string')) {
        throw badResponse(this.name, `Expected ${send.length} translations, got ${JSON.stringify(json).slice(0, 200)}`);
      }
      const d = Array.isArray(json.detectedLanguage) ? json.detectedLanguage[0] : json.detectedLanguage;
      const language = (d as { language?: unknown } | undefined)?.language;
      if (typeof language === 'string') detected = FROM_LIBRE.get(language) ?? language;
      return list as string[];
    });
    return {
      texts,
      characters: billableChars(input.texts),
      ...(detected === undefined ? {} : { detectedLanguage: detected }),
    };
  }
}
