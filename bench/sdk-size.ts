import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { REPO_ROOT } from './support/paths.ts';

export interface BundleSize {
  minified: number;
  gzipped: number;
}

export interface SdkSizeResult {
  cartwheel: BundleSize;
  hosted: BundleSize;
  /** Cartwheel's gzipped size over the hosted client's. */
  ratio: number;
  /** What the Cartwheel bundle holds, and what of a storefront's calls it could not hold yet. */
  included: string[];
  missing: string[];
}

/** The storefront's calls: visitor auth, the catalog, the current cart. */
const CARTWHEEL_MODULES = ['products', 'collections', 'currentCart'] as const;

/**
 * A storefront's SDK, bundled for the browser (esbuild: bundle, minify, ESM) and gzipped: Cartwheel's
 * `@cartwheel/sdk` next to the same imports from the hosted platform's own client packages.
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
    import { currentCart } from '@wix/ecom';
    export function createStorefrontClient(clientId) {
      return createClient({ auth: OAuthStrategy({ clientId }), modules: { products, collections, currentCart } });
    }
  `);
  return {
    cartwheel,
    hosted,
    ratio: cartwheel.gzipped / hosted.gzipped,
    included: ['createClient', 'OAuthStrategy', ...included],
    missing: [...missing],
  };
}

async function bundle(entry: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: entry, resolveDir: path.join(REPO_ROOT, 'bench'), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}
