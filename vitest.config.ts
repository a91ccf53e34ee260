import { defineConfig } from 'vitest/config';

/** Unit and integration tests of every package (end-to-end tests are Playwright's, in e2e/). */
export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'server/src/**/*.test.ts', 'server/test/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'eval/src/**/*.test.ts', 'eval/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
