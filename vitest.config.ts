import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/shared/vitest.config.ts',
      'apps/server/vitest.config.ts',
      'apps/server/vitest.engines.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
