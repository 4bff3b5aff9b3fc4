import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { UserInfo } from '@yidu/shared/auth';
import { AppProviders, createQueryClient } from '../shell/AppProviders.tsx';
import { setUnauthorizedHandler } from '../api/client.ts';
import { loginPathFor } from '../shell/guards.tsx';

export interface FakeCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

type FakeAnswer = { status?: number; body: unknown } | Error;
type FakeHandler = FakeAnswer | ((call: FakeCall) => FakeAnswer | Promise<FakeAnswer>);

/** A fake `fetch` (the browser boundary): answers by 'METHOD /api/path'; unknown calls answer 404. */
export function fakeFetch(handlers: Record<string, FakeHandler>) {
  const calls: FakeCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call: FakeCall = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
      headers: (init?.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const handler = handlers[`${call.method} ${call.path}`];
    const answer = typeof handler === 'function' ? await handler(call) : handler;
    if (answer instanceof Error) throw answer;
    if (!answer) return jsonResponse(404, { code: 404, data: { key: 'notFound' }, msg: '404 Not Found' });
    return jsonResponse(answer.status ?? 200, answer.body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText: status === 200 ? 'OK' : 'Error',
    headers: { 'Content-Type': 'application/json' },
  });
}

export const ok = (data: unknown) => ({ status: 200, body: { code: 0, data, msg: 'ok' } });
export const fail = (status: number, key: string, extra: Record<string, unknown> = {}, code = status) => ({
  status,
  body: { code, data: { key, ...extra }, msg: `server says ${key}` },
});

export const PUBLIC_CONFIG = {
  requireInvite: false,
  emailActivation: true,
  phoneRegistration: true,
  codeResendSeconds: 60,
  contactEmail: 'help@example.com',
  version: 'test',
};

export function makeUser(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 1,
    account: 'reader@example.com',
    username: 'reader',
    nickname: 'Reader',
    email: 'reader@example.com',
    phone: null,
    avatar: null,
    inviteCode: 'ABC123',
    role: 'user',
    language: 'Chinese',
    languageCode: 'zh',
    commonLanguages: [],
    defaultSharePublic: false,
    deductMode: 'autoDeduct',
    translationEngine: null,
    pendingEmail: null,
    showNameOnShares: true,
    points: 1234,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Renders routes in a memory router inside the app providers; 401s navigate like the real app. */
export function renderRoutes(routes: RouteObject[], initialEntry: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  setUnauthorizedHandler(() => void router.navigate(loginPathFor(router.state.location), { replace: true }));
  const utils = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router };
}

/** Renders one element at a path (with a catch-all so navigations elsewhere land somewhere visible). */
export function renderPage(element: ReactElement, path = '/', initialEntry = path) {
  return renderRoutes(
    [
      { path, element },
      { path: '*', element: <div data-testid="elsewhere" /> },
    ],
    initialEntry,
  );
}
