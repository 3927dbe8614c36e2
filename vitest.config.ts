import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** The workspace's packages resolve to their TypeScript source (their exports' `@cartwheel/source`): tests need no build of them. */
const SOURCE = '@cartwheel/source';

/**
 * graphql-js as Node loads it (its CommonJS `main`), for the platform's build or source run inside a
 * test's process: mercurius `require`s that file, and graphql-js refuses a schema made by a second copy
 * (the `.mjs` Vite's resolver would pick by the package's `module` field).
 */
const GRAPHQL = createRequire(import.meta.url).resolve('graphql');

export default defineConfig({
  resolve: {
    conditions: [SOURCE, ...defaultClientConditions],
    alias: [{ find: /^graphql$/, replacement: GRAPHQL }],
  },
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'e2e/**/*.test.ts', 'tools/test/**/*.test.ts'],
    testTimeout: 30_000,
    // Two files at once even on two cores: a file spends most of its time waiting on a platform
    // process, a browser or a database, not on its own CPU (one at a time left a core idle).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker keeps the modules it has loaded from one file to its next: every file imports the
    // platform's source (for the services a test opens beside the platform), and loading it afresh
    // was seconds of CPU per file, the largest share of the run after the platforms' own starts.
    // Files share no state but those modules': none mocks a module or leaves a global changed.
    isolate: false,
    hookTimeout: 60_000,
    // the suites that start a platform start its build: make sure it is the source's
    globalSetup: ['./tools/vitest-built-platform.ts'],
    reporters: ['default', './tools/vitest-summary-reporter.ts'],
  },
});
