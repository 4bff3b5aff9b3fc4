import type { LanguageCode } from '@yidu/shared';
import type { GlossaryMarkup } from './glossary-terms.ts';

export type EngineName = 'microsoft' | 'google' | 'deepl' | 'llm' | 'libretranslate';

export const ENGINE_NAMES: readonly EngineName[] = ['microsoft', 'google', 'deepl', 'llm', 'libretranslate'];

export interface GlossaryTerm {
  source: string;
  target: string;
}

export interface TranslateInput {
  /** Segments to translate, in order. A segment may hold simple inline HTML (<em>, <strong>, <sup>, <sub>, <a href="#...">): keep the tags. */
  texts: string[];
  /**
   * 'auto', a reading-language code, or another ISO 639-1 code a book was detected in ('he'): an engine
   * that cannot translate from that one lets its service detect the source (source-language.ts).
   */
  from: string;
  to: LanguageCode;
  /**
   * Names and terms to keep consistent. The llm engine puts those occurring in a batch into its
   * prompt; for the others TranslationChain marks each occurrence as the engine's glossaryMarkup says.
   */
  glossary?: GlossaryTerm[];
  /** What the chapter told so far, for the llm engine's prompt (others ignore it). */
  summary?: string;
  /**
   * Some segments are consecutive lines of one block (verse, lines.ts): the llm engine's prompt asks
   * it to keep each a line of its own. Other engines answer one text per segment anyway.
   */
  lines?: boolean;
  signal?: AbortSignal;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface TranslateOutput {
  /** Same length and order as input.texts. */
  texts: string[];
  /** Billable characters the engine counted (source chars, Unicode code points). */
  characters: number;
  /** LLM only: tokens reported by the API usage field (prompt/completion). */
  usage?: TokenUsage;
  /** The source language the service detected, as a reading-language code when it maps to one. */
  detectedLanguage?: string;
}

/**
 * Per-engine operating limits that TranslationChain applies. They live on the engine (not on the
 * chain) so that every chain built over the same engine instance shares one budget.
 */
export interface EngineLimits {
  /** Requests in flight at once. */
  concurrency?: number;
  /** Requests started per rolling minute. */
  requestsPerMinute?: number;
  /** Time-out of one request. */
  timeoutMs?: number;
}

export interface TranslationEngine {
  readonly name: EngineName;
  /** Distinguishes translation-memory entries: e.g. 'microsoft-v3', or the LLM model name. */
  readonly model: string;
  /** Batching limits of one request. */
  readonly maxBatchItems: number;
  readonly maxBatchChars: number;
  /** Optional operating limits (see EngineLimits); createEngine fills them from EngineSettings. */
  readonly limits?: EngineLimits;
  /** How the engine is told to keep glossary terms (glossary-terms.ts); none: it is not told. */
  readonly glossaryMarkup?: GlossaryMarkup;
  supports(code: LanguageCode): boolean;
  translate(input: TranslateInput): Promise<TranslateOutput>;
}
