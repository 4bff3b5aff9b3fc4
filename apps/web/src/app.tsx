import { useEffect, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './shell/AppProviders.tsx';
import { routes } from './shell/routes.tsx';
import { setUnauthorizedHandler } from './api/client.ts';
import { useSessionBootstrap } from './shell/session.ts';
import { loginPathFor } from './shell/guards.tsx';
import { useOfflineSetup } from './features/offline/setup.ts';

const router = createBrowserRouter(routes);

// A 401 anywhere: the client has cleared the token; go to /login without reloading the app.
setUnauthorizedHandler(() => {
  const location = router.state.location;
  if (location.pathname === '/login') return;
  void router.navigate(loginPathFor(location), { replace: true });
});

export function App() {
  const [queryClient] = useState(createQueryClient);
  useSessionBootstrap();
  useOfflineSetup(queryClient);
  useEffect(() => {
    document.body.classList.add('yd-ready');
  }, []);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
