import { EngineError } from './errors.ts';
import { badResponse, countChars, deadline, errorFromThrown } from './http.ts';
import { protectTerms, termsIn, unprotectTerms } from './glossary-terms.ts';
import { EngineLimiter } from './limiter.ts';
import { isReadingLanguage } from './source-language.ts';
import type { EngineName, TokenUsage, TranslateInput, TranslateOutput, TranslationEngine } from './types.ts';

export interface ChainLogger {
  warn: (o: object, m: string) => void;
}

export interface TranslationChainOptions {
  logger?: ChainLogger;
  /** Retries of one request on the same engine after a retryable failure (default 2, so 3 tries). */
  maxRetries?: number;
  /** Backoff base: the wait before retry n is random(0, baseDelayMs·2^n), capped by maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the next engine serves instead (default 60 s). */
  maxRetryAfterMs?: number;
  /** Time-out of a request when the engine sets none in `limits`. */
  defaultTimeoutMs?: number;
  /** Injected for tests: waiting (backoff, Retry-After, per-minute budget), clock and jitter. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

/** Which engine produced one text: fallback may serve parts of one call with different engines. */
export interface TextSource {
  engine: EngineName;
  model: string;
}

export interface ChainOutput extends TranslateOutput {
  /** The engine of the first translated text; see `sources` when a fallback served part of the call. */
  engine: EngineName;
  model: string;
  /** Per text, same order as input.texts (blank texts, passed through, carry the first engine). */
  sources: TextSource[];
}

const limiters = new WeakMap<TranslationEngine, EngineLimiter>();

/** One budget per engine instance, shared by every chain that uses it (a server builds chains freely). */
export function limiterFor(engine: TranslationEngine): EngineLimiter {
  let limiter = limiters.get(engine);
  if (!limiter) {
    limiter = new EngineLimiter(engine.limits?.concurrency, engine.limits?.requestsPerMinute);
    limiters.set(engine, limiter);
  }
  return limiter;
}

/**
 * The texts as this engine gets them: glossary terms marked in the engine's own way (an engine that
 * reads the glossary in its prompt, or has no markup, gets them as they are). Done per attempt, as a
 * fallback engine may want other markup than the engine that failed.
 */
function protectedTexts(engine: TranslationEngine, input: TranslateInput, texts: string[]): string[] {
  const markup = engine.glossaryMarkup;
  if (!input.glossary?.length || !markup || markup === 'prompt') return texts;
  return texts.map((text) => protectTerms(text, termsIn(text, input.glossary), markup, input));
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function abortError(engine: string, signal: AbortSignal): EngineError {
  const reason: unknown = signal.reason;
  if (reason instanceof EngineError) return reason;
  return new EngineError({ engine, kind: 'aborted', message: 'The translation was aborted', cause: reason });
}

/** Rejects when the signal fires; used to stop waiting on an engine that ignores its signal. */
function whenAborted(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/** Splits indexes into request-sized groups; a text longer than maxChars travels alone. */
export function splitBatches(
  texts: readonly string[],
  indexes: readonly number[],
  maxItems: number,
  maxChars: number,
): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let chars = 0;
  for (const index of indexes) {
    const n = countChars(texts[index] as string);
    if (current.length > 0 && (current.length >= maxItems || chars + n > maxChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(index);
    chars += n;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Wraps engines in order: per-engine concurrency limit and requests-per-minute, time-out, retries
 * with exponential backoff + full jitter (honouring Retry-After), fallback to the next engine on a
 * non-retryable or exhausted failure, and splitting a batch into several requests by
 * maxBatchItems/maxBatchChars. Logs each failure with the engine's own message.
 */
export class TranslationChain {
  readonly engines: TranslationEngine[];
  private readonly logger: ChainLogger | undefined;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly defaultTimeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(engines: TranslationEngine[], options: TranslationChainOptions = {}) {
    this.engines = engines;
    this.logger = options.logger;
    this.maxRetries = Math.max(0, options.maxRetries ?? 2);
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  /** The engines that can translate this pair, in order. */
  enginesFor(input: Pick<TranslateInput, 'from' | 'to'>): TranslationEngine[] {
    // A source outside the 26 is for each engine to send or to leave to its service's detection.
    return this.engines.filter(
      (e) => e.supports(input.to) && (!isReadingLanguage(input.from) || e.supports(input.from)),
    );
  }

  /** Throws the last EngineError when every engine failed. */
  async translate(input: TranslateInput): Promise<ChainOutput> {
    const candidates = this.enginesFor(input);
    const first = candidates[0];
    if (!first) {
      throw new EngineError({
        engine: 'chain',
        kind: this.engines.length ? 'unsupportedLanguage' : 'badRequest',
        message: this.engines.length
          ? `No enabled translation engine supports ${input.from} → ${input.to}`
          : 'No translation engine is enabled',
      });
    }
    if (input.signal?.aborted) throw abortError(first.name, input.signal);

    const texts = [...input.texts];
    const sources: TextSource[] = texts.map(() => ({ engine: first.name, model: first.model }));
    const indexes = texts.flatMap((t, i) => (t.trim() === '' ? [] : [i]));
    const total: TranslateOutput & { usage: TokenUsage } = {
      texts,
      characters: 0,
      usage: { promptTokens: 0, completionTokens: 0 },
    };
    let sawUsage = false;
    let detected: { at: number; language: string } | undefined;

    // One failed batch dooms the call: stop the sibling batches instead of paying for them.
    const group = new AbortController();
    const stopGroup = () => group.abort(input.signal?.reason);
    input.signal?.addEventListener('abort', stopGroup, { once: true });

    const runBatch = async (batch: number[], level: number): Promise<void> => {
      const engine = candidates[level] as TranslationEngine;
      try {
        const out = await this.withRetries(
          engine,
          input,
          batch.map((i) => texts[i] as string),
          group.signal,
        );
        batch.forEach((at, k) => {
          texts[at] = out.texts[k] as string;
          sources[at] = { engine: engine.name, model: engine.model };
        });
        total.characters += out.characters;
        if (out.usage) {
          sawUsage = true;
          total.usage.promptTokens += out.usage.promptTokens;
          total.usage.completionTokens += out.usage.completionTokens;
        }
        if (out.detectedLanguage && (!detected || (batch[0] as number) < detected.at)) {
          detected = { at: batch[0] as number, language: out.detectedLanguage };
        }
      } catch (err) {
        const error = err as EngineError;
        const next = candidates[level + 1];
        if (error.kind === 'aborted' || group.signal.aborted || !next) throw error;
        this.logger?.warn(
          { engine: engine.name, model: engine.model, next: next.name, kind: error.kind, items: batch.length },
          `Translation falls back from ${engine.name} to ${next.name}: ${error.message}`,
        );
        // The next engine may take smaller requests than the one that failed.
        const parts = splitBatches(texts, batch, next.maxBatchItems, next.maxBatchChars);
        await Promise.all(parts.map((part) => runBatch(part, level + 1)));
      }
    };

    try {
      const batches = splitBatches(texts, indexes, first.maxBatchItems, first.maxBatchChars);
      await Promise.all(
        batches.map((batch) =>
          runBatch(batch, 0).catch((err: unknown) => {
            group.abort(err);
            throw err;
          }),
        ),
      );
    } catch (err) {
      if (input.signal?.aborted) throw abortError(first.name, input.signal);
      throw err;
    } finally {
      input.signal?.removeEventListener('abort', stopGroup);
      if (!group.signal.aborted) group.abort();
    }

    const head = indexes[0] === undefined ? undefined : sources[indexes[0]];
    return {
      texts,
      characters: total.characters,
      ...(sawUsage ? { usage: total.usage } : {}),
      ...(detected ? { detectedLanguage: detected.language } : {}),
      engine: head?.engine ?? first.name,
      model: head?.model ?? first.model,
      sources,
    };
  }

  private async withRetries(
    engine: TranslationEngine,
    input: TranslateInput,
    texts: string[],
    signal: AbortSignal,
  ): Promise<TranslateOutput> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(engine, input, texts, signal);
      } catch (err) {
        const error = err instanceof EngineError ? err : errorFromThrown(engine.name, err);
        if (error.kind === 'aborted' || signal.aborted) throw error;
        const tooLong = error.retryAfterMs !== undefined && error.retryAfterMs > this.maxRetryAfterMs;
        const retry = error.retryable && attempt < this.maxRetries && !tooLong;
        this.logger?.warn(
          {
            engine: engine.name,
            model: engine.model,
            kind: error.kind,
            status: error.status,
            retryAfterMs: error.retryAfterMs,
            attempt: attempt + 1,
            retry,
            items: texts.length,
          },
          `Translation by ${engine.name} failed: ${error.message}`,
        );
        if (!retry) throw error;
        const backoff = Math.round(this.random() * Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** attempt));
        await this.wait(error.retryAfterMs ?? backoff, signal, engine.name);
      }
    }
  }

  private async wait(ms: number, signal: AbortSignal, engine: string): Promise<void> {
    const aborted = whenAborted(signal);
    try {
      await Promise.race([this.sleep(ms), aborted.promise]);
    } catch {
      throw abortError(engine, signal);
    } finally {
      aborted.dispose();
    }
  }

  /** One request: a slot within the engine's limits, then the engine call under a time-out. */
  private async attempt(
    engine: TranslationEngine,
    input: TranslateInput,
    texts: string[],
    signal: AbortSignal,
  ): Promise<TranslateOutput> {
    let release: () => void;
    try {
      release = await limiterFor(engine).acquire(signal, (ms) => this.wait(ms, signal, engine.name), this.now);
    } catch {
      throw abortError(engine.name, signal);
    }
    const timeoutMs = engine.limits?.timeoutMs ?? this.defaultTimeoutMs;
    const d = deadline(signal, timeoutMs);
    const aborted = whenAborted(d.signal);
    try {
      const sent = protectedTexts(engine, input, texts);
      const out = await Promise.race([engine.translate({ ...input, texts: sent, signal: d.signal }), aborted.promise]);
      if (!Array.isArray(out?.texts) || out.texts.length !== texts.length) {
        throw badResponse(engine.name, `Expected ${texts.length} translations, got ${out?.texts?.length ?? 'none'}`);
      }
      return sent === texts ? out : { ...out, texts: out.texts.map(unprotectTerms) };
    } catch (err) {
      if (signal.aborted) throw abortError(engine.name, signal);
      if (d.timedOut()) {
        throw new EngineError({ engine: engine.name, kind: 'timeout', message: `No answer within ${timeoutMs} ms` });
      }
      throw errorFromThrown(engine.name, err);
    } finally {
      aborted.dispose();
      d.clear();
      release();
    }
  }
}
