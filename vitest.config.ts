import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'e2e/**/*.test.ts', 'tools/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // the suites that start a platform start its build: make sure it is the source's
    globalSetup: ['./tools/vitest-built-platform.ts'],
    reporters: ['default', './tools/vitest-summary-reporter.ts'],
  },
});
