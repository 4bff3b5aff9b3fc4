import { defineConfig } from 'vitest/config';

/** Integration tests: real PostgreSQL (embedded, started once per run), the app driven over HTTP. */
export default defineConfig({
  test: {
    name: 'server',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['src/engines/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
