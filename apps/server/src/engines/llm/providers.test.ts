import { LLM_PRESETS, llmPresetOf } from '@yidu/shared';
import { describe, expect, it } from 'vitest';
import { requestQuirks } from './providers.ts';

describe('provider presets and quirks', () => {
  it('recognises each preset by its own base URL', () => {
    for (const preset of LLM_PRESETS) expect(llmPresetOf(preset.baseUrl)).toBe(preset.id);
    expect(llmPresetOf('http://192.168.1.5:11434/v1')).toBe('ollama');
    expect(llmPresetOf('https://api.openai.com/v1')).toBeUndefined();
    expect(llmPresetOf('not a url')).toBeUndefined();
  });

  it('turns thinking off where the service has a switch', () => {
    const q = (id: string, model: string) => requestQuirks(LLM_PRESETS.find((p) => p.id === id)!.baseUrl, model);
    expect(q('qwen', 'qwen-plus').extra).toEqual({ enable_thinking: false });
    expect(q('deepseek', 'deepseek-chat').extra).toEqual({ thinking: { type: 'disabled' } });
    expect(q('zhipu', 'glm-4.5-flash').extra).toEqual({ thinking: { type: 'disabled' } });
    expect(q('doubao', 'doubao-seed-1-6-flash-250828').extra).toEqual({ thinking: { type: 'disabled' } });
    expect(q('moonshot', 'kimi-k2.5').extra).toEqual({ thinking: { type: 'disabled' } });
    expect(q('moonshot', 'moonshot-v1-8k').extra).toEqual({});
    expect(q('siliconflow', 'Qwen/Qwen3-8B').extra).toEqual({ enable_thinking: false });
    expect(q('siliconflow', 'deepseek-ai/DeepSeek-V3').extra).toEqual({});
    expect(q('ollama', 'qwen3:8b').extra).toEqual({ reasoning_effort: 'none' });
    expect(q('hunyuan', 'hunyuan-turbos-latest').extra).toEqual({});
    expect(requestQuirks('https://api.openai.com/v1', 'gpt-4o-mini').extra).toEqual({});
  });

  it('sends no switch to models that only reason (the service would refuse it)', () => {
    for (const [id, model] of [
      ['deepseek', 'deepseek-reasoner'],
      ['qwen', 'qwq-plus'],
      ['qwen', 'qwen3-235b-a22b-thinking-2507'],
      ['qwen', 'qwen3-235b-a22b-instruct-2507'],
      ['ollama', 'deepseek-r1:8b'],
      ['moonshot', 'kimi-k2-thinking'],
    ] as const) {
      expect(requestQuirks(LLM_PRESETS.find((p) => p.id === id)!.baseUrl, model).extra, model).toEqual({});
    }
  });

  it('leaves out what a service refuses', () => {
    expect([...requestQuirks('https://open.bigmodel.cn/api/paas/v4', 'glm-4.5-flash').omit]).toEqual([
      'stream_options',
    ]);
    expect([...requestQuirks('https://api.moonshot.cn/v1', 'kimi-k2.5').omit]).toEqual(['temperature']);
    expect([...requestQuirks('https://api.moonshot.cn/v1', 'moonshot-v1-8k').omit]).toEqual([]);
  });
});
