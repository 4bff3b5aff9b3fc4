import { describe, expect, it } from 'vitest';
import { loadConfig } from './env.ts';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const result = loadConfig({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      role: 'all',
    });
    expect(result.config.dataDir).toMatch(/[/\\]data$/);
    expect(result.config.accounts).toMatchObject({ requireInvite: true, emailActivation: true, startingPoints: 1000 });
    expect(result.config.codes.resendSeconds).toBe(60);
  });

  it('lists every problem at once', () => {
    const result = loadConfig({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://nope',
      REQUIRE_INVITE: 'maybe',
      APP_SECRET: 'short',
      SMTP_URL: 'http://mail',
      ADMIN_ACCOUNT: 'root',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.errors.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'REQUIRE_INVITE', 'APP_SECRET', 'SMTP_URL'])
      expect(text).toContain(name);
  });

  it('takes PDF_HELPER_THREADS from 0 to 3, or leaves the count to the machine', () => {
    const unset = loadConfig({});
    expect(unset.ok && unset.config.books.pdfHelperThreads).toBeUndefined();
    const none = loadConfig({ PDF_HELPER_THREADS: '0' });
    expect(none.ok && none.config.books.pdfHelperThreads).toBe(0);
    const many = loadConfig({ PDF_HELPER_THREADS: '8' });
    expect(many.ok).toBe(false);
    if (!many.ok) expect(many.errors.join('\n')).toContain('PDF_HELPER_THREADS');
  });

  it('needs both admin variables or neither', () => {
    const result = loadConfig({ ADMIN_ACCOUNT: 'root' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toContain('ADMIN_PASSWORD');
  });
});
