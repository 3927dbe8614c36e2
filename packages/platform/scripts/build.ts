/**
 * Builds the platform for production: ES modules in `dist/` (`main.js`, the command; `index.js`, the
 * module; and the chunks they share), from `src/` and the workspace packages it imports
 * (`@cartwheel/*`), with every npm dependency left to node_modules. `npm start` runs it: plain JavaScript starts faster than transpiling on the fly with
 * tsx, and runs faster too (tsx keeps function names by wrapping every closure it creates).
 *
 * Code splitting is on so that a dynamic `import()` (the SDK loads its member sign-in flows that way)
 * stays a real chunk boundary. Without it, esbuild inlines the imported module and wraps it, and every
 * module it shares with the rest of the bundle, in a lazy initialiser that runs only when the `import()`
 * does: a value such a module exports is `undefined` until then, and a module-level expression that
 * reads it (a spread of the SDK's error codes, say) silently reads nothing. `assertNoLazyModules` fails
 * the build if any module is wrapped that way again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PLATFORM_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(PLATFORM_DIR, '../..');
const PLATFORM_DIST = path.join(PLATFORM_DIR, 'dist');
export const PLATFORM_BUNDLE = path.join(PLATFORM_DIST, 'main.js');
/** The built `src/index.ts`: `startPlatform` and the configuration, for a program that runs the platform itself. */
export const PLATFORM_MODULE = path.join(PLATFORM_DIST, 'index.js');

/**
 * The Node.js flags `npm start` runs the platform with (the root package.json's `start` script, their
 * one source): the bench and the tests run the platform as a shop runs it, flags and all.
 */
export function productionNodeFlags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const start = String(manifest.scripts?.start ?? '');
  const found = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+packages\/platform\/dist\/main\.js/.exec(start);
  if (!found) throw new Error(`the start script no longer runs node on the platform's bundle: ${start}`);
  return found[1]!.trim().split(/\s+/).filter(Boolean);
}

/**
 * The npm packages the build takes into the bundle instead of loading them from `node_modules` at
 * run time: ES modules of hundreds of small files each (Kysely's builders, TypeBox's types), which
 * Node resolved, read and compiled one by one at every start: 40% of the time to load the platform
 * (about 0.5 s of 1.3 s on this machine), paid by each process behind a load balancer when it starts and
 * by each of the test run's ~300 platform starts. They have no native parts, no files of their own to
 * read and no state a second copy could split; every other package stays external.
 */
const BUNDLED_PACKAGES = ['kysely', 'typebox'];

/** `kysely` of `kysely/helpers/postgres`, `@scope/name` of `@scope/name/sub`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

export async function buildPlatform(): Promise<string> {
  fs.rmSync(PLATFORM_DIST, { recursive: true, force: true });
  const result = await build({
    // the command, and the module a program (or an in-process test) starts the platform from
    entryPoints: [path.join(PLATFORM_DIR, 'src/main.ts'), path.join(PLATFORM_DIR, 'src/index.ts')],
    outdir: PLATFORM_DIST,
    entryNames: '[name]',
    // beside the entries, not below them: a path the code makes from its own file (the apps it
    // serves, `../../../apps`) means the same from every file of the build
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    metafile: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    // the workspace's packages from their TypeScript source (their exports' `@cartwheel/source`)
    conditions: ['@cartwheel/source', 'module'],
    plugins: [
      {
        name: 'npm-dependencies-stay-external',
        setup(builder) {
          // a bare import is an npm package (resolved at run time) unless it is one of ours, or one
          // of the few the build takes in (BUNDLED_PACKAGES)
          builder.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@cartwheel/') || BUNDLED_PACKAGES.includes(packageOf(args.path))
              ? undefined
              : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  assertNoLazyModules(Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js')));
  return PLATFORM_BUNDLE;
}

/**
 * esbuild marks a module it had to wrap in a lazy initialiser with `__esm(`; in a split ES module build
 * nothing should need one, so finding it means some module's values may be read before they exist.
 */
function assertNoLazyModules(outputs: string[]): void {
  const wrapped = outputs.filter((file) => fs.readFileSync(file, 'utf8').includes('= __esm('));
  if (wrapped.length > 0) {
    throw new Error(
      `the platform build wraps modules in lazy initialisers (${wrapped.join(', ')}): a module-level value read from them may be undefined at run time`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildPlatform();
  console.log(`built ${path.relative(process.cwd(), PLATFORM_BUNDLE)}`);
}
