import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import i18n from '../../i18n/index.ts';
import { routes } from '../../shell/routes.tsx';
import { useAuth } from '../../stores/auth.ts';
import { useTabs } from '../../stores/tabs.ts';
import { fakeFetch, makeUser, ok, renderRoutes } from '../../test/utils.tsx';

beforeEach(() => {
  useAuth.getState().setSession('t', makeUser());
  useTabs.getState().clear();
  useTabs.getState().markSynced();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('the New Tab page', () => {
  it("names a book without an author in the interface's language on its cover", async () => {
    await i18n.changeLanguage('zh');
    fakeFetch({
      'GET /api/user/tabs': ok({ tabs: [], active: 'newTab' }),
      'PUT /api/user/tabs': ok({ tabs: [], active: 'newTab' }),
      'GET /api/user/getUserinfo': ok(makeUser()),
      'GET /api/reader/recent': ok([]),
      'GET /api/book/user/list': ok([
        { bookCode: 'b1', bookName: '无名之书', bookAuthor: 'Anonymous', coverUrl: null, originalLanguage: 'en' },
      ]),
    });
    renderRoutes(routes, '/tabs/new');
    expect(await screen.findByText('佚名', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText('Anonymous')).toBeNull();
  });
});
