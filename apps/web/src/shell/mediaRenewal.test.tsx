import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, waitFor } from '@testing-library/react';
import { UserInfoContent } from '../features/account/UserInfoPopover.tsx';
import { useAuth } from '../stores/auth.ts';
import { fakeFetch, makeUser, ok, renderPage } from '../test/utils.tsx';
import { isExpiredMediaUrl } from './mediaRenewal.ts';

const inSixHours = () => Math.floor(Date.now() / 1000) + 6 * 3600;

describe('expiring media URLs', () => {
  it('knows a signed URL that has expired, and leaves other URLs alone', () => {
    const now = Date.UTC(2026, 10, 24, 12);
    expect(isExpiredMediaUrl(`/api/media/a.jpg?exp=${now / 1000}&sig=x`, now)).toBe(true);
    expect(isExpiredMediaUrl(`/api/media/a.jpg?exp=${now / 1000 + 1}&user=1&book=2&sig=x`, now)).toBe(false);
    expect(isExpiredMediaUrl('/c.jpg', now)).toBe(false);
    expect(isExpiredMediaUrl('data:image/png;base64,AAAA', now)).toBe(false);
  });
});

describe('an avatar whose URL expired', () => {
  beforeEach(() => {
    useAuth.setState({ token: 't1', user: makeUser({ avatar: '/api/media/avatars/a.jpg?exp=1000&sig=old' }) });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useAuth.getState().clear();
  });

  it('fetches the user info again, which brings a fresh URL', async () => {
    const fresh = `/api/media/avatars/a.jpg?exp=${inSixHours()}&sig=new`;
    const { calls } = fakeFetch({ 'GET /api/user/getUserinfo': ok(makeUser({ avatar: fresh })) });
    renderPage(<UserInfoContent />);
    fireEvent.error(document.querySelector('.yd-avatar img')!);
    await waitFor(() => expect(useAuth.getState().user?.avatar).toBe(fresh));
    expect(calls.filter((c) => c.path === '/api/user/getUserinfo')).toHaveLength(1);
    await waitFor(() => expect(document.querySelector('.yd-avatar img')?.getAttribute('src')).toBe(fresh));
  });
});
