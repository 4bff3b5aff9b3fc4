import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuth } from '../../stores/auth.ts';
import { fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import { EngineSettings, toDraft, toSave } from './EngineSettings.tsx';
import type { EngineView } from '../../api/admin.ts';

const engine = (over: Partial<EngineView>): EngineView => ({
  name: 'microsoft',
  enabled: true,
  endpoint: null,
  region: 'eastasia',
  model: null,
  timeoutMs: null,
  concurrency: null,
  requestsPerMinute: null,
  hasApiKey: true,
  apiKeyHint: '…abcd',
  ...over,
});

beforeEach(() => useAuth.getState().setSession('t', makeUser({ role: 'admin' })));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('engine keys: keep, replace, remove', () => {
  it('maps each choice to the PUT body', () => {
    const draft = toDraft(engine({}));
    expect('apiKey' in toSave(draft)).toBe(false);
    expect(toSave({ ...draft, keyAction: 'remove' }).apiKey).toBe('');
    expect(toSave({ ...draft, keyAction: 'replace', newKey: ' sk-new ' }).apiKey).toBe('sk-new');
    expect(toSave(draft)).not.toHaveProperty('hasApiKey');
  });

  it('never shows a stored key, and saves the order and the key choices', async () => {
    const { calls } = fakeFetch({
      'GET /api/admin/engines': ok([
        engine({}),
        engine({ name: 'deepl', hasApiKey: true, apiKeyHint: '…wxyz', region: null }),
        engine({ name: 'llm', hasApiKey: false, apiKeyHint: null, region: null, model: 'gpt' }),
      ]),
      'PUT /api/admin/engines': (call) => ok((call.body as EngineView[]).map((e) => engine({ ...e }))),
    });
    renderPage(<EngineSettings />);
    const microsoft = await screen.findByTestId('engine-microsoft');
    expect(within(microsoft).getByText('Key stored …abcd')).toBeTruthy();
    const user = userEvent.setup();
    // microsoft: replace the key
    await user.click(within(microsoft).getByText('Replace'));
    const save = screen.getByRole('button', { name: /Save engines/ });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(microsoft).getByLabelText('New API key'), 'sk-new');
    // deepl: remove the key, and move it to the top
    const deepl = screen.getByTestId('engine-deepl');
    await user.click(within(deepl).getByText('Remove'));
    await user.click(within(deepl).getByRole('button', { name: 'Move up' }));
    await user.click(screen.getByRole('button', { name: /Save engines/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = calls.find((c) => c.method === 'PUT')!.body as Record<string, unknown>[];
    expect(body.map((e) => e.name)).toEqual(['deepl', 'microsoft', 'llm']);
    expect(body[0]!.apiKey).toBe('');
    expect(body[1]!.apiKey).toBe('sk-new');
    expect('apiKey' in body[2]!).toBe(false);
    expect(await screen.findByText('Engine settings saved')).toBeTruthy();
  });
});

describe('a stored key and a new address', () => {
  it('says the stored key stays behind when the endpoint moves to another service', async () => {
    fakeFetch({ 'GET /api/admin/engines': ok([engine({ endpoint: 'https://api.example.com/translate' })]) });
    renderPage(<EngineSettings />);
    const microsoft = await screen.findByTestId('engine-microsoft');
    const endpoint = within(microsoft).getByPlaceholderText('https://…');
    const user = userEvent.setup();
    const warning = /stored key belongs to another service/;
    // Another path on the same service: the key goes with it, nothing to say.
    await user.clear(endpoint);
    await user.type(endpoint, 'https://api.example.com/v3/translate');
    expect(within(microsoft).queryByText(warning)).toBeNull();
    await user.clear(endpoint);
    await user.type(endpoint, 'https://elsewhere.example.net/');
    expect(within(microsoft).getByText(warning)).toBeTruthy();
    // A new key for the new service: the warning has done its job.
    await user.click(within(microsoft).getByText('Replace'));
    expect(within(microsoft).queryByText(warning)).toBeNull();
  });
});
