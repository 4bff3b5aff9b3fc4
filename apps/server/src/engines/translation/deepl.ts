import type { LanguageCode } from '@yidu/shared';
import { EngineError } from './errors.ts';
import { badResponse, billableChars, httpJson, translateNonBlank } from './http.ts';
import { sourceCode } from './source-language.ts';
import type { EngineLimits, TranslateInput, TranslateOutput, TranslationEngine } from './types.ts';

/**
 * Reading-language code → DeepL target / source codes (developers.deepl.com "Languages supported").
 * Targets name a variant where DeepL deprecates the bare code (EN, PT, ZH); sources never take one.
 * Vietnamese is served by DeepL's next-gen models only. Hindi, Bengali, Urdu, Punjabi, Marathi,
 * Javanese, Persian, Tamil and Swahili are at most in DeepL's beta set, so they are left to other engines.
 */
export const DEEPL_LANGUAGES: Partial<Record<LanguageCode, { target: string; source: string }>> = {
  en: { target: 'EN-US', source: 'EN' },
  zh: { target: 'ZH-HANS', source: 'ZH' },
  'zh-TW': { target: 'ZH-HANT', source: 'ZH' },
  es: { target: 'ES', source: 'ES' },
  ar: { target: 'AR', source: 'AR' },
  fr: { target: 'FR', source: 'FR' },
  ru: { target: 'RU', source: 'RU' },
  pt: { target: 'PT-BR', source: 'PT' },
  id: { target: 'ID', source: 'ID' },
  de: { target: 'DE', source: 'DE' },
  jp: { target: 'JA', source: 'JA' },
  vi: { target: 'VI', source: 'VI' },
  ko: { target: 'KO', source: 'KO' },
  tr: { target: 'TR', source: 'TR' },
  it: { target: 'IT', source: 'IT' },
  nl: { target: 'NL', source: 'NL' },
  da: { target: 'DA', source: 'DA' },
};

const DEEPL_SOURCES: Partial<Record<LanguageCode, string>> = Object.fromEntries(
  Object.entries(DEEPL_LANGUAGES).map(([ours, codes]) => [ours, codes.source]),
);

/** Languages outside the 26 that DeepL translates from, by ISO 639-1 code. */
const DEEPL_OTHER_SOURCES: Record<string, string> = {
  bg: 'BG',
  cs: 'CS',
  el: 'EL',
  et: 'ET',
  fi: 'FI',
  hu: 'HU',
  lt: 'LT',
  lv: 'LV',
  no: 'NB',
  pl: 'PL',
  ro: 'RO',
  sk: 'SK',
  sl: 'SL',
  sv: 'SV',
  uk: 'UK',
};

const FROM_DEEPL = new Map<string, LanguageCode>(
  Object.entries(DEEPL_LANGUAGES)
    .filter(([ours]) => ours !== 'zh-TW')
    .map(([ours, codes]) => [codes.source, ours as LanguageCode]),
);

export const DEEPL_FREE_API = 'https://api-free.deepl.com';
export const DEEPL_PRO_API = 'https://api.deepl.com';

export interface DeeplOptions {
  apiKey: string;
  /** Base URL (without /v2); by default the free API for keys ending in ':fx', the pro API otherwise. */
  endpoint?: string;
  timeoutMs?: number;
  limits?: EngineLimits;
  maxBatchItems?: number;
  maxBatchChars?: number;
}

function describeDeeplError(status: number, _body: string, json: unknown) {
  const o = json as { message?: unknown; detail?: unknown } | undefined;
  const message =
    typeof o?.message === 'string'
      ? `${o.message}${typeof o.detail === 'string' ? `: ${o.detail}` : ''}`
      : status === 456
        ? 'Quota exceeded. The character limit has been reached.'
        : undefined;
  // 456 is DeepL's own status for a used-up character quota: no retry will help before the next period.
  if (status === 456) return { message, kind: 'quota' as const };
  if (status === 403) return { message: message ?? 'Authorization failed: check the DeepL key', kind: 'auth' as const };
  return message === undefined ? {} : { message };
}

export class DeeplEngine implements TranslationEngine {
  readonly name = 'deepl' as const;
  /** DeepL's HTML mode leaves `translate="no"` elements as they are. */
  readonly glossaryMarkup = 'noTranslate' as const;
  readonly model = 'deepl-v2';
  readonly maxBatchItems: number;
  readonly maxBatchChars: number;
  readonly limits: EngineLimits;
  private readonly apiKey: string;
  private readonly url: string;
  private readonly timeoutMs: number | undefined;

  constructor(options: DeeplOptions) {
    this.apiKey = options.apiKey;
    const base =
      options.endpoint?.replace(/\/+$/, '') ?? (options.apiKey.endsWith(':fx') ? DEEPL_FREE_API : DEEPL_PRO_API);
    this.url = `${base}/v2/translate`;
    this.timeoutMs = options.timeoutMs;
    this.limits = { timeoutMs: options.timeoutMs, ...options.limits };
    // DeepL takes 50 texts and 128 KiB per request.
    this.maxBatchItems = options.maxBatchItems ?? 50;
    this.maxBatchChars = options.maxBatchChars ?? 10_000;
  }

  supports(code: LanguageCode): boolean {
    return DEEPL_LANGUAGES[code] !== undefined;
  }

  async translate(input: TranslateInput): Promise<TranslateOutput> {
    const target = DEEPL_LANGUAGES[input.to]?.target;
    const source = sourceCode(input.from, DEEPL_SOURCES, DEEPL_OTHER_SOURCES);
    if (!target || !source) {
      throw new EngineError({
        engine: this.name,
        kind: 'unsupportedLanguage',
        message: `DeepL does not support ${target ? input.from : input.to}`,
      });
    }
    let detected: string | undefined;
    const texts = await translateNonBlank(input.texts, async (send) => {
      const json = (await httpJson({
        engine: this.name,
        url: this.url,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${this.apiKey}` },
        body: JSON.stringify({
          text: send,
          target_lang: target,
          ...(source !== 'auto' ? { source_lang: source } : {}),
          tag_handling: 'html',
        }),
        signal: input.signal,
        timeoutMs: this.timeoutMs,
        describeError: describeDeeplError,
      })) as { translations?: { text?: unknown; detected_source_language?: unknown }[] };
      const list = json?.translations;
      if (!Array.isArray(list) || list.length !== send.length) {
        throw badResponse(this.name, `Expected ${send.length} translations, got ${JSON.stringify(json).slice(0, 200)}`);
      }
      const first = list[0]?.detected_source_language;
      if (typeof first === 'string') detected = FROM_DEEPL.get(first.toUpperCase()) ?? first;
      return list.map((t, i) => {
        if (typeof t?.text !== 'string') throw badResponse(this.name, `Translation ${i} is missing`);
        return t.text;
      });
    });
    return {
      texts,
      characters: billableChars(input.texts),
      ...(detected === undefined ? {} : { detectedLanguage: detected }),
    };
  }
}
