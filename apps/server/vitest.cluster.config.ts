import { defineConfig } from 'vitest/config';

/**
 * The cluster of docs/DEPLOYMENT.md run for real: Debian's PostgreSQL, s3rver, two API and two worker
 * processes (test/cluster). Needs the `postgresql` package, so it runs apart: `npm run test:cluster`.
 */
export default defineConfig({
  test: {
    name: 'cluster',
    root: import.meta.dirname,
    include: ['test/cluster/**/*.cluster.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
