/**
 * `npm run bench [-- --quick]`: Cartwheel's figures, each as a ratio against a baseline measured side by
 * side in the same run. Prints a table and writes bench/results/latest.json. See bench/README.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AppSize, measureAppSize } from './app-size.ts';
import { type AuthResult, BURST_CALLS, measureAuth } from './auth.ts';
import { type BackofficeTableResult, measureBackofficeTable } from './backoffice-table.ts';
import { type CommerceResult, measureCart, measureOrders, type OrdersFigure } from './commerce.ts';
import { type GraphQLResult, measureGraphQL } from './graphql.ts';
import { measureOrderExport, type OrderExportResult } from './order-export.ts';
import {
  measureOrderSearch,
  ORDER_SEARCH_TARGET_MS,
  type OrderSearchResult,
  PART_OF_EMAIL,
  PART_OF_NAME,
  WHOLE_EMAIL,
} from './order-search.ts';
import { measureRefunds, type RefundsFigure } from './refunds.ts';
import { type Dialect, measureScaleApart, type ScaleResult, TARGET_MS } from './scale.ts';
import { measureSdkSize, type SdkSizeResult } from './sdk-size.ts';
import {
  measureAbandonedCheckoutScan,
  measureRenewals,
  type RenewalsResult,
  type StoreServicesResult,
} from './store-services.ts';
import { buildApp } from './support/apps.ts';
import { releaseOrderBook } from './support/order-book.ts';
import { RESULTS_DIR } from './support/paths.ts';
import { measureThroughput, type ThroughputResult } from './throughput.ts';
import {
  type AddToCartFigure,
  measureAddToCartWithEndpoints,
  measureWebhookDelivery,
  type WebhookDeliveryFigure,
} from './webhooks.ts';

const quick = process.argv.includes('--quick');
/** `--only=name` or `--only=a,b`: the sections to run (the others are skipped). */
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');

interface Row {
  figure: string;
  cartwheel: string;
  baseline: string;
  ratio: string;
  target: string;
  /** pass, FAIL, void (the run could not measure what it meant to), or info (a figure with no target). */
  verdict: string;
}

interface Results {
  startedAt: string;
  quick: boolean;
  machine: { cpus: number; node: string; platform: string };
  seconds: number;
  sdkSize?: SdkSizeResult;
  apps?: AppSize[];
  throughput?: ThroughputResult;
  graphql?: GraphQLResult;
  auth?: AuthResult;
  cart?: CommerceResult;
  orders: OrdersFigure[];
  refunds: RefundsFigure[];
  scale: ScaleResult[];
  orderSearch: OrderSearchResult[];
  backofficeTable: BackofficeTableResult[];
  orderExport: OrderExportResult[];
  webhooks: WebhookDeliveryFigure[];
  webhookAddToCart?: AddToCartFigure;
  abandonedCheckoutScan: StoreServicesResult[];
  renewals: RenewalsResult[];
  rows: Row[];
  notes: string[];
  errors: Record<string, string>;
}

const started = performance.now();
const results: Results = {
  startedAt: new Date().toISOString(),
  quick,
  machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` },
  seconds: 0,
  orders: [],
  refunds: [],
  scale: [],
  orderSearch: [],
  backofficeTable: [],
  orderExport: [],
  webhooks: [],
  abandonedCheckoutScan: [],
  renewals: [],
  rows: [],
  notes: [],
  errors: {},
};

async function section(name: string, run: () => Promise<void>): Promise<void> {
  if (only && !only.includes(name)) return;
  process.stderr.write(`bench: ${name}${quick ? ' (quick)' : ''}...\n`);
  const sectionStarted = performance.now();
  try {
    await run();
  } catch (error) {
    results.errors[name] = error instanceof Error ? error.message : String(error);
    process.stderr.write(`bench: ${name} failed: ${results.errors[name]}\n`);
  }
  process.stderr.write(`bench: ${name} took ${((performance.now() - sectionStarted) / 1000).toFixed(1)} s\n`);
  save(); // a run stopped later keeps what it measured so far
}

function save(): string {
  results.seconds = (performance.now() - started) / 1000;
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, 'latest.json');
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

await section('size', async () => {
  const size = await measureSdkSize();
  results.sdkSize = size;
  results.rows.push({
    figure: 'SDK size, storefront bundle (gzip)',
    cartwheel: kb(size.cartwheel.gzipped),
    baseline: `${kb(size.hosted.gzipped)} hosted client`,
    ratio: percent(size.ratio),
    target: '<= 20%',
    verdict: size.ratio <= 0.2 ? 'pass' : 'FAIL',
  });
  results.notes.push(
    `SDK size: measured on ${size.cartwheelPackage} beside ${size.hostedPackages.join(', ')}.` +
      ` Cartwheel bundles ${size.included.join(', ')}` +
      (size.missing.length > 0
        ? `; not in @cartwheel/sdk yet: ${size.missing.join(', ')}`
        : `; the hosted bundle the same: ${size.hostedIncluded.join(', ')}`) +
      `. Minified: ${kb(size.cartwheel.minified)} vs ${kb(size.hosted.minified)}.` +
      ` With the chunks loaded on demand (Cartwheel's member sign-in flows): ${kb(size.cartwheel.allGzipped)} vs` +
      ` ${kb(size.hosted.allGzipped)} gzipped = ${percent(size.cartwheel.allGzipped / size.hosted.allGzipped)}.`,
  );
});

await section('apps', async () => {
  // what each app loads before its first screen, from the build `npm start` serves, made from the source now
  await Promise.all([buildApp('storefront'), buildApp('backoffice')]);
  const storefront = measureAppSize('storefront');
  const backOffice = measureAppSize('backoffice');
  results.apps = [storefront, backOffice];
  results.rows.push({
    figure: 'Back office first screen, JS and CSS (gzip)',
    cartwheel: kb(backOffice.gzipped),
    baseline: `${kb(storefront.gzipped)} storefront`,
    ratio: `${(backOffice.gzipped / storefront.gzipped).toFixed(2)}x`,
    target: 'info',
    verdict: 'info',
  });
  results.notes.push(
    `App sizes: minified ${kb(backOffice.minified)} (back office: ${backOffice.files.join(', ')}) vs` +
      ` ${kb(storefront.minified)} (storefront: ${storefront.files.join(', ')}).`,
  );
});

await section('throughput', async () => {
  const load = await measureThroughput({ quick });
  results.throughput = load;
  for (const [name, figure] of [
    ['products query, page of 20', load.productsQuery],
    ['single product read', load.productRead],
  ] as const) {
    const valid = figure.status === 200 && figure.platformFailures === 0;
    results.rows.push({
      figure: `Throughput: ${name} (${load.connections} conn)`,
      cartwheel: `${Math.round(figure.platformRps)} req/s`,
      baseline: `${Math.round(figure.baselineRps)} req/s bare node:http`,
      ratio: percent(figure.ratio),
      target: '>= 40%',
      verdict: !valid ? 'void' : figure.ratio >= 0.4 ? 'pass' : 'FAIL',
    });
  }
  results.notes.push(
    `Throughput: ${load.durationSeconds} s per run after a warm-up; p99 latency platform ${load.productsQuery.platformP99Ms} ms` +
      ` vs baseline ${load.productsQuery.baselineP99Ms} ms (query), ${load.productRead.platformP99Ms} ms vs ${load.productRead.baselineP99Ms} ms (read).`,
    ...load.notes.map((note) => `Throughput: ${note}`),
  );
});

await section('graphql', async () => {
  const measured = await measureGraphQL({ quick });
  results.graphql = measured;
  const figure = measured.productsWithVariants;
  const same = measured.pages.graphql === measured.pages.rest && measured.pages.rest !== '';
  const valid = same && figure.status === 200 && figure.platformFailures === 0;
  results.rows.push({
    figure: `GraphQL: products list of 20 with variants (${measured.connections} conn)`,
    cartwheel: `${Math.round(figure.platformRps)} req/s`,
    baseline: `${Math.round(figure.baselineRps)} req/s same page through REST`,
    ratio: percent(figure.ratio),
    target: '>= 67% (within 1.5x)',
    verdict: !valid ? 'void' : figure.ratio >= 1 / 1.5 ? 'pass' : 'FAIL',
  });
  results.notes.push(
    `GraphQL: p99 ${figure.platformP99Ms} ms vs REST ${figure.baselineP99Ms} ms; a storefront card's fields and its variants, ` +
      'beside the whole products with variants through REST.',
    ...measured.notes.map((note) => `GraphQL: ${note}`),
  );
});

await section('auth', async () => {
  const auth = await measureAuth({ quick });
  results.auth = auth;
  const { cartwheel, hosted, grants } = auth;
  const allAnswered = cartwheel.succeeded === cartwheel.calls;
  results.rows.push({
    figure: `Auth: ${BURST_CALLS} calls at once with no tokens → token requests`,
    cartwheel: `${cartwheel.tokenRequests} (${cartwheel.succeeded}/${cartwheel.calls} ok)`,
    baseline: hosted
      ? `${hosted.tokenRequests} hosted client (${hosted.succeeded}/${hosted.calls} ok)`
      : 'n/a hosted client',
    ratio: hosted ? percent(cartwheel.tokenRequests / hosted.tokenRequests) : 'n/a',
    target: '= 1',
    verdict: !allAnswered ? 'void' : cartwheel.tokenRequests === 1 ? 'pass' : 'FAIL',
  });
  const grantsValid = grants.status === 200 && grants.platformFailures === 0;
  results.rows.push({
    figure: `Auth: token grants/s, anonymous (${grants.connections} conn)`,
    cartwheel: `${Math.round(grants.platformRps)} req/s`,
    baseline: `${Math.round(grants.baselineRps)} req/s bare node:http hello world`,
    ratio: percent(grants.ratio),
    target: 'none',
    verdict: grantsValid ? 'info' : 'void',
  });
  if (!allAnswered)
    results.notes.push(
      `Auth: ${cartwheel.calls - cartwheel.succeeded} of Cartwheel's ${cartwheel.calls} calls failed: the token count is void.`,
    );
  results.notes.push(
    `Auth: token grants ${grants.durationSeconds} s per run after a warm-up; p99 latency platform ${grants.platformP99Ms} ms` +
      ` vs hello world ${grants.baselineP99Ms} ms.`,
    ...auth.notes.map((note) => `Auth: ${note}`),
  );
});

await section('cart', async () => {
  const cart = await measureCart({ quick });
  results.cart = cart;
  // add to cart has no target (retired by issue 19): its figure is information
  for (const [name, figure, target] of [
    ['get cart', cart.getCart, 0.5],
    ['add to cart', cart.addToCart, undefined],
  ] as const) {
    if (!figure) continue;
    const valid = figure.status === 200 && figure.platformFailures === 0;
    results.rows.push({
      figure: `Cart: ${name} (${cart.connections} shoppers)`,
      cartwheel: `${Math.round(figure.platformRps)} req/s`,
      baseline: `${Math.round(figure.baselineRps)} req/s bare node:http`,
      ratio: percent(figure.ratio),
      target: target === undefined ? 'info' : `>= ${percent(target)}`,
      verdict: !valid ? 'void' : target === undefined ? 'info' : figure.ratio >= target ? 'pass' : 'FAIL',
    });
  }
  if (cart.estimate) {
    const estimate = cart.estimate;
    results.rows.push({
      figure: `Cart: estimate totals, ${estimate.lines} lines, p99`,
      cartwheel: ms(estimate.platformP99Ms),
      baseline: `${ms(estimate.baselineP99Ms)} bare node:http`,
      ratio: percent(estimate.platformP99Ms / 20),
      target: 'p99 < 20 ms',
      verdict: estimate.status !== 200 ? 'void' : estimate.platformP99Ms < 20 ? 'pass' : 'FAIL',
    });
    results.notes.push(
      `Cart: estimate totals p50 ${ms(estimate.platformP50Ms)} over ${estimate.samples} calls one at a time` +
        ` (to New York, tax and shipping); the ratio is p99 over the 20 ms target.`,
    );
  }
  results.notes.push(
    `Cart: ${cart.durationSeconds} s per run after a warm-up, each connection a shopper with a cart of` +
      ` three lines; p99 get ${ms(cart.getCart?.platformP99Ms ?? Number.NaN)}, add ${ms(cart.addToCart?.platformP99Ms ?? Number.NaN)}.`,
    ...cart.notes.map((note) => `Cart: ${note}`),
  );
});

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  await section(`orders-${dialect}`, async () => {
    const { notes, ...figure } = await measureOrders(dialect, { quick });
    results.orders.push(figure);
    results.rows.push({
      figure: `Orders placed/s, ${dialect}, ${figure.buyers} buyers paying at once`,
      cartwheel: `${figure.ordersPerSecond.toFixed(1)} orders/s`,
      baseline: `${Math.round(figure.baselineRps)} req/s bare node:http`,
      ratio: percent(figure.ratio),
      target: 'stock >= 0, sold = taken',
      verdict: figure.failures > 0 ? 'void' : figure.stockConsistent ? 'pass' : 'FAIL',
    });
    results.notes.push(
      `Orders ${dialect}: ${figure.attempts} checkouts paid by ${figure.buyers} buyers at once for one product` +
        ` with ${figure.stockBefore} in stock: ${figure.orders} orders, ${figure.outOfStock} out of stock,` +
        ` ${figure.failures} other answers; stock after ${figure.stockAfter}; pay p99 ${ms(figure.p99Ms)}.`,
      ...notes.map((note) => `Orders ${dialect}: ${note}`),
    );
  });
}

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  await section(`webhooks-${dialect}`, async () => {
    const { notes, ...figure } = await measureWebhookDelivery(dialect, { quick });
    results.webhooks.push({ ...figure, notes });
    const complete = notes.length === 0;
    results.rows.push({
      figure: `Webhooks: events delivered/s, ${dialect}, ${figure.buyers} buyers placing orders`,
      cartwheel: `${figure.deliveredPerSecond.toFixed(1)} events/s`,
      baseline: `${figure.ordersPerSecond.toFixed(1)} orders/s placed`,
      ratio: `${(figure.deliveredPerSecond / figure.ordersPerSecond).toFixed(2)}x`,
      target: 'every event delivered',
      verdict: complete ? 'pass' : 'FAIL',
    });
    results.rows.push({
      figure: `Webhooks: delivery lag p50 / p99, ${dialect}, under that load`,
      cartwheel: `${ms(figure.lagP50Ms)} / ${ms(figure.lagP99Ms)}`,
      baseline: 'n/a',
      ratio: 'n/a',
      target: 'info',
      verdict: complete ? 'info' : 'void',
    });
    results.notes.push(
      `Webhooks ${dialect}: ${figure.orders} orders, ${figure.delivered} deliveries (${figure.distinct} distinct` +
        ` events) of the order's events to one endpoint; the last arrived ${figure.drainSeconds.toFixed(1)} s after the last order.`,
      ...notes.map((note) => `Webhooks ${dialect}: ${note}`),
    );
  });
}

await section('webhooks-cart', async () => {
  const result = await measureAddToCartWithEndpoints({ quick });
  results.webhookAddToCart = result;
  const { figure } = result;
  results.rows.push({
    figure: `Webhooks: add to cart with ${result.endpoints} endpoints subscribed (32 conn)`,
    cartwheel: `${Math.round(figure.platformRps)} req/s`,
    baseline: `${Math.round(figure.baselineRps)} req/s with none`,
    ratio: percent(figure.ratio),
    target: 'info',
    verdict: figure.platformFailures === 0 ? 'info' : 'void',
  });
  results.notes.push(
    `Webhooks cart: p99 ${ms(figure.platformP99Ms)} with endpoints vs ${ms(figure.baselineP99Ms)} without.`,
    ...result.notes.map((note) => `Webhooks cart: ${note}`),
  );
});

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  await section(`refunds-${dialect}`, async () => {
    const { notes, ...figure } = await measureRefunds(dialect, { quick });
    results.refunds.push(figure);
    results.rows.push({
      figure: `Refunds/s, ${dialect}, ${figure.merchants} merchants on their own orders`,
      cartwheel: `${figure.refundsPerSecond.toFixed(1)} refunds/s`,
      baseline: `${Math.round(figure.baselineRps)} req/s bare node:http`,
      ratio: percent(figure.ratio),
      target: 'refunded = paid, stock back',
      verdict: figure.failures > 0 ? 'void' : figure.invariantHolds ? 'pass' : 'FAIL',
    });
    results.notes.push(
      `Refunds ${dialect}: ${figure.refunds} refunds (a unit each, with restock) by ${figure.merchants} merchants at once;` +
        ` ${figure.failures} other answers; refund p99 ${ms(figure.p99Ms)}.`,
      ...notes.map((note) => `Refunds ${dialect}: ${note}`),
    );
  });
}

for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  await section(`scale-${dialect}`, async () => {
    const scale = await measureScaleApart(dialect, { quick });
    results.scale.push(scale);
    const count = `${scale.products.toLocaleString('en')} products`;
    // The target is a query's latency: one client at a time. Four at a time on a 2-core machine that
    // also runs the load generator and the database measures queueing for the CPU as much as the query:
    // it is reported beside it, without a target (throughput is the load figure).
    for (const [mode, figure, targeted] of [
      ['sequential', scale.sequential, true],
      [`${scale.concurrent.concurrency} concurrent`, scale.concurrent, false],
    ] as const) {
      results.rows.push({
        figure: `Scale: query p50/p99, ${dialect}, ${count}, ${mode}`,
        cartwheel: `${ms(figure.p50Ms)} / ${ms(figure.p99Ms)}`,
        baseline: `${TARGET_MS} ms target`,
        ratio: percent(figure.p99Ms / TARGET_MS),
        target: targeted ? 'p99 <= 100%' : 'none',
        verdict:
          scale.failures > 0 ? 'void' : !targeted ? 'info' : figure.p99Ms <= TARGET_MS ? 'pass' : 'FAIL',
      });
    }
    results.rows.push(
      {
        figure: `Scale: v3 search of 20 by price p50/p99, ${dialect}, ${count}`,
        cartwheel: `${ms(scale.v3.search.p50Ms)} / ${ms(scale.v3.search.p99Ms)}`,
        baseline: `v1 query ${ms(scale.v3.v1Query.p50Ms)} / ${ms(scale.v3.v1Query.p99Ms)}`,
        ratio: percent(scale.v3.search.p99Ms / scale.v3.v1Query.p99Ms),
        target: 'none',
        verdict: 'info',
      },
      {
        figure: `Scale: v3 decrements of one hot item per second, ${dialect}`,
        cartwheel: scale.v3.decrementsPerSecond.toFixed(0),
        baseline: `v1 stock writes ${scale.v3.v1StockWritesPerSecond.toFixed(0)}/s`,
        ratio: percent(scale.v3.decrementsPerSecond / scale.v3.v1StockWritesPerSecond),
        target: 'none',
        verdict: 'info',
      },
    );
    const perQuery = Object.entries(scale.byQuery)
      .map(([kind, figure]) => `${kind} ${ms(figure.p50Ms)}/${ms(figure.p99Ms)}`)
      .join(', ');
    results.notes.push(
      `Scale ${dialect}: built in ${scale.cached ? '0 s (cached build)' : `${scale.buildSeconds.toFixed(0)} s`}; ` +
        `sequential p50/p99 by query: ${perQuery}; ` +
        `the deep page right after a price change (its anchors outdated, not in the mix): ` +
        `${ms(scale.deepPageAfterWrite.p50Ms)}/${ms(scale.deepPageAfterWrite.p99Ms)}.`,
      ...scale.notes.map((note) => `Scale ${dialect}: ${note}`),
    );
  });
}

// the two read the same order book per dialect: seeded once, then deleted before the next dialect's
for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  await section(`order-search-${dialect}`, async () => {
    const search = await measureOrderSearch(dialect, { quick });
    results.orderSearch.push(search);
    const count = `${search.orders.toLocaleString('en')} orders`;
    for (const [name, figure] of Object.entries(search.byFilter)) {
      results.rows.push({
        figure: `Order search p50/p99, ${dialect}, ${count}, ${name}`,
        cartwheel: `${ms(figure.p50Ms)} / ${ms(figure.p99Ms)}`,
        baseline: `${ORDER_SEARCH_TARGET_MS} ms target`,
        ratio: percent(figure.p99Ms / ORDER_SEARCH_TARGET_MS),
        target: 'p99 <= 100%',
        verdict:
          search.failures > 0 || figure.found === 0
            ? 'void'
            : figure.p99Ms <= ORDER_SEARCH_TARGET_MS
              ? 'pass'
              : 'FAIL',
      });
    }
    // the free search beside today's whole-email search, in the same run on the same book
    const whole = search.byFilter[WHOLE_EMAIL];
    for (const name of [PART_OF_EMAIL, PART_OF_NAME]) {
      const figure = search.byFilter[name];
      if (!whole || !figure) continue;
      results.rows.push({
        figure: `Order search p99, ${dialect}, ${count}, ${name} vs a whole email`,
        cartwheel: ms(figure.p99Ms),
        baseline: `${ms(whole.p99Ms)} whole email`,
        ratio: `${(figure.p99Ms / whole.p99Ms).toFixed(2)}x`,
        target: 'info',
        verdict: search.failures > 0 || figure.found === 0 ? 'void' : 'info',
      });
    }
    results.notes.push(...search.notes.map((note) => `Order search ${dialect}: ${note}`));
  });

  await section(`backoffice-table-${dialect}`, async () => {
    const table = await measureBackofficeTable(dialect, { quick });
    results.backofficeTable.push(table);
    const count = `${table.orders.toLocaleString('en')} orders`;
    for (const [mode, backOffice, storefront] of [
      ['cold', table.backOffice.coldMedianMs, table.storefront.coldMedianMs],
      ['warm', table.backOffice.warmMedianMs, table.storefront.warmMedianMs],
    ] as const) {
      results.rows.push({
        figure: `Back office orders table, 50 rows shown, ${dialect}, ${count}, ${mode}, median`,
        cartwheel: ms(backOffice),
        baseline: `${ms(storefront)} storefront, first page of products`,
        ratio: `${(backOffice / storefront).toFixed(2)}x`,
        target: 'info',
        verdict: table.failures > 0 || !Number.isFinite(backOffice / storefront) ? 'void' : 'info',
      });
    }
    const list = (samples: number[]) => samples.map((sample) => sample.toFixed(0)).join(', ');
    results.notes.push(
      `Back office table ${dialect}: cold ms, back office ${list(table.backOffice.coldMs)};` +
        ` storefront ${list(table.storefront.coldMs)}. Warm ms, back office ${list(table.backOffice.warmMs)};` +
        ` storefront ${list(table.storefront.warmMs)}.`,
      ...table.notes.map((note) => `Back office table ${dialect}: ${note}`),
    );
  });

  await section(`order-export-${dialect}`, async () => {
    const exported = await measureOrderExport(dialect, { quick });
    results.orderExport.push(exported);
    const count = `${exported.orders.toLocaleString('en')} orders`;
    const whole = exported.failures === 0 && exported.lines === exported.orders + 1;
    results.rows.push(
      {
        figure: `Orders CSV export, ${dialect}, ${count}, orders a second`,
        cartwheel: `${Math.round(exported.orders / exported.seconds).toLocaleString('en')}/s`,
        baseline: `${exported.seconds.toFixed(0)} s for the file, first byte ${ms(exported.firstByteMs)}`,
        ratio: '-',
        target: 'info',
        verdict: whole ? 'info' : 'void',
      },
      {
        figure: `Order search p99 while the export streams, ${dialect}, ${count}`,
        cartwheel: `${ms(exported.during.p50Ms)} / ${ms(exported.during.p99Ms)}`,
        baseline: `${ms(exported.alone.p50Ms)} / ${ms(exported.alone.p99Ms)} with no export`,
        ratio: `${(exported.during.p99Ms / exported.alone.p99Ms).toFixed(2)}x`,
        target: `p99 <= ${ORDER_SEARCH_TARGET_MS} ms`,
        verdict: !whole ? 'void' : exported.during.p99Ms <= ORDER_SEARCH_TARGET_MS ? 'pass' : 'FAIL',
      },
    );
    results.notes.push(
      `Order export ${dialect}: ${exported.lines.toLocaleString('en')} CSV lines in ${exported.seconds.toFixed(1)} s; ` +
        `${exported.during.requests} searches during it, as many after it.`,
    );
  });

  await releaseOrderBook(dialect).catch((error) => {
    process.stderr.write(`bench: could not delete the ${dialect} order book: ${error}\n`);
  });
}

// the abandoned-checkout scan (issue 34): its read as the checkouts table grows a hundredfold
for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
  await section(`abandoned-scan-${dialect}`, async () => {
    const scan = await measureAbandonedCheckoutScan(dialect, { quick });
    results.abandonedCheckoutScan.push(scan);
    const { small, large } = scan;
    const read = (figure: typeof large) =>
      figure.rowsRead === null ? '' : `, ${figure.rowsRead} rows read, ${figure.buffers} buffers`;
    results.rows.push({
      figure: `Abandoned-checkout scan p50/p99, ${dialect}, ${large.checkouts.toLocaleString('en')} checkouts`,
      cartwheel: `${ms(large.p50Ms)} / ${ms(large.p99Ms)}${read(large)}`,
      baseline: `${ms(small.p50Ms)} / ${ms(small.p99Ms)} at ${small.checkouts.toLocaleString('en')}${read(small)}`,
      ratio: `${(large.p99Ms / small.p99Ms).toFixed(2)}x`,
      // a range of the index from the scan's last stop: the table's size must not show
      target: 'p99 <= 2x, rows read alike',
      verdict:
        large.returned === 0 || large.returned !== small.returned
          ? 'void'
          : large.p99Ms <= 2 * small.p99Ms && (large.rowsRead ?? 0) <= 2 * (small.rowsRead ?? 0) + 10
            ? 'pass'
            : 'FAIL',
    });
    results.notes.push(...scan.notes);
  });
  // subscription renewals (issue 34): a day's due contracts renewed, beside as many ordinary orders
  await section(`renewals-${dialect}`, async () => {
    const renewals = await measureRenewals(dialect, { quick });
    results.renewals.push(renewals);
    const perOrder = (seconds: number) => ms((seconds * 1000) / renewals.orders);
    results.rows.push({
      figure: `Subscription renewals, ${dialect}, ${renewals.orders.toLocaleString('en')} due orders`,
      cartwheel: `${renewals.renewalSeconds.toFixed(1)} s (${perOrder(renewals.renewalSeconds)} each)`,
      baseline: `${renewals.orderSeconds.toFixed(1)} s for as many ordinary orders (${perOrder(renewals.orderSeconds)} each)`,
      ratio: `${(renewals.renewalSeconds / renewals.orderSeconds).toFixed(2)}x`,
      target: 'info',
      verdict: renewals.renewed === renewals.orders ? 'info' : 'void',
    });
    results.notes.push(...renewals.notes);
  });
}

const file = save();

console.log(`\nCartwheel benchmarks${quick ? ' (--quick: tiny sizes, smoke check only)' : ''}\n`);
console.log(table(results.rows));
if (results.notes.length > 0) console.log(`\n${results.notes.map((note) => `- ${note}`).join('\n')}`);
for (const [name, message] of Object.entries(results.errors))
  console.log(`\n! ${name} did not run: ${message}`);
console.log(`\n${results.seconds.toFixed(0)} s in all; written to ${path.relative(process.cwd(), file)}`);
process.exitCode = Object.keys(results.errors).length > 0 ? 1 : 0;

function table(rows: Row[]): string {
  const headers: Row = {
    figure: 'Figure',
    cartwheel: 'Cartwheel',
    baseline: 'Baseline',
    ratio: 'Ratio',
    target: 'Target',
    verdict: 'Verdict',
  };
  const columns = Object.keys(headers) as Array<keyof Row>;
  const all = [headers, ...rows];
  const widths = columns.map((column) => Math.max(...all.map((row) => String(row[column]).length)));
  const line = (row: Row) =>
    columns
      .map((column, index) => String(row[column]).padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
function percent(ratio: number): string {
  return Number.isFinite(ratio) ? `${(ratio * 100).toFixed(0)}%` : 'n/a';
}
function ms(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a';
}
