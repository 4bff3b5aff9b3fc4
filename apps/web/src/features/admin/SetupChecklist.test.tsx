import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuth } from '../../stores/auth.ts';
import { fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import { SetupChecklist } from './SetupChecklist.tsx';
import type { SetupReport } from '../../api/setup.ts';

const before: SetupReport = {
  attention: true,
  probeMinutes: 10,
  items: [
    { id: 'translation', essential: true, status: 'unknown', detail: { engines: 'microsoft', working: 0 } },
    { id: 'explanationModel', essential: true, status: 'ok', detail: { source: 'admin', model: 'qwen-plus' } },
    { id: 'annotationModel', essential: false, status: 'ok', detail: { source: 'inherited', model: 'qwen-plus' } },
    { id: 'invites', essential: false, status: 'ok', detail: { required: true, usable: 3 } },
  ],
  health: [
    {
      key: 'translation:microsoft',
      kind: 'translation',
      name: 'microsoft',
      model: null,
      status: 'unknown',
      lastSuccessAt: null,
      lastFailureAt: null,
      lastError: null,
      latencyMs: null,
      checkedBy: null,
    },
  ],
};
const after: SetupReport = {
  ...before,
  items: [{ ...before.items[0]!, status: 'failing' }, ...before.items.slice(1)],
  health: [
    {
      ...before.health[0]!,
      status: 'failing',
      lastFailureAt: '2026-11-24T08:00:00.000Z',
      lastError: 'network: fetch failed: connect ECONNREFUSED',
      latencyMs: 12,
      checkedBy: 'probe',
    },
  ],
};

beforeEach(() => useAuth.getState().setSession('t', makeUser({ role: 'admin' })));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('the setup checklist', () => {
  it('says what each item means, links to where it is fixed, and checks now on request', async () => {
    const { calls } = fakeFetch({ 'GET /api/admin/setup': ok(before), 'POST /api/admin/setup/check': ok(after) });
    renderPage(<SetupChecklist />);
    const translation = await screen.findByTestId('check-translation');
    expect(translation.textContent).toContain('Not checked yet');
    expect(within(translation).getByRole('link', { name: 'Translation engines' }).getAttribute('href')).toBe(
      '/admin/test?tab=engines',
    );
    expect(screen.getByTestId('check-annotationModel').textContent).toContain(
      'Uses the explanation model (qwen-plus), which answers.',
    );
    expect(screen.getByTestId('check-invites').textContent).toContain('3 minted codes can still be used.');
    await userEvent.setup().click(screen.getByRole('button', { name: /Check now/ }));
    await waitFor(() => expect(screen.getByTestId('check-translation').textContent).toContain('Not working'));
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/setup/check')).toBe(true);
    expect(screen.getByText('network: fetch failed: connect ECONNREFUSED')).toBeTruthy();
    expect(screen.getByText('Automatic check')).toBeTruthy();
  });
});
