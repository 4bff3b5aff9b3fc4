import { EngineError } from '../translation/errors.ts';
import type { EngineErrorKind } from '../translation/errors.ts';
import { badResponse, deadline, errorFromResponse, errorFromThrown, genericErrorMessage } from '../translation/http.ts';
import { requestQuirks, type RequestQuirks } from './providers.ts';
import { stripThinking, ThinkStripper } from './reasoning.ts';
import type {
  ChatMessage,
  ChatOptions,
  ChatResult,
  ChatStreamEvent,
  LlmClient,
  LlmClientSettings,
  LlmUsage,
} from './types.ts';

const ENGINE = 'llm';
/** Local models on a CPU can take minutes for a long answer; servers that stall still get cut off. */
export const LLM_DEFAULT_TIMEOUT_MS = 120_000;

/**
 * OpenAI's 429 means either "slow down" or "no credit left" (`insufficient_quota`); only the first
 * is worth a retry. Other OpenAI-compatible servers (DeepSeek 402, Qwen 'Arrearage') say the latter differently.
 */
function describeOpenAiError(
  status: number,
  _body: string,
  json: unknown,
): { message?: string; kind?: EngineErrorKind } {
  const error = (json as { error?: { code?: unknown; type?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : typeof error?.type === 'string' ? error.type : '';
  const message = genericErrorMessage(json);
  const withMessage = message === undefined ? {} : { message };
  if (status === 402 || /insufficient_quota|billing|arrearage/i.test(code)) return { ...withMessage, kind: 'quota' };
  if (status === 404) return { ...withMessage, kind: 'badRequest' };
  return withMessage;
}

function usageFrom(value: unknown): LlmUsage | undefined {
  const u = value as { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined;
  if (!u || typeof u.prompt_tokens !== 'number') return undefined;
  return {
    promptTokens: u.prompt_tokens,
    completionTokens: typeof u.completion_tokens === 'number' ? u.completion_tokens : 0,
  };
}

/** An error object inside a 200 answer or an SSE event (vLLM, LiteLLM and OpenRouter do this mid-stream). */
function inlineError(json: unknown): EngineError | undefined {
  const error = (json as { error?: unknown } | undefined)?.error;
  if (error === undefined || error === null) return undefined;
  const e = error as { message?: unknown; code?: unknown; type?: unknown };
  const status = typeof e.code === 'number' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : JSON.stringify(error);
  const described = describeOpenAiError(status ?? 500, '', json);
  return new EngineError({
    engine: ENGINE,
    kind:
      described.kind ??
      (status ? (status >= 500 ? 'server' : status === 429 ? 'rateLimited' : 'badRequest') : 'server'),
    message,
    ...(status === undefined ? {} : { status }),
  });
}

export class OpenAiCompatibleClient implements LlmClient {
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly extraHeaders: Record<string, string>;
  private readonly quirks: RequestQuirks;

  constructor(settings: LlmClientSettings) {
    this.model = settings.model;
    this.url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.apiKey = settings.apiKey || undefined;
    this.timeoutMs = settings.timeoutMs ?? LLM_DEFAULT_TIMEOUT_MS;
    this.extraHeaders = settings.headers ?? {};
    this.quirks = requestQuirks(settings.baseUrl, settings.model, settings.provider);
  }

  private body(messages: ChatMessage[], options: ChatOptions, stream: boolean): string {
    const { extra, omit } = this.quirks;
    return JSON.stringify({
      model: this.model,
      messages,
      ...(options.temperature === undefined || omit.has('temperature') ? {} : { temperature: options.temperature }),
      ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
      ...(options.responseFormat === 'json' ? { response_format: { type: 'json_object' } } : {}),
      // include_usage makes the server send token counts in a last chunk; servers that do not know it ignore it.
      ...(stream ? { stream: true } : {}),
      ...(stream && !omit.has('stream_options') ? { stream_options: { include_usage: true } } : {}),
      ...extra,
    });
  }

  private headers(stream: boolean): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
      ...this.extraHeaders,
    };
  }

  async complete(messages: ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    const d = deadline(options.signal, this.timeoutMs);
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: this.headers(false),
        body: this.body(messages, options, false),
        signal: d.signal,
      });
      const text = await response.text();
      const request = { engine: ENGINE, url: this.url, describeError: describeOpenAiError };
      if (!response.ok) throw errorFromResponse(request, response.status, response.headers, text);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw badResponse(ENGINE, `Expected JSON, got: ${text.slice(0, 200)}`);
      }
      const error = inlineError(json);
      if (error) throw error;
      const o = json as {
        model?: unknown;
        choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
        usage?: unknown;
      };
      const choice = o.choices?.[0];
      const content = choice?.message?.content;
      if (typeof content !== 'string') throw badResponse(ENGINE, `No message in the answer: ${text.slice(0, 200)}`);
      const usage = usageFrom(o.usage);
      return {
        // Reasoning written into the answer is never part of it (reasoning_content is never read).
        text: stripThinking(content),
        model: typeof o.model === 'string' && o.model ? o.model : this.model,
        ...(usage ? { usage } : {}),
        ...(typeof choice?.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
      };
    } catch (err) {
      throw errorFromThrown(ENGINE, err, { timedOut: d.timedOut(), aborted: d.aborted() }, this.timeoutMs);
    } finally {
      d.clear();
    }
  }

  async *stream(messages: ChatMessage[], options: ChatOptions = {}): AsyncGenerator<ChatStreamEvent> {
    const d = deadline(options.signal, this.timeoutMs);
    let reader: ReadableStreamDefaultReader<string> | undefined;
    let finished = false;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: this.headers(true),
        body: this.body(messages, options, true),
        signal: d.signal,
      });
      if (!response.ok) {
        const text = await response.text();
        throw errorFromResponse(
          { engine: ENGINE, url: this.url, describeError: describeOpenAiError },
          response.status,
          response.headers,
          text,
        );
      }
      if (!response.body) throw badResponse(ENGINE, 'The answer has no body');
      // A server that ignores `stream: true` answers plain JSON: pass its whole text on as one delta.
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('application/json')) {
        const json = JSON.parse(await response.text()) as {
          choices?: { message?: { content?: unknown } }[];
          usage?: unknown;
        };
        const error = inlineError(json);
        if (error) throw error;
        const content = json.choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw badResponse(ENGINE, 'No message in the answer');
        const visible = stripThinking(content);
        if (visible) yield { delta: visible };
        const usage = usageFrom(json.usage);
        finished = true;
        yield { done: true, ...(usage ? { usage } : {}) };
        return;
      }

      reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      let data: string[] = [];
      let usage: LlmUsage | undefined;
      let finishReason: string | undefined;
      let sawDone = false;
      // Only `content` deltas are read (never `reasoning_content`), and <think> blocks in them are removed.
      const thoughts = new ThinkStripper();

      // One SSE event: its `data:` lines joined by newlines (the spec's rule), then JSON.
      const dispatch = function* (payload: string): Generator<ChatStreamEvent> {
        if (payload.trim() === '[DONE]') {
          sawDone = true;
          return;
        }
        let json: unknown;
        try {
          json = JSON.parse(payload);
        } catch {
          throw badResponse(ENGINE, `Unparsable stream event: ${payload.slice(0, 200)}`);
        }
        const error = inlineError(json);
        if (error) throw error;
        const o = json as { choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[]; usage?: unknown };
        usage = usageFrom(o.usage) ?? usage;
        const choice = o.choices?.[0];
        if (typeof choice?.finish_reason === 'string') finishReason = choice.finish_reason;
        const content = choice?.delta?.content;
        const visible = typeof content === 'string' ? thoughts.push(content) : '';
        if (visible !== '') yield { delta: visible };
      };

      while (!sawDone) {
        const { value, done } = await reader.read();
        if (done) break;
        d.touch();
        buffer += value;
        let newline: number;
        while (!sawDone && (newline = buffer.search(/\r\n|\r|\n/)) !== -1) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
          if (line === '') {
            if (data.length > 0) yield* dispatch(data.join('\n'));
            data = [];
          } else if (line.startsWith('data:')) {
            data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
          }
          // Comments (': keep-alive') and event:/id:/retry: fields carry nothing for chat completions.
        }
      }
      if (!sawDone && data.length > 0) yield* dispatch(data.join('\n'));
      if (!sawDone && finishReason === undefined) {
        throw new EngineError({
          engine: ENGINE,
          kind: 'network',
          message: 'The stream ended before the answer was complete',
        });
      }
      const rest = thoughts.flush();
      if (rest !== '') yield { delta: rest };
      finished = true;
      yield { done: true, ...(usage ? { usage } : {}), ...(finishReason ? { finishReason } : {}) };
    } catch (err) {
      throw errorFromThrown(ENGINE, err, { timedOut: d.timedOut(), aborted: d.aborted() }, this.timeoutMs);
    } finally {
      d.clear();
      // The consumer stopped early (break) or something failed: stop the server generating tokens nobody reads.
      if (!finished) reader?.cancel().catch(() => undefined);
    }
  }
}

export function createLlmClient(settings: LlmClientSettings): LlmClient {
  return new OpenAiCompatibleClient(settings);
}
