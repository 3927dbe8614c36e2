import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { REPO_ROOT } from './support/paths.ts';

export interface BundleSize {
  /** What a page loads before its first call: the entry chunk and the chunks it imports statically. */
  minified: number;
  gzipped: number;
  /** Every chunk, the ones loaded on demand (`import()`) included. */
  allMinified: number;
  allGzipped: number;
}

export interface SdkSizeResult {
  cartwheel: BundleSize;
  hosted: BundleSize;
  /** Cartwheel's gzipped size over the hosted client's. */
  ratio: number;
  /** What the Cartwheel bundle holds, and what of a storefront's calls it could not hold yet. */
  included: string[];
  missing: string[];
  /** What the hosted bundle holds: the same calls, from its own packages. */
  hostedIncluded: string[];
  /** The package measured: `@cartwheel/sdk@<version>`, from its `npm pack` tarball (the build users install). */
  cartwheelPackage: string;
  /** The hosted client's packages, as installed from npm. */
  hostedPackages: string[];
}

/**
 * `@cartwheel/sdk` as users install it: built (`npm run build -w packages/sdk`, when its `dist/` is
 * older than its source), packed by `npm pack` and unpacked into `node_modules` of a folder of its
 * own, so the bundle below resolves it by its published `exports`, never from the workspace source.
 */
function installPackedSdk(): { dir: string; version: string } {
  const sdkDir = path.join(REPO_ROOT, 'packages/sdk');
  const newest = (dir: string) =>
    fs.existsSync(dir)
      ? Math.max(
          0,
          ...fs
            .readdirSync(dir, { withFileTypes: true, recursive: true })
            .filter((entry) => entry.isFile())
            .map((entry) => fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs),
        )
      : 0;
  if (
    !fs.existsSync(path.join(sdkDir, 'dist/index.js')) ||
    newest(path.join(sdkDir, 'src')) > newest(path.join(sdkDir, 'dist'))
  ) {
    execFileSync('npm', ['run', 'build', '-w', 'packages/sdk'], { cwd: REPO_ROOT, stdio: 'ignore' });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartwheel-sdk-size-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir, '-w', 'packages/sdk'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }),
  )[0] as { filename: string; version: string };
  const target = path.join(dir, 'node_modules/@cartwheel/sdk');
  fs.mkdirSync(target, { recursive: true });
  execFileSync('tar', ['xzf', path.join(dir, packed.filename), '-C', target, '--strip-components=1']);
  return { dir, version: packed.version };
}

const installedVersion = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;

/** The storefront's calls: visitor auth, the catalog, the current cart, its checkout, the buyer's orders. */
const CARTWHEEL_MODULES = ['products', 'collections', 'currentCart', 'checkout', 'orders'] as const;

/**
 * A storefront's SDK, bundled for the browser (esbuild: bundle, split, minify, ESM) and gzipped:
 * Cartwheel's `@cartwheel/sdk` next to the same imports from the hosted platform's own client
 * packages. The figure is what a page loads up front; the note adds the chunks loaded on demand.
 */
export async function measureSdkSize(): Promise<SdkSizeResult> {
  const packed = installPackedSdk();
  const sdkEntry = path.join(packed.dir, 'node_modules/@cartwheel/sdk/dist/index.js');
  // the modules Cartwheel exports so far; the rest are named in the printed note
  const sdk = (await import(pathToFileURL(sdkEntry).href)) as Record<string, unknown>;
  const included = CARTWHEEL_MODULES.filter((name) => name in sdk);
  const missing = CARTWHEEL_MODULES.filter((name) => !(name in sdk));

  const cartwheel = await bundle(
    `
    import { createClient, OAuthStrategy, ${included.join(', ')} } from '@cartwheel/sdk';
    export function createStorefrontClient(clientId) {
      return createClient({ auth: OAuthStrategy({ clientId }), modules: { ${included.join(', ')} } });
    }
  `,
    packed.dir,
  );
  fs.rmSync(packed.dir, { recursive: true, force: true });
  const hosted = await bundle(`
    import { createClient, OAuthStrategy } from '@wix/sdk';
    import { products, collections } from '@wix/stores';
    import { currentCart, checkout, orders } from '@wix/ecom';
    export function createStorefrontClient(clientId) {
      return createClient({
        auth: OAuthStrategy({ clientId }),
        modules: { products, collections, currentCart, checkout, orders },
      });
    }
  `);
  return {
    cartwheel,
    hosted,
    ratio: cartwheel.gzipped / hosted.gzipped,
    included: ['createClient', 'OAuthStrategy', ...included],
    missing: [...missing],
    hostedIncluded: ['createClient', 'OAuthStrategy', ...CARTWHEEL_MODULES],
    cartwheelPackage: `@cartwheel/sdk@${packed.version} (npm pack)`,
    hostedPackages: ['@wix/sdk', '@wix/stores', '@wix/ecom'].map(
      (name) => `${name}@${installedVersion(name)}`,
    ),
  };
}

/** Bundles `entry`, its bare imports resolved from `resolveDir`'s node_modules (and up). */
async function bundle(entry: string, resolveDir = path.join(REPO_ROOT, 'bench')): Promise<BundleSize> {
  // Split as an app's bundler would: code behind `import()` lands in chunks of its own, fetched when
  // first called; what the page loads up front is the entry and what it imports statically.
  const result = await build({
    stdin: { contents: entry, resolveDir, loader: 'js' },
    bundle: true,
    splitting: true,
    absWorkingDir: REPO_ROOT,
    outdir: path.join(REPO_ROOT, 'bench', 'results', 'bundle'),
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const outputs = result.metafile.outputs;
  const files = new Map(
    result.outputFiles.map((file) => [path.relative(REPO_ROOT, file.path), file.contents]),
  );
  const entryFile = Object.keys(outputs).find((file) => outputs[file]?.entryPoint !== undefined);
  const upFront = new Set<string>();
  const visit = (file: string) => {
    if (upFront.has(file)) return;
    upFront.add(file);
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  if (entryFile) visit(entryFile);
  const size = (names: Iterable<string>) => {
    let minified = 0;
    let gzipped = 0;
    for (const name of names) {
      const code = files.get(name);
      if (!code) continue;
      minified += code.byteLength;
      gzipped += gzipSync(code, { level: 9 }).byteLength;
    }
    return { minified, gzipped };
  };
  const initial = size(upFront);
  const all = size([...files.keys()].filter((name) => name.endsWith('.js')));
  return { ...initial, allMinified: all.minified, allGzipped: all.gzipped };
}
