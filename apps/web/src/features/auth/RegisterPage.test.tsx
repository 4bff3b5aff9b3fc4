import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import RegisterPage from './RegisterPage.tsx';
import { PUBLIC_CONFIG, fail, fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import { useAuth } from '../../stores/auth.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

function setup(config: Partial<typeof PUBLIC_CONFIG> = {}, handlers: Parameters<typeof fakeFetch>[0] = {}) {
  const fetch = fakeFetch({ 'GET /api/config/public': ok({ ...PUBLIC_CONFIG, ...config }), ...handlers });
  const user = userEvent.setup();
  const view = renderPage(<RegisterPage />, '/register');
  return { ...fetch, user, view };
}

const emailForm = () => document.querySelector<HTMLFormElement>('#register-email')!;
const field = (form: HTMLElement, name: string) => form.querySelector<HTMLInputElement>(`#${form.id}_${name}`)!;

async function fillEmailForm(user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) {
  const form = emailForm();
  for (const [name, value] of Object.entries(values)) await user.type(field(form, name), value);
}

describe('register page', () => {
  it('requires email, password and confirmation, and the agreement', async () => {
    const { user, calls } = setup();
    await screen.findByRole('tab', { name: /Email/ });
    await user.click(within(emailForm()).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Please enter your email address')).toBeTruthy();
    expect(screen.getByText('Please enter your password')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();
    expect(screen.getByText('Please read and agree to the user agreement')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/auth/register')).toBe(false);
  });

  it('applies the password rule and the confirmation match of SPEC §5.1-5.2', async () => {
    const { user } = setup();
    await screen.findByRole('tab', { name: /Email/ });
    await fillEmailForm(user, { email: 'not-an-email', password: 'short', confirm: 'different' });
    await user.click(within(emailForm()).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('The two passwords do not match')).toBeTruthy();

    await user.clear(field(emailForm(), 'password'));
    await user.type(field(emailForm(), 'password'), 'alllowercase1');
    expect(
      await screen.findByText(
        'Password must be at least 8 characters and include uppercase, lowercase letters and numbers',
      ),
    ).toBeTruthy();
  });

  it('requires the invitation code when the server requires invites', async () => {
    const { user } = setup({ requireInvite: true });
    await waitFor(() => expect(field(emailForm(), 'inviteCode').placeholder).toBe(''));
    await user.click(within(emailForm()).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Please enter the invitation code')).toBeTruthy();
  });

  it('does not ask for an invitation code when invites are off', async () => {
    const { user } = setup({ requireInvite: false });
    await waitFor(() => expect(field(emailForm(), 'inviteCode').placeholder).toBe('Optional'));
    await user.click(within(emailForm()).getByRole('button', { name: 'Create account' }));
    await screen.findByText('Please enter your email address');
    expect(screen.queryByText('Please enter the invitation code')).toBeNull();
  });

  it('registers and shows where the activation link went', async () => {
    const { user, calls } = setup(
      {},
      { 'POST /api/auth/register': ok({ activationRequired: true, account: 'new@example.com' }) },
    );
    await screen.findByRole('tab', { name: /Email/ });
    await fillEmailForm(user, { email: 'new@example.com', password: 'GoodPass1', confirm: 'GoodPass1' });
    await user.click(within(emailForm()).getByRole('checkbox'));
    await user.click(within(emailForm()).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(/We sent an activation link to new@example.com/)).toBeTruthy();
    const body = calls.find((c) => c.path === '/api/auth/register')!.body;
    expect(body).toMatchObject({
      method: 'email',
      email: 'new@example.com',
      password: 'GoodPass1',
      language: 'English',
      uiLanguage: 'en',
    });
    expect(body).not.toHaveProperty('account');
  });

  it('logs in after a registration without activation', async () => {
    const { user } = setup(
      {},
      {
        'POST /api/auth/register': ok({
          activationRequired: false,
          account: 'x@example.com',
          token: 't9',
          user: makeUser(),
        }),
      },
    );
    await screen.findByRole('tab', { name: /Email/ });
    await fillEmailForm(user, { email: 'x@example.com', password: 'GoodPass1', confirm: 'GoodPass1' });
    await user.click(within(emailForm()).getByRole('checkbox'));
    await user.click(within(emailForm()).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Registration successful, automatic login shortly')).toBeTruthy();
    expect(useAuth.getState().token).toBe('t9');
    expect(localStorage.getItem('authToken')).toBe('t9');
  });

  it('says "Registration failed" with the translated reason', async () => {
    const { user } = setup({}, { 'POST /api/auth/register': fail(409, 'emailInUse') });
    await screen.findByRole('tab', { name: /Email/ });
    await fillEmailForm(user, { email: 'taken@example.com', password: 'GoodPass1', confirm: 'GoodPass1' });
    await user.click(within(emailForm()).getByRole('checkbox'));
    await user.click(within(emailForm()).getByRole('button', { name: 'Create account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Registration failed');
    expect(alert.textContent).toContain('This email is already used by another account');
  });

  it('phone tab: sends the code and blocks resending for the retryAfter the server gives', async () => {
    const { user, calls } = setup(
      {},
      {
        'POST /api/auth/getVerificationCode': ok({ retryAfter: 42, sentTo: '138****0000', channel: 'phone' }),
      },
    );
    await user.click(await screen.findByRole('tab', { name: /Phone/ }));
    const form = document.querySelector<HTMLFormElement>('#register-phone')!;
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(await within(form).findByText('Please enter your phone number')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/auth/getVerificationCode')).toBe(false);

    await user.type(field(form, 'phone'), '13800000000');
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    const countdown = await within(form).findByRole('button', { name: /^4[12] s$/ });
    expect((countdown as HTMLButtonElement).disabled).toBe(true);
    expect(within(form).getByText(/Retry after 4[12] seconds/)).toBeTruthy();
    expect(within(form).getAllByText('Code sent to 138****0000').length).toBeGreaterThan(0);
    expect(calls.find((c) => c.path === '/api/auth/getVerificationCode')!.query.get('phone')).toBe('13800000000');
  });

  it('phone tab: a cooldown answer also starts the countdown', async () => {
    const { user } = setup(
      {},
      { 'POST /api/auth/getVerificationCode': fail(429, 'verificationCodeCooldown', { retryAfter: 17 }) },
    );
    await user.click(await screen.findByRole('tab', { name: /Phone/ }));
    const form = document.querySelector<HTMLFormElement>('#register-phone')!;
    await user.type(field(form, 'phone'), '13800000000');
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(await within(form).findByRole('button', { name: /^1[67] s$/ })).toBeTruthy();
    expect(within(form).getByText(/Retry after 1[67] seconds/)).toBeTruthy();
    expect(await screen.findByText('Please wait before requesting another code')).toBeTruthy();
  });
});
