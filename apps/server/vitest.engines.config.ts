import { defineConfig } from 'vitest/config';

/** Unit tests of the pluggable engines (parsers, language detection, OCR...): no database. */
export default defineConfig({
  test: {
    name: 'engines',
    root: import.meta.dirname,
    include: ['src/engines/**/*.test.ts'],
    testTimeout: 120_000,
  },
});
