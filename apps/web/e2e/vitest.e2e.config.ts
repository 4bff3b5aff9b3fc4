import { defineConfig } from 'vitest/config';

/**
 * Browser journeys: the real server (embedded PostgreSQL, built web app) in a child process, driven
 * through Debian's chromium with playwright-core. Run with `npm run test:e2e` (it builds the web app).
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./server.setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // One browser journey at a time: the machine has two cores and the server needs one.
    fileParallelism: false,
  },
});
