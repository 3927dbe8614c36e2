import fs from 'node:fs';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** How many of the slowest files the end of a run lists. */
const SLOWEST_SHOWN = 15;

/**
 * Ends the run with the slowest files and their seconds (where the run's time goes, for whoever
 * makes it faster next), then the plain closing line CI reads, last: `N passed, N failed` (and
 * skipped, if any).
 */
export default class SummaryReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (testModule.state() === 'failed' && testModule.children.size === 0) failed++;
    }
    // every file's and test's seconds, for whoever looks for where the run's time goes
    const timesFile = process.env.CARTWHEEL_TEST_TIMES;
    if (timesFile) fs.writeFileSync(timesFile, JSON.stringify(testTimes(testModules, this.root), null, 1));
    const slowest = slowestFiles(testModules, this.root);
    if (slowest.length > 1) {
      process.stdout.write(`\nslowest files (seconds in their worker: import, hooks and tests):\n`);
      for (const { file, seconds } of slowest) {
        process.stdout.write(`${seconds.toFixed(1).padStart(8)}  ${file}\n`);
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}

/** A file's time in its worker: its harness, its import, its hooks (platform starts) and its tests. */
export function slowestFiles(
  testModules: ReadonlyArray<TestModule>,
  root: string,
  count = SLOWEST_SHOWN,
): Array<{ file: string; seconds: number }> {
  return testModules
    .map((testModule) => {
      const diagnostic = testModule.diagnostic();
      const ms =
        diagnostic.environmentSetupDuration +
        diagnostic.prepareDuration +
        diagnostic.collectDuration +
        diagnostic.setupDuration +
        diagnostic.duration;
      const file = testModule.moduleId.startsWith(`${root}/`)
        ? testModule.moduleId.slice(root.length + 1)
        : testModule.moduleId;
      return { file, seconds: ms / 1000 };
    })
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
}

/** Each file's seconds (as `slowestFiles` counts them) with each of its tests' seconds, slowest first. */
export function testTimes(testModules: ReadonlyArray<TestModule>, root: string) {
  return testModules
    .map((testModule) => {
      const { file, seconds } = slowestFiles([testModule], root)[0]!;
      const tests = [...testModule.children.allTests()]
        .map((test) => ({ name: test.fullName, seconds: (test.diagnostic()?.duration ?? 0) / 1000 }))
        .sort((a, b) => b.seconds - a.seconds);
      return { file, seconds, tests };
    })
    .sort((a, b) => b.seconds - a.seconds);
}
