import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newTestPage } from '../../e2e/support/browser.ts';
import { placeOrder, shipToUs, stockedProduct } from '../../packages/platform/test/checkout-support.ts';
import {
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../../packages/platform/test/support/platform.ts';
import {
  bin,
  ensureBuilt,
  freePort,
  freshFolder,
  npmInstall,
  packAll,
  ROOT,
  run,
  sqlitePrebuildEnv,
  startProcess,
  type Tarballs,
  tarballFiles,
  waitForHttp,
  workspaceVersion,
  writeFiles,
} from './support/packages.ts';

/**
 * The packages as published (`npm pack`): the ecosystem's publish linters pass, and fresh apps made
 * outside the workspace install the tarballs (and public packages only) and work against a running
 * built platform: a Vite React app type-checks, builds and its visitor shops; a Node script with the
 * admin API key reads orders; the platform's own tarball starts a store with `npx @cartwheel/platform`.
 */
let tarballs: Tarballs;
const folders: string[] = [];

beforeAll(async () => {
  await ensureBuilt();
  const dir = freshFolder('tarballs');
  folders.push(dir);
  tarballs = await packAll(dir);
}, 240_000);

afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

const manifest = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(ROOT, 'packages', name, 'package.json'), 'utf8'));

describe('the packed packages', () => {
  it.each(['sdk', 'react', 'platform'] as const)(
    'publint finds nothing wrong with @cartwheel/%s',
    async (name) => {
      const { stdout } = await run(bin('publint'), ['run', tarballs[name], '--strict'], { cwd: ROOT });
      expect(stdout).toContain('All good!');
    },
  );

  // ES modules only: `require()` from CommonJS and TypeScript's node10 resolution are not offered
  it.each(['sdk', 'react'] as const)('"are the types wrong" passes for @cartwheel/%s', async (name) => {
    const { stdout } = await run(bin('attw'), [tarballs[name], '--profile', 'esm-only', '--format', 'json'], {
      cwd: ROOT,
    });
    // (attw exits non-zero on a problem the profile does not ignore: `run` would have thrown)
    const report = JSON.parse(stdout);
    const ignored = ['node10', 'node16-cjs'];
    const problems = (report.analysis.problems ?? []).filter(
      (problem: { resolutionKind?: string }) => !ignored.includes(problem.resolutionKind ?? ''),
    );
    expect(problems).toEqual([]);
    // every subpath of the exports map was checked, and resolves for bundlers and Node alike
    const entrypoints = Object.keys(report.analysis.entrypoints);
    expect(entrypoints.sort()).toEqual(Object.keys(manifest(name).exports).sort());
  });

  it('each package holds its build, its README and LICENSE, and nothing of the workspace', async () => {
    for (const name of ['sdk', 'react', 'platform'] as const) {
      const files = await tarballFiles(tarballs[name]);
      expect(files, name).toEqual(
        expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js']),
      );
      const allowed = name === 'platform' ? /^(dist|apps\/\w+\/dist)\// : /^(dist|src)\//;
      const stray = files.filter(
        (file) => !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(file),
      );
      expect(
        stray.filter((file) => !allowed.test(file)),
        name,
      ).toEqual([]);
      expect(
        files.filter((file) => /(^|\/)(test|node_modules)\/|tsconfig|tsdown\.config/.test(file)),
        name,
      ).toEqual([]);
    }
    // the platform serves the apps from its own package
    const platformFiles = await tarballFiles(tarballs.platform);
    for (const app of ['storefront', 'backoffice', 'hosted']) {
      expect(platformFiles).toContain(`apps/${app}/dist/index.html`);
    }
  });

  it('the SDK has no runtime dependencies and its code imports nothing of Node', () => {
    const sdk = manifest('sdk');
    expect(sdk.dependencies ?? {}).toEqual({});
    expect(sdk.sideEffects).toBe(false);
    const dist = path.join(ROOT, 'packages/sdk/dist');
    const nodeImports = fs
      .readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .filter((file) =>
        /from ["'](node:|fs|path|crypto|buffer)["']|require\(/.test(
          fs.readFileSync(path.join(dist, file), 'utf8'),
        ),
      );
    expect(nodeImports).toEqual([]);
  });

  it('@cartwheel/react leaves React and TanStack Query to the app (peer dependencies)', () => {
    const react = manifest('react');
    expect(Object.keys(react.peerDependencies).sort()).toEqual(['@tanstack/react-query', 'react']);
    expect(Object.keys(react.dependencies)).toEqual(['@cartwheel/sdk']);
    // the range an installed @cartwheel/react asks for holds the SDK packed beside it
    expect(react.dependencies['@cartwheel/sdk']).toBe(`^${manifest('sdk').version}`);
  });
});

describe('fresh apps that install the tarballs, against a running built platform', () => {
  let platform: TestPlatform;
  let orderId: string;
  let productName: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    await shipToUs(platform);
    productName = 'Packaged Lamp';
    const product = await stockedProduct(platform, productName, 25, 10);
    ({ orderId } = await placeOrder(platform, product.id));
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('a Vite React app type-checks, builds, and its visitor queries products and adds to the cart, in Node and in Chromium', async () => {
    const app = freshFolder('vite-app');
    folders.push(app);
    writeFiles(app, viteApp(tarballs));
    await npmInstall(app);
    // nothing of the workspace: the SDK and the hooks come from the tarballs, installed in the app
    expect(fs.realpathSync(path.join(app, 'node_modules/@cartwheel/sdk'))).toBe(
      path.join(fs.realpathSync(app), 'node_modules/@cartwheel/sdk'),
    );
    await run(path.join(app, 'node_modules/.bin/tsc'), ['--noEmit', '-p', '.'], { cwd: app });
    await run(path.join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], {
      cwd: app,
      env: { VITE_CARTWHEEL_CLIENT_ID: TEST_CLIENT_ID },
    });
    const bundle = fs.readdirSync(path.join(app, 'dist/assets')).filter((file) => file.endsWith('.js'));
    expect(bundle.length).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(app, 'dist/index.html'), 'utf8')).toContain('/assets/');

    // the app's shop module, built by Vite for Node, talks to the platform as its pages do
    await run(
      path.join(app, 'node_modules/.bin/vite'),
      ['build', '--ssr', 'src/shop.ts', '--outDir', 'dist-node', '--logLevel', 'error'],
      { cwd: app },
    );
    const { stdout } = await run('node', ['visit.mjs', platform.url, TEST_CLIENT_ID], { cwd: app });
    const visit = JSON.parse(stdout);
    expect(visit.products).toContain(productName);
    expect(visit.cart).toEqual([{ name: productName, quantity: 2 }]);

    // and its pages in Chromium: the platform serves the app's build as its storefront (same origin)
    const appsDir = freshFolder('served-app');
    folders.push(appsDir);
    fs.cpSync(path.join(app, 'dist'), path.join(appsDir, 'storefront/dist'), { recursive: true });
    const serving = await startTestPlatform({ env: { CARTWHEEL_APPS_DIR: appsDir } });
    const browser = await launchChromium();
    try {
      await stockedProduct(serving, 'Browser Kettle', 30, 5);
      const page = await newTestPage(browser, { width: 1000, height: 700 });
      await page.goto(`${serving.url}/`);
      await page.getByText('In the cart: 0').waitFor();
      await page.getByRole('listitem').filter({ hasText: 'Browser Kettle' }).getByRole('button').click();
      await page.getByText('In the cart: 1').waitFor();
    } finally {
      await browser.close();
      await serving.stop();
    }
  }, 240_000);

  it('a plain Node script with the admin API key reads orders', async () => {
    const app = freshFolder('node-script');
    folders.push(app);
    writeFiles(app, {
      'package.json': JSON.stringify(
        {
          name: 'read-orders',
          private: true,
          type: 'module',
          dependencies: { '@cartwheel/sdk': `file:${tarballs.sdk}` },
        },
        null,
        2,
      ),
      'read-orders.js': `import { ApiKeyStrategy, createClient, orders } from '@cartwheel/sdk';

const client = createClient({
  host: process.env.CARTWHEEL_HOST,
  auth: ApiKeyStrategy({ apiKey: process.env.CARTWHEEL_ADMIN_API_KEY }),
  modules: { orders },
});
const found = await client.orders.searchOrders({ cursorPaging: { limit: 10 } });
console.log(JSON.stringify(found.orders.map((order) => ({ id: order.id, number: order.number }))));
`,
    });
    await npmInstall(app);
    const { stdout } = await run('node', ['read-orders.js'], {
      cwd: app,
      env: { CARTWHEEL_HOST: platform.url, CARTWHEEL_ADMIN_API_KEY: platform.adminApiKey },
    });
    const orders = JSON.parse(stdout) as Array<{ id: string; number: string }>;
    expect(orders.map((order) => order.id)).toContain(orderId);

    // without the key the same script is refused: it read the orders as the admin
    await expect(
      run('node', ['read-orders.js'], {
        cwd: app,
        env: { CARTWHEEL_HOST: platform.url, CARTWHEEL_ADMIN_API_KEY: 'not-the-key' },
      }),
    ).rejects.toThrow(/40[13]/);
  }, 240_000);
});

describe('@cartwheel/platform from its tarball', () => {
  it('`cartwheel --version` prints its version and `npx @cartwheel/platform` starts a store that serves the storefront', async () => {
    const app = freshFolder('platform');
    folders.push(app);
    writeFiles(app, {
      'package.json': JSON.stringify(
        {
          name: 'my-store',
          private: true,
          dependencies: { '@cartwheel/platform': `file:${tarballs.platform}` },
        },
        null,
        2,
      ),
    });
    await npmInstall(app, await sqlitePrebuildEnv(path.join(app, '.prebuilds')));

    const version = await run('npx', ['cartwheel', '--version'], { cwd: app });
    expect(version.stdout.trim()).toBe(manifest('platform').version);

    const port = await freePort();
    const dataDir = path.join(app, 'store-data');
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      CARTWHEEL_ADMIN_API_KEY: 'packaged-admin-key',
    };
    const store = startProcess('npx', ['@cartwheel/platform'], { cwd: app, env });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/`, 60_000, () => store.child.exitCode === null);
      expect(store.output()).toContain(`Cartwheel is running at http://localhost:${port}`);
      const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      const html = await page.text();
      // the storefront's own page, from the package's apps/ folder
      expect(html).toBe(fs.readFileSync(path.join(ROOT, 'apps/storefront/dist/index.html'), 'utf8'));
      const admin = await fetch(`http://127.0.0.1:${port}/admin/`, { headers: { accept: 'text/html' } });
      expect(await admin.text()).toBe(
        fs.readFileSync(path.join(ROOT, 'apps/backoffice/dist/index.html'), 'utf8'),
      );
      // the demo store was seeded into SQLite under DATA_DIR, as `npm start` does
      const products = await fetch(`http://127.0.0.1:${port}/stores-reader/v1/products/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'packaged-admin-key' },
        body: JSON.stringify({ query: { paging: { limit: 1 } } }),
      });
      expect(products.status).toBe(200);
      expect((await products.json()).products.length).toBe(1);
      expect(fs.readdirSync(dataDir).some((file) => file.endsWith('.db'))).toBe(true);
    } finally {
      await store.stop();
    }

    // reset-demo answers over the same data
    const reset = await run('npx', ['cartwheel', 'reset-demo'], { cwd: app, env });
    expect(reset.stdout).toContain('Demo store reset');
  }, 240_000);
});

/** A Vite + React + TypeScript app, as `npm create vite` makes one, shopping with the packed packages. */
function viteApp(packed: Tarballs): Record<string, string> {
  const version = (name: string) => `^${workspaceVersion(name)}`;
  return {
    'package.json': JSON.stringify(
      {
        name: 'my-shop',
        private: true,
        type: 'module',
        dependencies: {
          '@cartwheel/react': `file:${packed.react}`,
          '@cartwheel/sdk': `file:${packed.sdk}`,
          '@tanstack/react-query': version('@tanstack/react-query'),
          react: version('react'),
          'react-dom': version('react-dom'),
        },
        devDependencies: {
          '@types/react': version('@types/react'),
          '@types/react-dom': version('@types/react-dom'),
          '@vitejs/plugin-react': version('@vitejs/plugin-react'),
          typescript: version('typescript'),
          vite: version('vite'),
        },
      },
      null,
      2,
    ),
    'tsconfig.json': JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'bundler',
          jsx: 'react-jsx',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['vite/client'],
        },
        include: ['src'],
      },
      null,
      2,
    ),
    'vite.config.js': `import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [react()] });
`,
    'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>My shop</title></head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`,
    'src/shop.ts': `import { createClient, currentCart, OAuthStrategy, products, STORES_APP_ID } from '@cartwheel/sdk';

export function storeClient(host: string, clientId: string) {
  return createClient({ host, auth: OAuthStrategy({ clientId }), modules: { products, currentCart } });
}

export type StoreClient = ReturnType<typeof storeClient>;

/** A visitor: the catalog's first page, then two of its first product in the cart. */
export async function visit(host: string, clientId: string) {
  const client = storeClient(host, clientId);
  const page = await client.products.queryProducts({ paging: { limit: 20 } });
  const first = page.items[0];
  if (!first?.id) throw new Error('the store has no products');
  const { cart } = await client.currentCart.addToCurrentCart({
    lineItems: [{ quantity: 2, catalogReference: { appId: STORES_APP_ID, catalogItemId: first.id } }],
  });
  return {
    products: page.items.map((product) => product.name),
    cart: (cart?.lineItems ?? []).map((line) => ({ name: line.productName?.original, quantity: line.quantity })),
  };
}
`,
    'src/App.tsx': `import { CartwheelProvider, cartItemCount, useAddToCart, useCurrentCart, useProducts } from '@cartwheel/react';
import { STORES_APP_ID } from '@cartwheel/sdk';
import { storeClient } from './shop';

const client = storeClient(window.location.origin, import.meta.env.VITE_CARTWHEEL_CLIENT_ID ?? '');

function Catalog() {
  const page = useProducts({ paging: { limit: 20 } });
  const cart = useCurrentCart();
  const add = useAddToCart();
  return (
    <main>
      <p>In the cart: {cartItemCount(cart.data ?? undefined)}</p>
      <ul>
        {page.data?.items.map((product) => (
          <li key={product.id}>
            {product.name}{' '}
            <button
              type="button"
              onClick={() =>
                add.mutate([{ quantity: 1, catalogReference: { appId: STORES_APP_ID, catalogItemId: product.id! } }])
              }
            >
              Add to cart
            </button>
          </li>
        ))}
      </ul>
    </main>
  );
}

export function App() {
  return (
    <CartwheelProvider client={client}>
      <Catalog />
    </CartwheelProvider>
  );
}
`,
    'src/main.tsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`,
    'visit.mjs': `import { visit } from './dist-node/shop.js';

const [host, clientId] = process.argv.slice(2);
console.log(JSON.stringify(await visit(host, clientId)));
`,
  };
}
