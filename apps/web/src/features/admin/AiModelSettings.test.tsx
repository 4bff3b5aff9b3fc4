import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuth } from '../../stores/auth.ts';
import { fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import { AiModelSettings, toModelDraft, toModelSave } from './AiModelSettings.tsx';
import type { AiModelView } from '../../api/setup.ts';

const view = (over: Partial<AiModelView>): AiModelView => ({
  use: 'explanation',
  baseUrl: 'https://api.deepseek.com/v1',
  model: 'deepseek-chat',
  hasApiKey: true,
  apiKeyHint: '…k9f2',
  source: 'admin',
  enabled: true,
  ...over,
});

const views = () => [
  view({
    use: 'translation',
    baseUrl: null,
    model: null,
    hasApiKey: false,
    apiKeyHint: null,
    source: 'none',
    enabled: false,
  }),
  view({}),
  view({ use: 'annotation', source: 'inherited' }),
];

beforeEach(() => useAuth.getState().setSession('t', makeUser({ role: 'admin' })));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('AI model settings', () => {
  it('maps the key choice to the PUT body, and sends enabled only for translation', () => {
    const draft = toModelDraft(view({}));
    expect(toModelSave('explanation', draft)).toEqual({
      baseUrl: 'https://api.deepseek.com/v1',
      model: 'deepseek-chat',
    });
    expect(toModelSave('explanation', { ...draft, keyAction: 'remove' }).apiKey).toBe('');
    expect(toModelSave('explanation', { ...draft, keyAction: 'replace', newKey: ' sk-x ' }).apiKey).toBe('sk-x');
    expect(toModelSave('translation', draft).enabled).toBe(true);
    // An inherited model starts empty: saving it gives annotations a model of their own.
    expect(toModelDraft(view({ use: 'annotation', source: 'inherited' })).baseUrl).toBe('');
  });

  it('fills a preset, tests the edited settings, and saves them with the new key', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/ai-models': ok(views()),
      'POST /api/admin/ai-models/test': ok({ ok: true, ms: 420, sample: '你好，读者！', error: null }),
      'PUT /api/admin/ai-models/translation': (call) =>
        ok(views().map((v) => (v.use === 'translation' ? { ...v, ...(call.body as object), source: 'admin' } : v))),
    });
    renderPage(<AiModelSettings />);
    const card = await screen.findByTestId('ai-model-translation');
    expect(within(card).getByText('Not set')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(within(card).getByRole('combobox', { name: 'Service' }));
    await user.click(await screen.findByText('Qwen (Alibaba DashScope)'));
    expect((within(card).getByLabelText('Base URL') as HTMLInputElement).value).toBe(
      'https://dashscope.aliyuncs.com/compatible-mode/v1',
    );
    expect((within(card).getByLabelText('Model') as HTMLInputElement).value).toBe('qwen-plus');
    await user.click(within(card).getByText('Set a key'));
    await user.type(within(card).getByLabelText('New API key'), 'sk-dashscope');
    await user.click(within(card).getByRole('switch', { name: 'Translates' }));
    await user.click(within(card).getByRole('button', { name: /Test/ }));
    expect(await within(card).findByText(/Works \(420 ms\): 你好，读者！/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      use: 'translation',
      baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      model: 'qwen-plus',
      apiKey: 'sk-dashscope',
      enabled: true,
    });
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ apiKey: 'sk-dashscope', enabled: true });
    expect(await screen.findByText('Saved: used from now on')).toBeTruthy();
  });

  it('never shows a stored key, and warns that it stays with its service when the URL changes', async () => {
    fakeFetch({ 'GET /api/admin/ai-models': ok(views()) });
    renderPage(<AiModelSettings />);
    const card = await screen.findByTestId('ai-model-explanation');
    expect(within(card).getByText('Key stored …k9f2')).toBeTruthy();
    expect(document.body.textContent).not.toContain('sk-');
    const user = userEvent.setup();
    const url = within(card).getByLabelText('Base URL');
    await user.clear(url);
    await user.type(url, 'https://api.moonshot.cn/v1');
    expect(within(card).getByText(/belongs to another service/)).toBeTruthy();
    expect(within(card).getByRole('combobox', { name: 'Service' }).closest('.ant-select')!.textContent).toContain(
      'Kimi (Moonshot)',
    );
    // Annotations borrow the explanation model until they get their own.
    const annotation = screen.getByTestId('ai-model-annotation');
    expect(within(annotation).getByText('Same as explanations')).toBeTruthy();
    expect(within(annotation).getByText(/Now: the explanation model \(deepseek-chat\)/)).toBeTruthy();
  });
});
