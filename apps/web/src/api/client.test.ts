import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, request, setUnauthorizedHandler } from './client.ts';
import { errorMessage } from './errors.ts';
import { authApi } from './auth.ts';
import { userApi } from './user.ts';
import { TOKEN_STORAGE_KEY, useAuth } from '../stores/auth.ts';
import { fail, fakeFetch, jsonResponse, makeUser, ok } from '../test/utils.tsx';

describe('api client', () => {
  const onUnauthorized = vi.fn();

  beforeEach(() => {
    useAuth.getState().setSession('tok-1', makeUser());
    setUnauthorizedHandler(onUnauthorized);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    onUnauthorized.mockReset();
    useAuth.getState().clear();
  });

  it('sends the Bearer token to /api and unwraps the envelope', async () => {
    const { calls } = fakeFetch({ 'GET /api/user/getUserinfo': ok(makeUser({ points: 7 })) });
    const user = await userApi.getUserinfo();
    expect(user.points).toBe(7);
    expect(calls[0]!.headers.Authorization).toBe('Bearer tok-1');
  });

  it('sends query parameters and an empty body for the code calls', async () => {
    const { calls } = fakeFetch({
      'POST /api/auth/getVerificationCode': ok({ retryAfter: 60, sentTo: '138****0000', channel: 'phone' }),
    });
    await authApi.getVerificationCode('13800000000', 0);
    expect(calls[0]!.query.get('type')).toBe('0');
    expect(calls[0]!.query.get('phone')).toBe('13800000000');
    expect(calls[0]!.body).toBeUndefined();
  });

  it('throws ApiError with status, code, key, message and details for an error envelope', async () => {
    fakeFetch({ 'POST /api/auth/register': fail(409, 'accountExists', { field: 'account' }, 40901) });
    const error = await authApi.register({ method: 'email', password: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 40901,
      key: 'accountExists',
      message: 'server says accountExists',
    });
    expect((error as ApiError).data?.field).toBe('account');
  });

  it('treats code ≠ 0 as an error even with HTTP 200', async () => {
    fakeFetch({ 'GET /api/x': { status: 200, body: { code: 5, data: null, msg: 'nope' } } });
    await expect(request('/x')).rejects.toMatchObject({ code: 5, message: 'nope' });
  });

  it('on 401 clears the token and goes to /login', async () => {
    fakeFetch({ 'GET /api/user/getUserinfo': fail(401, 'unauthorized') });
    await expect(userApi.getUserinfo()).rejects.toMatchObject({ status: 401, key: 'unauthorized' });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(useAuth.getState().token).toBeNull();
    expect(useAuth.getState().user).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not treat a 401 of the login call as a lost session', async () => {
    fakeFetch({ 'POST /api/auth/login': fail(401, 'unauthorized') });
    await expect(authApi.login({ account: 'a', password: 'b' })).rejects.toBeInstanceOf(ApiError);
    expect(useAuth.getState().token).toBe('tok-1');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('turns a network failure into the translated network message', async () => {
    fakeFetch({ 'GET /api/user/getUserinfo': new TypeError('Failed to fetch') });
    const error = (await userApi.getUserinfo().catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 0, key: 'network' });
    expect(error.message).toBe('Network error, please check your network connection');
    expect(errorMessage(error)).toBe('Network error, please check your network connection');
  });

  it('falls back to the HTTP status text when the answer is not an envelope', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    const error = (await request('/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 502, key: 'unknown', message: 'Bad Gateway' });
    expect(errorMessage(error)).toBe('Bad Gateway');
  });

  it('aborts after the time-out with the time-out message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new Error('aborted')))),
      ),
    );
    await expect(request('/slow', { timeoutMs: 10 })).rejects.toMatchObject({ key: 'timeout' });
  });

  it('passes JSON without an envelope through', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { plain: true })),
    );
    await expect(request('/plain')).resolves.toEqual({ plain: true });
  });
});

describe('errorMessage', () => {
  afterEach(() => vi.unstubAllGlobals());
  const apiError = (key: string, code = 400, message = 'server words') =>
    new ApiError({ status: 400, code, key, message });

  it('translates by error key, not by the server wording', () => {
    expect(errorMessage(apiError('invalidInviteCode'))).toBe('Invalid invitation code');
    expect(errorMessage(apiError('linkExpired'))).toBe('The link has expired');
  });

  it('uses the server message for keys it does not know', () => {
    expect(errorMessage(apiError('somethingNew'))).toBe('server words');
  });

  it('has the login special cases of SPEC §8.2', () => {
    expect(errorMessage(apiError('invalidAccountOrPassword', 1), { context: 'login' })).toBe(
      'Incorrect username or password',
    );
    expect(errorMessage(apiError('noSuchAccount', 2), { context: 'login' })).toBe('User does not exist');
    expect(errorMessage(apiError('somethingNew', 99), { context: 'login' })).toBe('Login failed');
    expect(errorMessage(apiError('accountNotActivated', 403), { context: 'login' })).toMatch(/not activated/);
  });
});
