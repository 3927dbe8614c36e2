/**
 * Vitest's global setup: the suites that start a platform run its build (`dist/main.js`, as `npm start`
 * does), so before any of them runs the build must be that of the source as it is now. `npm test` has
 * just built it; a developer running one file after an edit gets it rebuilt here (under a second).
 *
 * It also prepares the run's databases (packages/platform/test/support/databases.ts): a migrated
 * template per dialect that each test's store database is copied from, and the janitor that drops the
 * PostgreSQL databases files are done with; the run's end removes them all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildPlatform, PLATFORM_BUNDLE, REPO_ROOT } from '../packages/platform/scripts/build.ts';
import { prepareTestRun } from '../packages/platform/test/support/databases.ts';

/** What the platform's build is made of: its own source and the workspace packages it bundles. */
const SOURCES = ['packages/platform/src', 'packages/platform/scripts', 'packages/sdk/src'];

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.CARTWHEEL_TEST_PLATFORM !== 'source') {
    const built = fs.existsSync(PLATFORM_BUNDLE) ? fs.statSync(PLATFORM_BUNDLE).mtimeMs : 0;
    if (SOURCES.some((dir) => newestChange(path.join(REPO_ROOT, dir)) > built)) await buildPlatform();
  }
  return prepareTestRun();
}

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}
