import type { LanguageCode } from '@yidu/shared';
import { EngineError } from './errors.ts';
import { badResponse, billableChars, httpJson, mapConcurrent, translateNonBlank } from './http.ts';
import { sameCodes, sourceCode } from './source-language.ts';
import type { GlossaryMarkup } from './glossary-terms.ts';
import type { EngineLimits, TranslateInput, TranslateOutput, TranslationEngine } from './types.ts';

/** Reading-language code → Google code. Google still names Javanese 'jw' (it accepts 'jv' too). */
export const GOOGLE_LANGUAGES: Record<LanguageCode, string> = {
  en: 'en',
  zh: 'zh-CN',
  'zh-TW': 'zh-TW',
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
  pa: 'pa',
  vi: 'vi',
  mr: 'mr',
  jv: 'jw',
  ko: 'ko',
  fa: 'fa',
  tr: 'tr',
  ta: 'ta',
  sw: 'sw',
  it: 'it',
  nl: 'nl',
  da: 'da',
};

/** Languages outside the 26 that Google translates from, by ISO 639-1 code. */
const GOOGLE_OTHER_SOURCES = sameCodes(
  'af am az be bg bs ca co cs cy el eo et eu fi fy ga gd gl gu ha he hr ht hu hy ig is ka kk km kn ku ky la lb lo lt lv mg mi mk ml mn ms mt my ne no ny or ps ro rw sd si sk sl sm sn so sq sr st su sv tg th tk tl tt ug uk uz xh yi yo zu',
);

const FROM_GOOGLE = new Map<string, LanguageCode>([
  ...Object.entries(GOOGLE_LANGUAGES).map(([ours, theirs]) => [theirs.toLowerCase(), ours as LanguageCode] as const),
  ['zh', 'zh'],
  ['jv', 'jv'],
]);

export function detectedFromGoogle(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return FROM_GOOGLE.get(code.toLowerCase()) ?? code;
}

export const GOOGLE_KEYLESS_API = 'https://translate.googleapis.com';
export const GOOGLE_CLOUD_API = 'https://translation.googleapis.com';

export interface GoogleOptions {
  /** Cloud Translation v2 key: key mode. Without it the engine uses the keyless `client=gtx` endpoint. */
  apiKey?: string;
  endpoint?: string;
  timeoutMs?: number;
  limits?: EngineLimits;
  maxBatchItems?: number;
  maxBatchChars?: number;
  /** Keyless mode sends one text per request; this many run at once when one call carries several. */
  concurrency?: number;
}

/** Long texts go in a form body: the GET URL of the keyless endpoint breaks past a few KB. */
const KEYLESS_GET_MAX_QUERY = 4_000;

function describeGoogleError(status: number, _body: string, json: unknown) {
  const error = (json as { error?: { message?: unknown; status?: unknown; errors?: { reason?: unknown }[] } })?.error;
  const message = typeof error?.message === 'string' ? error.message : undefined;
  const reason = typeof error?.errors?.[0]?.reason === 'string' ? error.errors[0].reason : '';
  // v2 answers an invalid key with 400 (reason keyInvalid) and quota problems with 403.
  if (status === 400 && (/keyInvalid/i.test(reason) || /API key/i.test(message ?? ''))) {
    return { message, kind: 'auth' as const };
  }
  if (status === 403 && /rateLimitExceeded|userRateLimitExceeded/i.test(reason)) {
    return { message, kind: 'rateLimited' as const };
  }
  if (status === 403 && /dailyLimitExceeded|quotaExceeded|limitExceeded/i.test(reason)) {
    return { message, kind: 'quota' as const };
  }
  if (status === 400 && /language/i.test(reason + (message ?? ''))) {
    return { message, kind: 'unsupportedLanguage' as const };
  }
  return message === undefined ? {} : { message };
}

export class GoogleEngine implements TranslationEngine {
  readonly name = 'google' as const;
  readonly model: string;
  /** v2 in HTML mode leaves `translate="no"` elements as they are; the keyless endpoint reads plain text. */
  readonly glossaryMarkup: GlossaryMarkup;
  readonly maxBatchItems: number;
  readonly maxBatchChars: number;
  readonly limits: EngineLimits;
  readonly keyless: boolean;
  private readonly apiKey: string | undefined;
  private readonly base: string;
  private readonly timeoutMs: number | undefined;
  private readonly concurrency: number;

  constructor(options: GoogleOptions = {}) {
    this.apiKey = options.apiKey || undefined;
    this.keyless = this.apiKey === undefined;
    this.base = options.endpoint?.replace(/\/+$/, '') ?? (this.keyless ? GOOGLE_KEYLESS_API : GOOGLE_CLOUD_API);
    // The two endpoints run different models: keep their translation-memory entries apart.
    this.model = this.keyless ? 'google-gtx' : 'google-v2';
    this.glossaryMarkup = this.keyless ? 'inline' : 'noTranslate';
    this.timeoutMs = options.timeoutMs;
    this.limits = { timeoutMs: options.timeoutMs, ...options.limits };
    // Keyless: one text per request, so the chain spreads a page over parallel requests within its limits.
    // v2 takes up to 128 segments; Google recommends under 5,000 characters per request.
    this.maxBatchItems = options.maxBatchItems ?? (this.keyless ? 1 : 100);
    this.maxBatchChars = options.maxBatchChars ?? 5_000;
    this.concurrency = options.concurrency ?? options.limits?.concurrency ?? 4;
  }

  supports(code: LanguageCode): boolean {
    return GOOGLE_LANGUAGES[code] !== undefined;
  }

  async translate(input: TranslateInput): Promise<TranslateOutput> {
    const target = GOOGLE_LANGUAGES[input.to];
    const source = sourceCode(input.from, GOOGLE_LANGUAGES, GOOGLE_OTHER_SOURCES);
    if (!target || !source) {
      throw new EngineError({
        engine: this.name,
        kind: 'unsupportedLanguage',
        message: `Google Translate does not support ${target ? input.from : input.to}`,
      });
    }
    let detected: string | undefined;
    const texts = await translateNonBlank(input.texts, async (send) => {
      if (this.keyless) {
        return mapConcurrent(send, this.concurrency, async (text, i) => {
          const result = await this.translateKeyless(text, source, target, input.signal);
          if (i === 0) detected = result.detected;
          return result.text;
        });
      }
      const result = await this.translateV2(send, source, target, input.signal);
      detected = result.detected;
      return result.texts;
    });
    return {
      texts,
      characters: billableChars(input.texts),
      ...(detected === undefined ? {} : { detectedLanguage: detected }),
    };
  }

  private async translateKeyless(text: string, sl: string, tl: string, signal: AbortSignal | undefined) {
    const params = new URLSearchParams({ client: 'gtx', sl, tl, dt: 't' });
    const query = new URLSearchParams({ q: text }).toString();
    const useGet = query.length <= KEYLESS_GET_MAX_QUERY;
    const json = await httpJson({
      engine: this.name,
      url: `${this.base}/translate_a/single?${params.toString()}${useGet ? `&${query}` : ''}`,
      method: useGet ? 'GET' : 'POST',
      ...(useGet
        ? {}
        : { headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' }, body: query }),
      signal,
      timeoutMs: this.timeoutMs,
      describeError: describeGoogleError,
    });
    // [[["译文","source",...], ...sentences], null, "en", ...]: the translation comes sentence by sentence.
    if (!Array.isArray(json) || !Array.isArray(json[0])) {
      throw badResponse(this.name, `Unexpected answer: ${JSON.stringify(json).slice(0, 200)}`);
    }
    const sentences = json[0] as unknown[];
    const translated = sentences.map((s) => (Array.isArray(s) && typeof s[0] === 'string' ? s[0] : '')).join('');
    return { text: translated, detected: detectedFromGoogle(typeof json[2] === 'string' ? json[2] : undefined) };
  }

  private async translateV2(q: string[], source: string, target: string, signal: AbortSignal | undefined) {
    const json = (await httpJson({
      engine: this.name,
      url: `${this.base}/language/translate/v2?key=${encodeURIComponent(this.apiKey ?? '')}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q, target, format: 'html', ...(source === 'auto' ? {} : { source }) }),
      signal,
      timeoutMs: this.timeoutMs,
      describeError: describeGoogleError,
    })) as { data?: { translations?: { translatedText?: unknown; detectedSourceLanguage?: unknown }[] } };
    const list = json?.data?.translations;
    if (!Array.isArray(list) || list.length !== q.length) {
      throw badResponse(this.name, `Expected ${q.length} translations, got ${JSON.stringify(json).slice(0, 200)}`);
    }
    const texts = list.map((t, i) => {
      if (typeof t?.translatedText !== 'string') throw badResponse(this.name, `Translation ${i} is missing`);
      return t.translatedText;
    });
    const first = list[0]?.detectedSourceLanguage;
    return { texts, detected: detectedFromGoogle(typeof first === 'string' ? first : undefined) };
  }
}
