import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { CHUNK_RELOAD_FLAG, lazyPage, pageLoader } from './lazyPage.tsx';
import { RouteErrorPage } from './RouteErrorPage.tsx';
import { renderRoutes } from '../test/utils.tsx';

function renderLazy(factory: () => Promise<{ default: () => React.JSX.Element }>) {
  const Page = lazyPage(factory);
  return renderRoutes(
    [
      {
        path: '/',
        errorElement: <RouteErrorPage />,
        element: (
          <Suspense fallback={<div>loading</div>}>
            <Page />
          </Suspense>
        ),
      },
    ],
    '/',
  );
}

const failedImport = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'));

describe('failed page code', () => {
  const reload = vi.fn();
  beforeEach(() => {
    localStorage.removeItem(CHUNK_RELOAD_FLAG);
    pageLoader.reload = reload;
  });
  afterEach(() => reload.mockReset());

  it('first failure: says the client was updated, sets the flag and reloads once', async () => {
    renderLazy(failedImport);
    expect(await screen.findByText('Client updated, refreshing automatically')).toBeTruthy();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(CHUNK_RELOAD_FLAG)).not.toBeNull();
    expect(screen.getByText('loading')).toBeTruthy();
  });

  it('second failure with the flag set: no reload loop, an error page with a manual reload', async () => {
    localStorage.setItem(CHUNK_RELOAD_FLAG, '1');
    renderLazy(failedImport);
    expect(await screen.findByText('This page could not be loaded')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });

  it('clears the flag once a page has rendered', async () => {
    localStorage.setItem(CHUNK_RELOAD_FLAG, '1');
    renderLazy(async () => ({ default: () => <p>page body</p> }));
    expect(await screen.findByText('page body')).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem(CHUNK_RELOAD_FLAG)).toBeNull());
    expect(reload).not.toHaveBeenCalled();
  });
});
