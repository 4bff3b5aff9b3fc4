import type { LanguageCode } from '@yidu/shared';
import { EngineError } from './errors.ts';
import { badResponse, httpJson, httpRequest, billableChars, translateNonBlank } from './http.ts';
import { sameCodes, sourceCode } from './source-language.ts';
import type { EngineLimits, TranslateInput, TranslateOutput, TranslationEngine } from './types.ts';

/** Reading-language code → Microsoft Translator code. Microsoft has no Javanese. */
export const MICROSOFT_LANGUAGES: Partial<Record<LanguageCode, string>> = {
  en: 'en',
  zh: 'zh-Hans',
  'zh-TW': 'zh-Hant',
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
  ko: 'ko',
  fa: 'fa',
  tr: 'tr',
  ta: 'ta',
  sw: 'sw',
  it: 'it',
  nl: 'nl',
  da: 'da',
};

/** Languages outside the 26 that Microsoft translates from, by ISO 639-1 code. */
const MICROSOFT_OTHER_SOURCES: Record<string, string> = {
  ...sameCodes(
    'af am az ba bg bs ca cs cy el et eu fi fo ga gl gu ha he hr ht hu hy ig is ka kk km kn ku ky lo lt lv mg mi mk ml mn ms mt my ne or ps ro rw si sk sl so sq sv te th tk tt ug uk uz xh yo zu',
  ),
  no: 'nb',
  sr: 'sr-Cyrl',
  tl: 'fil',
};

const FROM_MICROSOFT = new Map<string, LanguageCode>(
  Object.entries(MICROSOFT_LANGUAGES).map(([ours, theirs]) => [theirs.toLowerCase(), ours as LanguageCode]),
);

/** Maps a service's language code back to ours; unknown codes are returned as they are. */
export function detectedFromMicrosoft(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return FROM_MICROSOFT.get(code.toLowerCase()) ?? code;
}

export const MICROSOFT_KEYLESS_AUTH_URL = 'https://edge.microsoft.com/translate/auth';
export const MICROSOFT_KEYLESS_API = 'https://api-edge.cognitive.microsofttranslator.com';
export const MICROSOFT_KEY_API = 'https://api.cognitive.microsofttranslator.com';

export interface MicrosoftOptions {
  /** Azure Translator key: key mode. Without it the engine uses the keyless Edge token, as browsers do. */
  apiKey?: string;
  region?: string;
  /** Base URL of the translate API (and, in keyless mode, of `/translate/auth` unless authUrl is set). */
  endpoint?: string;
  authUrl?: string;
  timeoutMs?: number;
  limits?: EngineLimits;
  maxBatchItems?: number;
  maxBatchChars?: number;
  now?: () => number;
}

/** Edge tokens live 10 minutes; refresh a minute early so a request never carries a token that dies in flight. */
const TOKEN_EARLY_REFRESH_MS = 60_000;
const TOKEN_FALLBACK_TTL_MS = 5 * 60_000;

function jwtExpiryMs(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

interface MicrosoftItem {
  translations?: { text?: unknown; to?: unknown }[];
  detectedLanguage?: { language?: unknown; score?: unknown };
}

/** Microsoft errors are `{error: {code: 401000, message}}`; the 6-digit code refines the status. */
function describeMicrosoftError(status: number, _body: string, json: unknown) {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const message =
    typeof error?.message === 'string'
      ? `${error.message}${error.code !== undefined ? ` (${String(error.code)})` : ''}`
      : undefined;
  const code = typeof error?.code === 'number' ? error.code : undefined;
  // 403001: the free tier's character quota is used up; 400035/400036: a language is not supported.
  if (code === 403001) return { message, kind: 'quota' as const };
  if (code === 400035 || code === 400036) return { message, kind: 'unsupportedLanguage' as const };
  return message === undefined ? {} : { message };
}

export class MicrosoftEngine implements TranslationEngine {
  readonly name = 'microsoft' as const;
  readonly model = 'microsoft-v3';
  /** Microsoft's dynamic dictionary, the service's own way of being given a rendering. */
  readonly glossaryMarkup = 'dictionary' as const;
  readonly maxBatchItems: number;
  readonly maxBatchChars: number;
  readonly limits: EngineLimits;
  readonly keyless: boolean;
  private readonly apiKey: string | undefined;
  private readonly region: string | undefined;
  private readonly apiBase: string;
  private readonly authUrl: string;
  private readonly timeoutMs: number | undefined;
  private readonly now: () => number;
  private token: { value: string; refreshAt: number } | undefined;
  private pendingToken: Promise<string> | undefined;

  constructor(options: MicrosoftOptions = {}) {
    this.apiKey = options.apiKey || undefined;
    this.region = options.region || undefined;
    this.keyless = this.apiKey === undefined;
    const endpoint = options.endpoint?.replace(/\/+$/, '');
    this.apiBase = endpoint ?? (this.keyless ? MICROSOFT_KEYLESS_API : MICROSOFT_KEY_API);
    this.authUrl = options.authUrl ?? (endpoint ? `${endpoint}/translate/auth` : MICROSOFT_KEYLESS_AUTH_URL);
    this.timeoutMs = options.timeoutMs;
    this.limits = { timeoutMs: options.timeoutMs, ...options.limits };
    // The API takes 1,000 items / 50,000 characters; smaller requests come back sooner and fail smaller.
    this.maxBatchItems = options.maxBatchItems ?? 100;
    this.maxBatchChars = options.maxBatchChars ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  supports(code: LanguageCode): boolean {
    return MICROSOFT_LANGUAGES[code] !== undefined;
  }

  /** The keyless bearer token, fetched once and shared by concurrent requests. */
  private async getToken(signal: AbortSignal | undefined): Promise<string> {
    if (this.token && this.now() < this.token.refreshAt) return this.token.value;
    if (!this.pendingToken) {
      this.pendingToken = (async () => {
        const response = await httpRequest({
          engine: this.name,
          url: this.authUrl,
          signal,
          timeoutMs: this.timeoutMs,
        });
        const value = response.text.trim();
        if (!value || value.split('.').length !== 3)
          throw badResponse(this.name, 'The auth endpoint returned no token');
        const expiresAt = jwtExpiryMs(value) ?? this.now() + TOKEN_FALLBACK_TTL_MS;
        this.token = { value, refreshAt: expiresAt - TOKEN_EARLY_REFRESH_MS };
        return value;
      })().finally(() => {
        this.pendingToken = undefined;
      });
    }
    return this.pendingToken;
  }

  private async headers(signal: AbortSignal | undefined): Promise<Record<string, string>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.apiKey) {
      headers['ocp-apim-subscription-key'] = this.apiKey;
      if (this.region) headers['ocp-apim-subscription-region'] = this.region;
    } else {
      headers.authorization = `Bearer ${await this.getToken(signal)}`;
    }
    return headers;
  }

  /**
   * POSTs a JSON body to another call of the same API (the dictionary, transliteration) with this
   * engine's credentials, fetching a new keyless token once when the old one was refused.
   */
  async post(path: string, params: Record<string, string>, body: unknown, signal?: AbortSignal): Promise<unknown> {
    const query = new URLSearchParams({ 'api-version': '3.0', ...params });
    const send = async () =>
      httpJson({
        engine: this.name,
        url: `${this.apiBase}${path}?${query.toString()}`,
        method: 'POST',
        headers: await this.headers(signal),
        body: JSON.stringify(body),
        signal,
        timeoutMs: this.timeoutMs,
        describeError: describeMicrosoftError,
      });
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof EngineError && err.status === 401 && this.keyless)) throw err;
      this.token = undefined;
      return send();
    }
  }

  async translate(input: TranslateInput): Promise<TranslateOutput> {
    const to = MICROSOFT_LANGUAGES[input.to];
    const from = sourceCode(input.from, MICROSOFT_LANGUAGES, MICROSOFT_OTHER_SOURCES);
    if (!to || !from) {
      throw new EngineError({
        engine: this.name,
        kind: 'unsupportedLanguage',
        message: `Microsoft Translator does not support ${to ? input.from : input.to}`,
      });
    }
    const params = new URLSearchParams({ 'api-version': '3.0', to });
    if (from !== 'auto') params.set('from', from);
    params.set('textType', 'html');
    const url = `${this.apiBase}/translate?${params.toString()}`;
    let detected: string | undefined;

    const texts = await translateNonBlank(input.texts, async (send) => {
      const body = JSON.stringify(send.map((text) => ({ Text: text })));
      const post = async () =>
        httpJson({
          engine: this.name,
          url,
          method: 'POST',
          headers: await this.headers(input.signal),
          body,
          signal: input.signal,
          timeoutMs: this.timeoutMs,
          describeError: describeMicrosoftError,
        });
      let json: unknown;
      try {
        json = await post();
      } catch (err) {
        // An expired or revoked token: fetch a new one and try once more; a second 401 is a real auth failure.
        if (!(err instanceof EngineError && err.status === 401 && this.keyless)) throw err;
        this.token = undefined;
        json = await post();
      }
      if (!Array.isArray(json) || json.length !== send.length) {
        throw badResponse(this.name, `Expected ${send.length} results, got ${JSON.stringify(json).slice(0, 200)}`);
      }
      return (json as MicrosoftItem[]).map((item, i) => {
        const text = item?.translations?.[0]?.text;
        if (typeof text !== 'string') throw badResponse(this.name, `Result ${i} has no translation`);
        if (i === 0 && typeof item.detectedLanguage?.language === 'string') {
          detected = detectedFromMicrosoft(item.detectedLanguage.language);
        }
        return text;
      });
    });
    return {
      texts,
      characters: billableChars(input.texts),
      ...(detected === undefined ? {} : { detectedLanguage: detected }),
    };
  }
}
