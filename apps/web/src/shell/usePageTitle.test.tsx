import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { documentTitle, usePageTitle } from './usePageTitle.ts';
import { changeUiLanguage } from '../i18n/index.ts';

function Page({ title, bare }: { title?: string; bare?: boolean }) {
  usePageTitle(title, { bare });
  return null;
}

describe('document title', () => {
  it('is "{page title} · {reader name}", or the reader name alone', () => {
    expect(documentTitle('Yidu', 'Log in')).toBe('Log in · Yidu');
    expect(documentTitle('Yidu')).toBe('Yidu');
    render(<Page title="Points details" />);
    expect(document.title).toBe('Points details · Yidu');
  });

  it('uses the reader name alone without a title', () => {
    render(<Page />);
    expect(document.title).toBe('Yidu');
  });

  it('can be bare (the New Tab page)', () => {
    render(<Page title="New Tab" bare />);
    expect(document.title).toBe('New Tab');
  });

  it('follows the interface language', async () => {
    render(<Page title="登录" />);
    await act(() => changeUiLanguage('zh', { persist: false }));
    expect(document.title).toBe('登录 · 译读');
    await act(() => changeUiLanguage('en', { persist: false }));
    expect(document.title).toBe('登录 · Yidu');
  });
});
