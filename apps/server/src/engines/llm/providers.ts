import { llmPresetOf, type LlmPresetId } from '@yidu/shared';

/**
 * What each OpenAI-compatible service needs beyond the OpenAI protocol — the one place for provider
 * quirks. Yidu wants answers, not reasoning: thinking costs time and tokens, can eat the whole
 * `max_tokens` budget, and is never shown. Services with a switch get it turned off; whatever
 * reasoning still comes is removed by `reasoning.ts`.
 */
export interface RequestQuirks {
  /** Fields added to every chat request body. */
  extra: Record<string, unknown>;
  /** Standard fields the service refuses or fixes itself, left out of the request. */
  omit: ReadonlySet<'temperature' | 'stream_options'>;
}

/**
 * Models that only reason (or whose service no longer accepts the switch): sending "thinking off"
 * to them is refused with a 400 by some services, so they get no switch.
 */
const NO_SWITCH = /thinking|reasoner|qwq|qvq|instruct-2507|(^|[-/:])r1($|[-:])/i;

/** SiliconFlow hosts many models; only the hybrid ones take `enable_thinking`. */
const SILICONFLOW_HYBRID = /qwen3|glm-4\.[5-9]|deepseek-v3\.[1-9]|hunyuan-a13b/i;

const THINKING_OFF: Record<LlmPresetId, (model: string) => Record<string, unknown>> = {
  // DeepSeek: `thinking: {type}` in the OpenAI format (api-docs.deepseek.com, "Thinking Mode").
  deepseek: () => ({ thinking: { type: 'disabled' } }),
  // DashScope compatible mode: hybrid Qwen3 / qwen-plus models think unless told not to.
  qwen: () => ({ enable_thinking: false }),
  // Zhipu GLM-4.5 and later: `thinking.type` enabled | disabled (docs.bigmodel.cn).
  zhipu: () => ({ thinking: { type: 'disabled' } }),
  // Volcano Ark (Doubao Seed): `thinking: {type: "disabled"}`; the default is enabled.
  doubao: () => ({ thinking: { type: 'disabled' } }),
  // Hunyuan: turbos models do not reason; the T1 models always do (stripped).
  hunyuan: () => ({}),
  // Kimi K2.5/K2.6 think by default and take `thinking: {type: "disabled"}`; moonshot-v1 has no switch.
  moonshot: (model) => (/^kimi-/i.test(model) ? { thinking: { type: 'disabled' } } : {}),
  siliconflow: (model) => (SILICONFLOW_HYBRID.test(model) ? { enable_thinking: false } : {}),
  // Ollama's /v1 endpoint turns thinking off only with reasoning_effort "none".
  ollama: () => ({ reasoning_effort: 'none' }),
};

/** `provider` names the service when its host does not (a proxy or mirror); otherwise the host decides. */
export function requestQuirks(baseUrl: string, model: string, provider = llmPresetOf(baseUrl)): RequestQuirks {
  const omit = new Set<'temperature' | 'stream_options'>();
  // GLM's chat API does not document stream_options; it is left out rather than risked.
  if (provider === 'zhipu') omit.add('stream_options');
  // Kimi models fix their sampling parameters and refuse other temperatures.
  if (provider === 'moonshot' && /^kimi-/i.test(model)) omit.add('temperature');
  const extra = provider && !NO_SWITCH.test(model) ? THINKING_OFF[provider](model) : {};
  return { extra, omit };
}
