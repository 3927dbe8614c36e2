/**
 * The tsdown build of a publishable workspace library (`@cartwheel/sdk`, `@cartwheel/react`): its entries
 * are read from the package's own `exports` map, where each subpath names its source under the
 * `@cartwheel/source` condition and its build under `default` (`./dist/<name>.js`), so adding a subpath
 * is one edit to package.json and the build follows.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { UserConfig } from 'tsdown';

/** The export condition that resolves a workspace package to its TypeScript source (tsconfig, vite, vitest, esbuild, tsx). */
export const SOURCE_CONDITION = '@cartwheel/source';

interface ExportTarget {
  [SOURCE_CONDITION]?: string;
  types?: string;
  default?: string;
}

/** `{ 'index': 'src/index.ts', 'auth': 'src/auth/index.ts', ... }`: the build's entries, from the exports map. */
export function entriesOf(packageDir: string): Record<string, string> {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(manifest.exports as Record<string, ExportTarget | string>)) {
    if (typeof target === 'string') continue; // ./package.json
    const source = target[SOURCE_CONDITION];
    const built = target.default;
    if (!source || !built || !target.types) {
      throw new Error(`exports["${subpath}"] must name ${SOURCE_CONDITION}, types and default`);
    }
    const name = /^\.\/dist\/(.+)\.js$/.exec(built)?.[1];
    if (!name || target.types !== `./dist/${name}.d.ts`) {
      throw new Error(`exports["${subpath}"]: default must be ./dist/<name>.js and types ./dist/<name>.d.ts`);
    }
    entries[name] = source;
  }
  return entries;
}

export function libraryConfig(packageDir: string): UserConfig {
  return {
    cwd: packageDir,
    entry: entriesOf(packageDir),
    outDir: 'dist',
    format: 'esm',
    // the code runs in browsers, Node and edge runtimes alike: no Node built-ins, no Node shims
    platform: 'neutral',
    target: 'es2022',
    // `.js` and `.d.ts` beside each other, as the exports map names them
    fixedExtension: false,
    dts: { sourcemap: true },
    sourcemap: true,
    clean: true,
    // Dependencies and peer dependencies stay imports, resolved from the app's node_modules; so do the
    // packages their types come from (TanStack Query's core, in the React hooks' inferred types).
    deps: { neverBundle: [/^@tanstack\//, /^react(-dom)?(\/|$)/, /^@cartwheel\//], onlyBundle: false },
    tsconfig: path.join(packageDir, 'tsconfig.json'),
  };
}
