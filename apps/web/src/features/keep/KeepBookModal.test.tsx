import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useAuth } from '../../stores/auth.ts';
import { fail, fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import { KeepBookModal } from './KeepBookModal.tsx';

const status = (state: string, pagesDone: number) => ({
  id: 1,
  language: 'zh',
  state,
  pageCount: 10,
  pagesDone,
  percent: pagesDone * 10,
  pointsReserved: 42,
  pointsCharged: pagesDone * 4,
  failedParagraphs: 0,
  errorKey: null,
  startedAt: '2026-01-02T00:00:00.000Z',
  finishedAt: state === 'running' ? null : '2026-01-02T00:01:00.000Z',
});

const quote = {
  language: 'zh',
  points: 42,
  freshCharacters: 20_000,
  cachedCharacters: 1_000,
  pageCount: 10,
  pagesToPay: 9,
  paragraphsToTranslate: 120,
  available: 500,
};

const modal = () => (
  <KeepBookModal open onClose={() => {}} bookCode="moby" bookName="Moby-Dick" originalLanguage="en" language="zh" />
);

beforeEach(() => useAuth.getState().setSession('t', makeUser()));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('translating a whole book and exporting it', () => {
  it('quotes, starts at the confirmed price, shows the progress and cancels', async () => {
    let current: unknown = null;
    const { calls } = fakeFetch({
      'GET /api/book/translation/status': () => ok(current),
      'GET /api/book/translation/quote': ok(quote),
      'POST /api/book/translation/start': () => ok((current = status('running', 3))),
      'POST /api/book/translation/cancel': () => ok((current = status('cancelled', 3))),
    });
    renderPage(modal());
    fireEvent.click(await screen.findByRole('button', { name: /Translate whole book/ }));
    const card = await screen.findByTestId('keep-quote');
    expect(within(card).getByText('42')).toBeTruthy();
    expect(
      within(card).getByText(/9 pages to pay for: 20,000 characters to translate, 1,000 already translated/),
    ).toBeTruthy();
    expect(within(card).getByText('You have 500 points available.')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Translate for 42 points' }));

    const progress = await screen.findByTestId('keep-progress');
    expect(calls.find((c) => c.path === '/api/book/translation/start')?.body).toEqual({
      bookCode: 'moby',
      language: 'zh',
      points: 42,
    });
    expect(within(progress).getByText(/3 of 10 pages translated/)).toBeTruthy();
    expect(within(progress).getByText(/12 of 42 reserved points used/)).toBeTruthy();
    fireEvent.click(within(progress).getByRole('button', { name: /Cancel translation/ }));
    const confirm = (await screen.findAllByText('Stop translating this book?'))[0]!.closest(
      '.ant-modal',
    ) as HTMLElement;
    fireEvent.click(within(confirm).getByRole('button', { name: /Cancel translation/ }));
    expect(await screen.findByText('Cancelled after 3 of 10 pages.')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Translate the rest/ })).toBeTruthy();
  });

  it('says how much is missing when the export is refused, and offers to translate the rest', async () => {
    fakeFetch({
      'GET /api/book/translation/status': ok(null),
      'GET /api/book/translation/quote': ok(quote),
      'GET /api/book/export': fail(409, 'bookNotTranslated', { missingPages: 7, missingParagraphs: 80 }),
    });
    renderPage(modal());
    fireEvent.click(await screen.findByRole('radio', { name: 'Translation only' }));
    fireEvent.click(screen.getByRole('button', { name: /Download EPUB/ }));
    const alert = await screen.findByText(/7 pages are not translated for you yet/);
    const box = alert.closest('.ant-alert') as HTMLElement;
    fireEvent.click(within(box).getByRole('button', { name: 'Translate the rest' }));
    await waitFor(() => expect(screen.getByTestId('keep-quote')).toBeTruthy());
  });

  it('does not let a reader confirm a price their points do not cover', async () => {
    fakeFetch({
      'GET /api/book/translation/status': ok(null),
      'GET /api/book/translation/quote': ok({ ...quote, available: 10 }),
    });
    renderPage(modal());
    fireEvent.click(await screen.findByRole('button', { name: /Translate whole book/ }));
    expect(await screen.findByText('Not enough points: 42 needed, 10 available.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Translate for 42 points' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
