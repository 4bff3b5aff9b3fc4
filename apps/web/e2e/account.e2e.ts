import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { activationLinkFor, launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';

/** Mints a single-use invitation code as the admin, through the API. */
async function inviteCode(baseUrl: string, admin: { account: string; password: string }): Promise<string> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const { data } = (await login.json()) as { data: { token: string } };
  const res = await fetch(`${baseUrl}/api/admin/invite-codes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${data.token}` },
    body: JSON.stringify({ count: 1, maxUses: 1 }),
  });
  return ((await res.json()) as { data: { codes: string[] } }).data.codes[0]!;
}

describe('an account, from registration to logout, in a real browser', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  for (const language of ['zh', 'en']) {
    it(`registers by email, activates from the outbox link, logs in, sees the points and logs out (${language})`, async () => {
      const t = wording(language);
      const email = `reader-${language}-${Date.now()}@example.com`;
      const password = 'Reading2026';
      const code = await inviteCode(baseUrl, inject('admin'));
      const { context, page } = await newPage(browser, language, baseUrl);
      try {
        await page.goto('/register');
        await page.locator('#register-email_email').fill(email);
        await page.locator('#register-email_password').fill(password);
        await page.locator('#register-email_confirm').fill(password);
        await page.locator('#register-email_nickname').fill(language === 'zh' ? '小读者' : 'Reader');
        await page.locator('#register-email_inviteCode').fill(code);
        await page.locator('#register-email_agreement').check();
        await page.getByRole('button', { name: buttonName(t('register.submit')) }).click();
        await page.getByText(email).first().waitFor();

        const link = await activationLinkFor(dataDir, email);
        await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
        await page.getByText(t('confirm.successTitle')).waitFor();
        await page
          .getByRole('button', { name: buttonName(t('confirm.login')) })
          .or(page.getByRole('link', { name: buttonName(t('confirm.login')) }))
          .first()
          .click();

        await page.waitForURL('**/login**');
        await page.locator('#login_account').fill(email);
        await page.locator('#login_password').fill(password);
        await page.getByRole('button', { name: buttonName(t('login.submit')) }).click();
        await page.waitForURL('**/books/all');
        expect(await page.evaluate(() => window.localStorage.getItem('authToken'))).toBeTruthy();

        await page.getByRole('button', { name: buttonName(t('user.accountMenu')) }).click();
        await expect.poll(() => page.getByTestId('points-balance').innerText()).toMatch(/1,?000/);
        await page.getByRole('button', { name: buttonName(t('user.logout')) }).click();
        await page.locator('.ant-modal-confirm-title', { hasText: t('user.logoutConfirm') }).waitFor();
        await page
          .locator('.ant-modal-confirm-btns')
          .getByRole('button', { name: buttonName(t('user.logout')) })
          .click();
        await page.waitForURL('**/login**');
        await page.getByText(t('user.loggedOut')).first().waitFor();
        expect(await page.evaluate(() => window.localStorage.getItem('authToken'))).toBeNull();

        // The revoked session cannot come back: a guarded page sends the browser to the login page.
        await page.goto('/books/user');
        await page.waitForURL('**/login**');
      } finally {
        await context.close();
      }
    });
  }
});
