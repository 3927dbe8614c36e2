import fs from 'node:fs';
import path from 'node:path';
import { EdgeRuntime } from 'edge-runtime';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockedProduct } from '../../packages/platform/test/checkout-support.ts';
import {
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../../packages/platform/test/support/platform.ts';
import { ensureBuilt, ROOT } from './support/packages.ts';

/**
 * The built SDK (`packages/sdk/dist`, what the package ships) under an edge runtime: Vercel's
 * `edge-runtime`, a V8 context with the web's globals only (fetch, crypto, URL, TextEncoder, ...) and
 * none of Node's (process, Buffer, require, setImmediate). A visitor queries products and adds one to the
 * cart against a running built platform.
 */
describe('@cartwheel/sdk under an edge runtime', () => {
  let platform: TestPlatform;
  let bundle: string;

  beforeAll(async () => {
    await ensureBuilt();
    // one script of the built package, as an edge deployment bundles it: no source condition, so
    // `@cartwheel/sdk` resolves to dist/ through its exports map
    const result = await build({
      stdin: {
        contents: "export * from '@cartwheel/sdk';",
        resolveDir: path.join(ROOT, 'tools/test'),
        loader: 'js',
      },
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'Cartwheel',
      platform: 'neutral',
      target: 'es2022',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs).filter((input) => input !== '<stdin>');
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.filter((input) => !input.startsWith('packages/sdk/dist/'))).toEqual([]);
    bundle = result.outputFiles[0]!.text;

    platform = await startTestPlatform();
    await stockedProduct(platform, 'Edge Lantern', 12, 5);
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('has no Node globals to lean on, and a visitor shops with the SDK there', async () => {
    const runtime = new EdgeRuntime({ initialCode: bundle });
    const answer = await runtime.evaluate<Promise<string>>(`(async () => {
      const nodeGlobals = ['process', 'Buffer', 'require', 'module', 'global', 'setImmediate', '__dirname']
        .filter((name) => typeof globalThis[name] !== 'undefined');
      const client = Cartwheel.createClient({
        host: ${JSON.stringify(platform.url)},
        auth: Cartwheel.OAuthStrategy({ clientId: ${JSON.stringify(TEST_CLIENT_ID)} }),
        modules: { products: Cartwheel.products, currentCart: Cartwheel.currentCart },
      });
      const page = await client.products.queryProducts({ paging: { limit: 10 } });
      const { cart } = await client.currentCart.addToCurrentCart({
        lineItems: [{ quantity: 3, catalogReference: { appId: Cartwheel.STORES_APP_ID, catalogItemId: page.items[0].id } }],
      });
      return JSON.stringify({
        runtime: typeof EdgeRuntime,
        nodeGlobals,
        products: page.items.map((product) => product.name),
        cart: cart.lineItems.map((line) => [line.productName.original, line.quantity]),
      });
    })()`);
    const seen = JSON.parse(await answer);
    expect(seen.runtime).toBe('string');
    expect(seen.nodeGlobals).toEqual([]);
    expect(seen.products).toEqual(['Edge Lantern']);
    expect(seen.cart).toEqual([['Edge Lantern', 3]]);
  });

  it('the package code names no Node built-in, so an edge bundler needs no polyfill', () => {
    const dist = path.join(ROOT, 'packages/sdk/dist');
    const code = fs
      .readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .map((file) => fs.readFileSync(path.join(dist, file), 'utf8'))
      .join('\n');
    expect(code).not.toMatch(/\bprocess\.|\bBuffer\.|from ["']node:|require\(/);
  });
});
