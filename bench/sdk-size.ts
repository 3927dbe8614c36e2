import path from 'node:path';
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
}

/** The storefront's calls: visitor auth, the catalog, the current cart, its checkout, the buyer's orders. */
const CARTWHEEL_MODULES = ['products', 'collections', 'currentCart', 'checkout', 'orders'] as const;

/**
 * A storefront's SDK, bundled for the browser (esbuild: bundle, split, minify, ESM) and gzipped:
 * Cartwheel's `@cartwheel/sdk` next to the same imports from the hosted platform's own client
 * packages. The figure is what a page loads up front; the note adds the chunks loaded on demand.
 */
export async function measureSdkSize(): Promise<SdkSizeResult> {
  // the modules Cartwheel exports so far; the rest are named in the printed note
  const sdk = (await import('@cartwheel/sdk')) as Record<string, unknown>;
  const included = CARTWHEEL_MODULES.filter((name) => name in sdk);
  const missing = CARTWHEEL_MODULES.filter((name) => !(name in sdk));

  const cartwheel = await bundle(`
    import { createClient, OAuthStrategy, ${included.join(', ')} } from '@cartwheel/sdk';
    export function createStorefrontClient(clientId) {
      return createClient({ auth: OAuthStrategy({ clientId }), modules: { ${included.join(', ')} } });
    }
  `);
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
  };
}

async function bundle(entry: string): Promise<BundleSize> {
  // Split as an app's bundler would: code behind `import()` lands in chunks of its own, fetched when
  // first called; what the page loads up front is the entry and what it imports statically.
  const result = await build({
    stdin: { contents: entry, resolveDir: path.join(REPO_ROOT, 'bench'), loader: 'js' },
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
