import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../packages/platform/test/catalog-http.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { seriousViolations } from './support/axe.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { POSTGRES, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

/** An app's receiver on a loopback port: keeps each delivery's body and answers 200. */
async function receiver() {
  const bodies: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The domain event a JWT delivery carries (read, not verified: webhooks-http checks the signature). */
function eventOf(body: string): { id: string; entityId: string } {
  const claims = JSON.parse(Buffer.from(body.split('.')[1] ?? '', 'base64url').toString('utf8'));
  return JSON.parse(JSON.parse(claims.data).data);
}

/** A till's sale the merchant records: an order, whose `order_created` event the endpoint takes. */
async function recordOrder(platform: TestPlatform): Promise<string> {
  const answer = await admin(platform).post('/ecom/v1/orders', {
    order: {
      lineItems: [
        {
          productName: { original: 'Webhook Mug' },
          catalogReference: { catalogItemId: 'till-mug', appId: 'till' },
          quantity: 1,
          price: { amount: '12.00' },
          itemType: { preset: 'PHYSICAL' },
        },
      ],
      buyerInfo: { email: `hooks-${Date.now()}@example.com` },
      channelInfo: { type: 'POS' },
      priceSummary: {
        subtotal: { amount: '12.00' },
        shipping: { amount: '0' },
        tax: { amount: '0' },
        discount: { amount: '0' },
        total: { amount: '12.00' },
      },
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.order.id;
}

/**
 * The back office's webhooks page (/admin/webhooks) in Chromium against the built platform, with a
 * receiver on loopback (which `CARTWHEEL_WEBHOOKS_ALLOW_HTTP_LOOPBACK` lets endpoints name): the
 * merchant adds an endpoint for new orders, sends it a test event, sees a recorded order's delivery
 * and its payload, replays it (the same event id), pauses and resumes it (the order made while paused
 * arrives on resuming), deletes it behind a confirmation, and finds dead letters counted on the home.
 */
describe.each(POSTGRES)('the back office webhooks page in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let listening: Awaited<ReturnType<typeof receiver>>;
  const shot = (name: string) => screenshot(page, `backoffice-webhooks-${dialect}-${name}`);
  const status = () => page.getByRole('status').filter({ hasNotText: 'Loading' }).first();
  // each delivery's row, without the rows that show a payload under it
  const deliveryRows = () =>
    page.getByTestId('webhook-deliveries').locator('tbody tr:not(.delivery-payload)');

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, {
      apps: ['backoffice'],
      seedDemo: false,
      env: { CARTWHEEL_WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' },
    }));
    listening = await receiver();
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await listening?.close();
    await stopStoreInBrowser(platform, browser);
  }, TEST_TIMEOUT);

  it('adds an endpoint, sends it a test event, and shows an order delivered with its payload', async () => {
    await page.goto(`${platform.url}/admin/webhooks`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();

    // nothing chosen: the form says so before anything is sent
    await page.getByLabel('URL', { exact: true }).fill(listening.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await eventually(() => page.getByText('Choose at least one event type.').count()).toBe(1);
    await page.getByLabel('wix.ecom.v1.order_created', { exact: true }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await eventually(() => status().textContent()).toBe(`The endpoint ${listening.url} was added.`);
    const row = page.getByRole('row', { name: new RegExp(listening.url) });
    await eventually(() => row.textContent()).toContain('Active');

    await page.getByRole('button', { name: `Send a test event to ${listening.url}` }).click();
    await eventually(() => status().textContent()).toBe(
      `A test wix.ecom.v1.order_created event is on its way to ${listening.url}.`,
    );
    await eventually(() => listening.bodies.length).toBe(1);
    expect(eventOf(listening.bodies[0]!).id).toMatch(/^test-/);
    await eventually(() => deliveryRows().first().textContent()).toMatch(/test.*Delivered/);

    const orderId = await recordOrder(platform);
    await eventually(() => listening.bodies.length).toBe(2);
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return deliveryRows().count();
    }).toBe(2);
    const orderRow = deliveryRows().first();
    expect(await orderRow.textContent()).toContain('Delivered');
    await orderRow.getByRole('button', { name: /^Payload of/ }).click();
    await eventually(() => page.locator('.delivery-payload pre').textContent()).toContain(orderId);
    await shot('delivered');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('replays a delivery with the same event id', async () => {
    const sent = eventOf(listening.bodies[1]!);
    await page.getByRole('button', { name: `Replay wix.ecom.v1.order_created ${sent.id}` }).click();
    await eventually(() => status().textContent()).toBe(
      `wix.ecom.v1.order_created ${sent.id} is being sent again.`,
    );
    await eventually(() => listening.bodies.length).toBe(3);
    expect(eventOf(listening.bodies[2]!)).toMatchObject({ id: sent.id, entityId: sent.entityId });
    await eventually(() => deliveryRows().first().textContent()).toMatch(
      /Delivered\s*2 \(last: DELIVERED 200/,
    );
  });

  it("pauses the endpoint, holding an order's event, and resumes it, sending what it missed", async () => {
    await page.getByRole('button', { name: `Pause ${listening.url}` }).click();
    await eventually(() => status().textContent()).toBe(
      `${listening.url} is paused: its events wait for it.`,
    );
    const row = page.getByRole('row', { name: new RegExp(listening.url) });
    await eventually(() => row.textContent()).toContain('Paused');

    const heldOrder = await recordOrder(platform);
    // its delivery is written by the event bus's reader, a moment after the order
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return deliveryRows().first().textContent();
    }).toContain('Waiting');
    expect(listening.bodies).toHaveLength(3);

    await page.getByRole('button', { name: `Resume ${listening.url}` }).click();
    await eventually(() => status().textContent()).toBe(
      `${listening.url} is resumed: everything it missed is sent, in order.`,
    );
    await eventually(() => listening.bodies.length).toBe(4);
    expect(eventOf(listening.bodies[3]!).entityId).toBe(heldOrder);
    // the log reads itself again while a delivery waits
    await eventually(() => deliveryRows().first().textContent()).toContain('Delivered');
  });

  it('deletes the endpoint behind a confirmation, and counts dead letters on the home', async () => {
    await page.getByRole('button', { name: `Delete ${listening.url}` }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByRole('heading').textContent()).toBe(
      `Delete the endpoint ${listening.url}?`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await eventually(() => status().textContent()).toBe(`The endpoint ${listening.url} was deleted.`);
    await eventually(() => page.getByRole('row', { name: new RegExp(listening.url) }).count()).toBe(0);
    expect((await admin(platform).get('/api/cartwheel/webhooks')).body.webhooks).toEqual([]);

    await page.getByRole('link', { name: 'Cartwheel back office' }).click();
    await eventually(() => page.getByTestId('queue-dead-letters').textContent()).toBe(
      '0Webhook deliveries given up (dead letters)',
    );
    await page.getByTestId('queue-dead-letters').click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await shot('empty');
  });
});
