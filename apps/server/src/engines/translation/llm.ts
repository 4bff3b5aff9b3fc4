import type { LanguageCode } from '@yidu/shared';
import { createLlmClient } from '../llm/openai-compatible.ts';
import type { LlmClient } from '../llm/types.ts';
import { EngineError } from './errors.ts';
import { billableChars, translateNonBlank } from './http.ts';
import { buildTranslationMessages, parseSegments } from './llm-segments.ts';
import type { EngineLimits, TokenUsage, TranslateInput, TranslateOutput, TranslationEngine } from './types.ts';

export interface LlmEngineOptions {
  /** A ready client; otherwise one is made from baseUrl/apiKey/model. */
  client?: LlmClient;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
  limits?: EngineLimits;
  maxBatchItems?: number;
  maxBatchChars?: number;
  temperature?: number;
}

/**
 * Translation through any OpenAI-compatible chat model: a page of paragraphs per request as
 * numbered segments, so the fixed prompt is paid once per page rather than once per paragraph.
 */
export class LlmTranslationEngine implements TranslationEngine {
  readonly name = 'llm' as const;
  /** The terms occurring in a batch are listed in the prompt. */
  readonly glossaryMarkup = 'prompt' as const;
  readonly model: string;
  readonly maxBatchItems: number;
  readonly maxBatchChars: number;
  readonly limits: EngineLimits;
  private readonly client: LlmClient;
  private readonly temperature: number;

  constructor(options: LlmEngineOptions) {
    if (!options.client && (!options.baseUrl || !options.model)) {
      throw new Error('The llm translation engine needs a base URL and a model (LLM_BASE_URL, LLM_MODEL)');
    }
    this.client =
      options.client ??
      createLlmClient({
        baseUrl: options.baseUrl as string,
        model: options.model as string,
        ...(options.apiKey ? { apiKey: options.apiKey } : {}),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      });
    this.model = this.client.model;
    this.limits = { timeoutMs: options.timeoutMs ?? 120_000, concurrency: 2, ...options.limits };
    // Big enough to amortise the prompt, small enough that the answer fits common output limits (4-8k tokens).
    this.maxBatchItems = options.maxBatchItems ?? 40;
    this.maxBatchChars = options.maxBatchChars ?? 6_000;
    this.temperature = options.temperature ?? 0;
  }

  supports(_code: LanguageCode): boolean {
    return true;
  }

  async translate(input: TranslateInput): Promise<TranslateOutput> {
    const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
    let reported = false;

    const ask = async (texts: string[]): Promise<string[] | undefined> => {
      const result = await this.client.complete(
        buildTranslationMessages(texts, input.from, input.to, input.glossary, input.summary, input.lines),
        {
          temperature: this.temperature,
          ...(input.signal ? { signal: input.signal } : {}),
        },
      );
      // Every attempt costs tokens, including answers we could not use.
      if (result.usage) {
        reported = true;
        usage.promptTokens += result.usage.promptTokens;
        usage.completionTokens += result.usage.completionTokens;
      }
      return parseSegments(result.text, texts.length);
    };

    // Models sometimes drop or merge a marker: ask again once, then halve the batch until each part parses.
    const run = async (texts: string[]): Promise<string[]> => {
      const first = (await ask(texts)) ?? (await ask(texts));
      if (first) return first;
      if (texts.length === 1) {
        throw new EngineError({
          engine: this.name,
          kind: 'badResponse',
          message: 'The model gave no usable translation for a segment',
        });
      }
      const half = Math.ceil(texts.length / 2);
      return [...(await run(texts.slice(0, half))), ...(await run(texts.slice(half)))];
    };

    const texts = await translateNonBlank(input.texts, run);
    return { texts, characters: billableChars(input.texts), ...(reported ? { usage } : {}) };
  }
}
