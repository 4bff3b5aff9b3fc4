import type { LlmPresetId } from '@yidu/shared';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /** 'json' asks for `response_format: {type: 'json_object'}` (the prompt must still mention JSON). */
  responseFormat?: 'text' | 'json';
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatResult {
  text: string;
  usage?: LlmUsage;
  /** The model the server says answered (may differ from the one asked for, e.g. a dated snapshot). */
  model: string;
  /** Why generation stopped ('stop', 'length'...), when the server says. */
  finishReason?: string;
}

export type ChatStreamEvent = { delta: string } | { done: true; usage?: LlmUsage; finishReason?: string };

export interface LlmClient {
  readonly model: string;
  complete(messages: ChatMessage[], options?: ChatOptions): Promise<ChatResult>;
  /** Yields text deltas in order, then exactly one `{done: true}`. Breaking out of the loop cancels the request. */
  stream(messages: ChatMessage[], options?: ChatOptions): AsyncIterable<ChatStreamEvent>;
}

export interface LlmClientSettings {
  /** OpenAI-compatible base URL, e.g. https://api.openai.com/v1, http://localhost:11434/v1. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Whole request for complete(); time to the first byte and between chunks for stream(). */
  timeoutMs?: number;
  /** Extra headers some gateways need (OpenRouter's HTTP-Referer, Azure's api-key...). */
  headers?: Record<string, string>;
  /** The service behind the URL, for its request quirks, when its host does not tell (a proxy). */
  provider?: LlmPresetId;
}
