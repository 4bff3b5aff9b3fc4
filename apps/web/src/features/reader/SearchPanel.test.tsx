import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SearchResult } from '@yidu/shared/ai';
import { useAuth } from '../../stores/auth.ts';
import { fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import { HighlightedText } from './HighlightedText.tsx';
import { SearchPanel } from './SearchPanel.tsx';

const hostile = '<img src=x onerror="alert(1)">';
const result: SearchResult = {
  hits: [
    {
      blockId: 'c13-b4',
      page: 66,
      chapterTitle: 'Chapter 13. Wheelbarrow.',
      position: 900,
      snippet: `“Kill-e,” cried Queequeg ${hostile}, and Queequeg’s harpoon`,
      highlights: [
        { start: 16, end: 24 },
        { start: 61, end: 69 },
      ],
      occurrences: 2,
      inTranslation: false,
    },
    {
      blockId: 'c3-b40',
      page: 20,
      chapterTitle: 'Chapter 3. The Spouter-Inn.',
      position: 300,
      snippet: '魁魁格是标枪手。',
      highlights: [{ start: 0, end: 3 }],
      occurrences: 1,
      inTranslation: true,
    },
  ],
  stats: {
    passages: 171,
    occurrences: 252,
    keywords: [{ keyword: 'queequeg', passages: 171, occurrences: 252 }],
    ignored: ['who', 'is'],
    truncated: false,
  },
  answer: null,
  charge: null,
};

beforeEach(() => useAuth.getState().setSession('t', makeUser({ languageCode: 'zh' })));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('the search panel', () => {
  async function searchFor(query: string) {
    const { calls } = fakeFetch({ 'POST /api/reader/search': ok(result) });
    const onJump = vi.fn();
    renderPage(<SearchPanel bookCode="BK1" language="zh" features={new Set(['search'])} onJump={onJump} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search this book' }), query);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('171 passages, 252 matches');
    return { calls, onJump, user };
  }

  it('marks exactly the matched words and shows book text as text, never as HTML', async () => {
    const { calls } = await searchFor('Who is Queequeg?');
    expect(calls[0]!.body).toMatchObject({ bookCode: 'BK1', language: 'zh', query: 'Who is Queequeg?', ai: false });
    const [first, second] = screen.getAllByRole('listitem');
    expect([...first!.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Queequeg', 'Queequeg']);
    expect([...second!.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['魁魁格']);
    // The snippet's markup-like text is shown as it is written; no element comes from it.
    expect(first!.querySelector('img')).toBeNull();
    expect(first!.textContent).toContain(hostile);
    expect(first!.textContent).toContain('“Kill-e,” cried Queequeg');
  });

  it('shows the counts, the words left out, and where each hit is', async () => {
    await searchFor('Who is Queequeg?');
    expect(screen.getByText('showing the best 2', { exact: false })).toBeTruthy();
    expect(screen.getByText('Left out common words: who, is')).toBeTruthy();
    const [first, second] = screen.getAllByRole('listitem');
    expect(within(first!).getByText(/Chapter 13\. Wheelbarrow\. · p\. 66 · 2 matches/)).toBeTruthy();
    expect(within(second!).getByText(/1 match/)).toBeTruthy();
    expect(within(second!).getByText('in the translation')).toBeTruthy();
  });

  it('jumps to the passage of a hit, and lists the hits in book order on request', async () => {
    const { onJump, user } = await searchFor('Queequeg');
    await user.click(within(screen.getAllByRole('listitem')[0]!).getByRole('button'));
    expect(onJump).toHaveBeenCalledWith(66, 'c13-b4');
    await user.click(screen.getByText('Book order'));
    expect(screen.getAllByRole('listitem').map((li) => li.textContent?.slice(0, 10))).toEqual([
      'Chapter 3.',
      'Chapter 13',
    ]);
  });
});

describe('highlighted text', () => {
  it('ignores ranges that overlap, run past the end or are empty', () => {
    const { container } = render(
      <HighlightedText
        text="abcdef"
        highlights={[
          { start: 4, end: 9 },
          { start: 0, end: 2 },
          { start: 1, end: 3 },
          { start: 3, end: 3 },
          { start: 2, end: 4 },
        ]}
      />,
    );
    expect(container.textContent).toBe('abcdef');
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['ab', 'cd']);
  });
});
