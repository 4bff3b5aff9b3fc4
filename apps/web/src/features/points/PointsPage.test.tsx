import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { useAuth } from '../../stores/auth.ts';
import { fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import PointsPage from './PointsPage.tsx';

const record = (id: number, reason: string, detail: Record<string, unknown> | null, type = 'expenditure') => ({
  id,
  type,
  points: 3,
  pointsBefore: 100,
  pointsAfter: type === 'income' ? 103 : 97,
  reason,
  detail,
  createdAt: '2026-01-02T00:00:00.000Z',
});

beforeEach(() => useAuth.getState().setSession('t', makeUser()));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('points history', () => {
  it('says what each record bought: book title, page and action, whatever the book is called now', async () => {
    fakeFetch({
      'GET /api/integral/record/list': ok({
        items: [
          record(1, 'translation', { bookCode: 'mfean8572r9w', bookTitle: 'Moby-Dick', page: 61, language: 'zh' }),
          record(2, 'search', { bookCode: 'mfean8572r9w', bookTitle: 'Moby-Dick', query: 'white whale' }),
          // A row of a book deleted before rows kept its title.
          record(3, 'explanation', { bookCode: 'gone00000000', page: 3 }),
          record(4, 'adminGrant', { by: 1, note: 'Thanks for the bug report' }, 'income'),
          // A whole-book translation: one line for all its pages.
          record(5, 'translation', { bookCode: 'mfean8572r9w', bookTitle: 'Moby-Dick', pages: 455, wholeBook: true }),
        ],
        total: 5,
        page: 1,
        pageSize: 20,
        balance: 97,
        income: 3,
        expenditure: 9,
      }),
    });
    renderPage(<PointsPage />);
    expect(await screen.findAllByText('“Moby-Dick”, page 61 · Translation')).not.toHaveLength(0);
    expect(screen.getAllByText('“Moby-Dick” · Intelligent search')).not.toHaveLength(0);
    expect(screen.getAllByText('Searched for “white whale”')).not.toHaveLength(0);
    expect(screen.getAllByText('Page 3 · Explanation')).not.toHaveLength(0);
    expect(screen.getAllByText('Thanks for the bug report')).not.toHaveLength(0);
    expect(screen.getAllByText('“Moby-Dick”, whole book, 455 pages · Translation')).not.toHaveLength(0);
    expect(screen.queryByText(/mfean8572r9w/)).toBeNull();
  });
});
