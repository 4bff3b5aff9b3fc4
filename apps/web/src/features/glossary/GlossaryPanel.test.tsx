import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Glossary } from '@yidu/shared/glossary';
import { useAuth } from '../../stores/auth.ts';
import { fail, fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import { GlossaryPanel } from './GlossaryPanel.tsx';

const base: Glossary = {
  entries: [
    { source: 'Darcy', target: '达西', note: null, origin: 'extracted' },
    { source: 'Elizabeth', target: '伊丽莎白', note: 'the second daughter', origin: 'owner' },
  ],
  version: 3,
  editable: true,
  canSuggest: false,
  suggestions: [
    {
      id: 7,
      source: 'Jane',
      target: '简',
      note: null,
      status: 'pending',
      by: 'Lin',
      createdAt: '2026-11-25T10:00:00Z',
    },
  ],
  retranslation: { paragraphs: 4, characters: 2100, points: 5, running: 0 },
};

beforeEach(() => useAuth.getState().setSession('t', makeUser({ languageCode: 'en' })));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('the glossary panel', () => {
  it("lets the owner edit an entry and retranslate at the quoted price, and decide a reader's suggestion", async () => {
    const { calls } = fakeFetch({
      'GET /api/book/glossary': ok(base),
      'PUT /api/book/glossary': ok(base),
      'POST /api/book/glossary/retranslate': ok({
        quote: { ...base.retranslation, paragraphs: 0, running: 4 },
        held: 5,
      }),
      'POST /api/book/glossary/decide': ok({ ...base, suggestions: [] }),
    });
    renderPage(<GlossaryPanel bookCode="BK1" language="zh" />);
    const user = userEvent.setup();
    expect(await screen.findByText('4 translated paragraphs use older terms')).toBeTruthy();
    expect(screen.getByText('Retranslating them costs at most 5 points.')).toBeTruthy();
    expect(screen.getByText('Found automatically')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Edit Darcy' }));
    const target = screen.getByLabelText('Translation');
    await user.clear(target);
    await user.type(target, '达西先生');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!.body as { entries: { source: string; target: string }[] };
    expect(put.entries).toEqual([
      { source: 'Elizabeth', target: '伊丽莎白', note: 'the second daughter' },
      { source: 'Darcy', target: '达西先生', note: null },
    ]);

    await user.click(screen.getByRole('button', { name: 'Retranslate' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/4 paragraphs will be translated again\. At most 5 points/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Retranslate' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/book/glossary/retranslate')).toBe(true));
    expect(calls.find((c) => c.path === '/api/book/glossary/retranslate')!.body).toEqual({
      bookCode: 'BK1',
      language: 'zh',
      points: 5,
    });
    expect(await screen.findByText('4 paragraphs are being retranslated…')).toBeTruthy();

    expect(screen.getByText('suggested by Lin')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Accept Jane' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/book/glossary/decide')).toBe(true));
    expect(calls.find((c) => c.path === '/api/book/glossary/decide')!.body).toEqual({
      bookCode: 'BK1',
      id: 7,
      accept: true,
    });
  });

  it('lets a reader suggest an entry and see what became of it', async () => {
    const reader: Glossary = { ...base, editable: false, canSuggest: true, retranslation: null, suggestions: [] };
    const { calls } = fakeFetch({
      'GET /api/book/glossary': ok(reader),
      'POST /api/book/glossary/suggest': ok({
        ...reader,
        suggestions: [{ ...base.suggestions[0]!, by: null }],
      }),
    });
    renderPage(<GlossaryPanel bookCode="BK1" language="zh" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Suggest an entry$/ }));
    expect(screen.queryByRole('button', { name: 'Edit Darcy' })).toBeNull();
    await user.type(screen.getByLabelText('In the book'), 'Jane');
    await user.type(screen.getByLabelText('Translation'), '简');
    await user.click(screen.getByRole('button', { name: 'Send suggestion' }));
    expect(await screen.findByText('Waiting')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/book/glossary/suggest')!.body).toEqual({
      bookCode: 'BK1',
      language: 'zh',
      entry: { source: 'Jane', target: '简', note: null },
    });
  });

  it('asks again when the price changed before the owner confirmed it', async () => {
    fakeFetch({
      'GET /api/book/glossary': ok(base),
      'POST /api/book/glossary/retranslate': fail(409, 'quoteChanged', { quote: base.retranslation }),
    });
    renderPage(<GlossaryPanel bookCode="BK1" language="zh" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Retranslate' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Retranslate' }));
    expect(await screen.findByText('The price has changed. Please check the new one.')).toBeTruthy();
  });
});
