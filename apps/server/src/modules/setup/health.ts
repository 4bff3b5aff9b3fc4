import type { ChatMessage, ChatOptions, ChatStreamEvent, LlmClient } from '../../engines/llm/types.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import type { TranslateInput, TranslateOutput, TranslationEngine } from '../../engines/translation/types.ts';
import type { Logger } from '../../lib/logger.ts';
import { HealthRepo, type HealthEntry, type HealthRow, type HealthSource } from './health.repo.ts';
import type { Db } from '../../db/client.ts';

/** Health keys: `translation:<engine>` for translation engines, `ai:<use>` for the AI models. */
export const translationKey = (engine: string) => `translation:${engine}`;
export const aiKey = (use: string) => `ai:${use}`;

export interface Outcome {
  ok: boolean;
  ms: number;
  error?: string;
}

/**
 * What admins may read of an error: the engine's kind and message, without the key it was called
 * with and without URL queries (Google takes its key in one), at most 300 characters.
 */
export function redact(message: string, secrets: (string | undefined)[]): string {
  let text = message.replace(/(https?:\/\/[^\s?#"']+)[?#][^\s"']*/g, '$1');
  for (const secret of secrets) if (secret && secret.length >= 4) text = text.split(secret).join('…');
  return text.slice(0, 300);
}

export function describeError(error: unknown): string {
  return error instanceof EngineError ? `${error.kind}: ${error.message}` : (error as Error).message;
}

/** The reader went away or the request was cancelled: says nothing about the engine. */
const isCancel = (error: unknown) => error instanceof EngineError && error.kind === 'aborted';

/**
 * The health of every engine and AI model as measured by real use, the periodic probe and the Test
 * buttons. Outcomes of real use are merged in memory and written every few seconds (one statement
 * per engine, not one per request); probes and tests are written at once.
 */
export class EngineHealth {
  private readonly repo: HealthRepo;
  private readonly logger: Logger;
  private readonly flushMs: number;
  private pending = new Map<string, HealthEntry>();
  private timer: NodeJS.Timeout | undefined;
  /** Flushes run one after another, so awaiting one means everything recorded before it is written. */
  private flushing: Promise<void> = Promise.resolve();

  constructor(deps: { db: Db; logger: Logger; flushMs?: number }) {
    this.repo = new HealthRepo(deps.db);
    this.logger = deps.logger;
    this.flushMs = deps.flushMs ?? 10_000;
  }

  /** Probe and test outcomes are written at once (the promise); those of real use with the next flush. */
  record(key: string, outcome: Outcome, by: HealthSource, secrets: (string | undefined)[] = []): Promise<void> {
    const now = new Date();
    const entry: HealthEntry = this.pending.get(key) ?? {
      key,
      lastSuccessAt: null,
      lastFailureAt: null,
      lastError: null,
      latencyMs: outcome.ms,
      checkedBy: by,
    };
    if (outcome.ok) entry.lastSuccessAt = now;
    else {
      entry.lastFailureAt = now;
      entry.lastError = redact(outcome.error ?? 'failed', secrets);
    }
    entry.latencyMs = Math.round(outcome.ms);
    entry.checkedBy = by;
    this.pending.set(key, entry);
    return by === 'use' ? Promise.resolve() : this.flush();
  }

  /** Writes what was recorded since the last flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const entries = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.repo.merge(entries);
      } catch (error) {
        this.logger.warn({ err: error }, 'engine health could not be written');
      }
    });
    return this.flushing;
  }

  /** Everything known, this process's unwritten outcomes included. */
  async all(): Promise<Map<string, HealthRow>> {
    await this.flush();
    return new Map((await this.repo.all()).map((r) => [r.key, r]));
  }

  async forget(key: string): Promise<void> {
    this.pending.delete(key);
    await this.repo.forget(key);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

/** A translation engine whose every request is measured (a retry or a fallback counts as what it is). */
export function observeEngine(engine: TranslationEngine, apiKey: string | undefined, health: EngineHealth) {
  const key = translationKey(engine.name);
  const observed: TranslationEngine = {
    name: engine.name,
    model: engine.model,
    maxBatchItems: engine.maxBatchItems,
    maxBatchChars: engine.maxBatchChars,
    ...(engine.limits ? { limits: engine.limits } : {}),
    // How the engine is told about glossary terms: the chain reads it from the engine it calls.
    ...(engine.glossaryMarkup ? { glossaryMarkup: engine.glossaryMarkup } : {}),
    supports: (code) => engine.supports(code),
    async translate(input: TranslateInput): Promise<TranslateOutput> {
      const started = performance.now();
      try {
        const out = await engine.translate(input);
        void health.record(key, { ok: true, ms: performance.now() - started }, 'use');
        return out;
      } catch (error) {
        if (!isCancel(error) && !input.signal?.aborted) {
          void health.record(key, { ok: false, ms: performance.now() - started, error: describeError(error) }, 'use', [
            apiKey,
          ]);
        }
        throw error;
      }
    },
  };
  return observed;
}

/** An LLM client whose every answer is measured (a stream until its end; a reader leaving is no failure). */
export function observeLlm(client: LlmClient, apiKey: string | undefined, key: string, health: EngineHealth) {
  const fail = (started: number, error: unknown) => {
    if (!isCancel(error)) {
      void health.record(key, { ok: false, ms: performance.now() - started, error: describeError(error) }, 'use', [
        apiKey,
      ]);
    }
  };
  const observed: LlmClient = {
    model: client.model,
    async complete(messages: ChatMessage[], options?: ChatOptions) {
      const started = performance.now();
      try {
        const result = await client.complete(messages, options);
        void health.record(key, { ok: true, ms: performance.now() - started }, 'use');
        return result;
      } catch (error) {
        fail(started, error);
        throw error;
      }
    },
    async *stream(messages: ChatMessage[], options?: ChatOptions): AsyncGenerator<ChatStreamEvent> {
      const started = performance.now();
      try {
        for await (const event of client.stream(messages, options)) {
          if ('done' in event) void health.record(key, { ok: true, ms: performance.now() - started }, 'use');
          yield event;
        }
      } catch (error) {
        fail(started, error);
        throw error;
      }
    },
  };
  return observed;
}
