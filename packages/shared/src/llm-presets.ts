/**
 * The OpenAI-compatible model services Chinese readers use most, and a local Ollama: where their
 * chat API lives and a sensible first model. Admins pick one in the AI model settings and may change
 * both fields; the server also recognises a service by its host (request quirks such as turning
 * thinking off live in the server's `engines/llm/providers.ts`).
 *
 * Base URLs are the services' documented OpenAI-compatible endpoints (the client appends
 * `/chat/completions`). Models are fast, inexpensive non-reasoning (or switchable) chat models;
 * providers rename models over time, so the model stays editable.
 */
export const LLM_PRESETS = [
  { id: 'deepseek', baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', hosts: ['api.deepseek.com'] },
  {
    id: 'qwen',
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    model: 'qwen-plus',
    hosts: ['dashscope.aliyuncs.com', 'dashscope-intl.aliyuncs.com'],
  },
  {
    id: 'zhipu',
    baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    model: 'glm-4.5-flash',
    hosts: ['open.bigmodel.cn'],
  },
  {
    id: 'doubao',
    baseUrl: 'https://ark.cn-beijing.volces.com/api/v3',
    model: 'doubao-seed-1-6-flash-250828',
    hosts: ['ark.cn-beijing.volces.com'],
  },
  {
    id: 'hunyuan',
    baseUrl: 'https://api.hunyuan.cloud.tencent.com/v1',
    model: 'hunyuan-turbos-latest',
    hosts: ['api.hunyuan.cloud.tencent.com'],
  },
  {
    id: 'moonshot',
    baseUrl: 'https://api.moonshot.cn/v1',
    model: 'kimi-k2.5',
    hosts: ['api.moonshot.cn', 'api.moonshot.ai'],
  },
  {
    id: 'siliconflow',
    baseUrl: 'https://api.siliconflow.cn/v1',
    model: 'Qwen/Qwen3-8B',
    hosts: ['api.siliconflow.cn', 'api.siliconflow.com'],
  },
  // Ollama needs no key; on another machine, replace localhost with its address.
  { id: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'qwen3:8b', hosts: [] },
] as const satisfies readonly { id: string; baseUrl: string; model: string; hosts: readonly string[] }[];

export type LlmPresetId = (typeof LLM_PRESETS)[number]['id'];

/** The service a base URL belongs to, by host (Ollama by its default port 11434); undefined: another one. */
export function llmPresetOf(baseUrl: string | null | undefined): LlmPresetId | undefined {
  if (!baseUrl) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase();
  const found = LLM_PRESETS.find((p) => (p.hosts as readonly string[]).includes(host));
  if (found) return found.id;
  return url.port === '11434' ? 'ollama' : undefined;
}

/**
 * What the AI model settings are for. `translation` is the LLM translation engine (its place in the
 * engine order is set with the other engines); `explanation` serves explanations, advanced
 * explanations, restatements and search answers; `annotation` the page annotations (falls back to
 * the explanation model when it has none of its own).
 */
export const AI_MODEL_USES = ['translation', 'explanation', 'annotation'] as const;
export type AiModelUse = (typeof AI_MODEL_USES)[number];
