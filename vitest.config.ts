import { availableParallelism } from 'node:os';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** The workspace's packages resolve to their TypeScript source (their exports' `@cartwheel/source`): tests need no build of them. */
const SOURCE = '@cartwheel/source';

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'e2e/**/*.test.ts', 'tools/test/**/*.test.ts'],
    testTimeout: 30_000,
    // Two files at once even on two cores: a file spends most of its time waiting on a platform
    // process, a browser or a database, not on its own CPU (one at a time left a core idle).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 60_000,
    // the suites that start a platform start its build: make sure it is the source's
    globalSetup: ['./tools/vitest-built-platform.ts'],
    reporters: ['default', './tools/vitest-summary-reporter.ts'],
  },
});
