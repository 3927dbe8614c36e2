import { abandonedCheckouts } from '@wix/ecom';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, pageCalls, shipToUs, shopperCheckout, stockedProduct } from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const HOUR = 60 * 60 * 1000;

/**
 * Abandoned-checkout recovery, read through the hosted platform's own `abandonedCheckouts` module: a
 * checkout with a buyer email left an hour becomes ABANDONED (the scan driven with a moved clock), its
 * buyer gets one email whose link restores the checkout on the hosted page, and paying there marks it
 * RECOVERED; the email's unsubscribe link is honoured by the next scan.
 */
describe.each(DIALECTS)("the hosted platform's own abandonedCheckouts client, on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  let productId: string;
  const merchantClient = (apiKey: string) =>
    createClient({
      modules: { abandonedCheckouts },
      auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }),
    });
  let merchant: ReturnType<typeof merchantClient>;
  const recoveryEmails = async (to: string) =>
    (await platform.services.mailer.recent({ to })).filter(
      (message) => message.kind === 'ABANDONED_CHECKOUT_RECOVERY',
    );

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Abandoned Lamp', 40, 20)).id;
    merchant = merchantClient(platform.adminApiKey);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it('abandons a checkout after an hour, emails its buyer once, and the link recovers it', async () => {
    const left = await shopperCheckout(platform, [{ productId, quantity: 2 }]);
    // no email: nobody to remind, never abandoned
    await shopperCheckout(platform, [{ productId, quantity: 1 }], { details: false });
    const scan = (at: Date) => platform.services.abandonedCheckouts.scan(at);

    expect(await scan(new Date(Date.now() + HOUR / 2))).toBe(0);
    expect(await scan(new Date(Date.now() + HOUR + 60_000))).toBe(1);
    // a second scan, later still, finds nothing new: each checkout is abandoned once
    expect(await scan(new Date(Date.now() + 2 * HOUR))).toBe(0);

    const page: any = await merchant.abandonedCheckouts.queryAbandonedCheckouts().find();
    expect(page.items).toHaveLength(1);
    const abandoned = page.items[0];
    expect(abandoned).toMatchObject({
      checkoutId: left.checkoutId,
      status: 'ABANDONED',
      buyerInfo: { email: 'ada@example.com' },
      activities: [expect.objectContaining({ type: 'EMAIL_SENT' })],
    });
    expect(Number(abandoned.totalPrice.amount)).toBeGreaterThan(80);
    expect(abandoned._createdDate).toBeInstanceOf(Date);
    expect(((await merchant.abandonedCheckouts.getAbandonedCheckout(abandoned._id)) as any)._id).toBe(
      abandoned._id,
    );

    const [email, ...more] = await recoveryEmails('ada@example.com');
    expect(more).toEqual([]);
    const link = email!.text.match(/Complete your purchase: (\S+)/)?.[1] as string;
    expect(link).toBe(abandoned.checkoutUrl);
    const restored = await fetch(link, { redirect: 'manual' });
    expect(restored.status).toBe(302);
    const session = new URL(restored.headers.get('location') as string).searchParams.get('session') as string;
    const page2 = pageCalls(platform, session);
    expect((await page2.session()).body.checkout.id).toBe(left.checkoutId);
    const paid = await page2.pay(`recover-${left.checkoutId}`, CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');

    await expect
      .poll(
        async () => ((await merchant.abandonedCheckouts.getAbandonedCheckout(abandoned._id)) as any).status,
        {
          timeout: 10_000,
        },
      )
      .toBe('RECOVERED');
    const recovered: any = await merchant.abandonedCheckouts.getAbandonedCheckout(abandoned._id);
    expect(recovered.checkoutRecoveredDate).toBeInstanceOf(Date);
    const recoveredOnly: any = await merchant.abandonedCheckouts
      .queryAbandonedCheckouts()
      .eq('status', 'ABANDONED')
      .find();
    expect(recoveredOnly.items).toEqual([]);
  });

  it("the scan reads a range of the unfinished checkouts' index, not the table", async () => {
    const query = platform.services.checkouts
      .unfinishedChangedInQuery(
        { updatedAt: new Date().toISOString(), id: 'x' },
        new Date().toISOString(),
        200,
      )
      .compile();
    const db = platform.services.database.db;
    if (dialect === 'sqlite') {
      const plan = await sql
        .raw(`EXPLAIN QUERY PLAN ${interpolated(query.sql, query.parameters, '?')}`)
        .execute(db);
      const steps = (plan.rows as Array<{ detail: string }>).map((row) => row.detail).join('\n');
      expect(steps).toMatch(/SEARCH checkouts USING (COVERING )?INDEX checkouts_unfinished/);
      expect(steps).not.toMatch(/SCAN checkouts|USE TEMP B-TREE/);
    } else {
      // the planner may walk a small table whatever the index: told not to, it must have the index
      await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const plan = await sql.raw(`EXPLAIN ${interpolated(query.sql, query.parameters, '$')}`).execute(trx);
        const steps = (plan.rows as Array<{ 'QUERY PLAN': string }>)
          .map((row) => row['QUERY PLAN'])
          .join('\n');
        expect(steps).toContain('checkouts_unfinished');
        expect(steps).not.toMatch(/Seq Scan on checkouts|Sort/);
      });
    }
  });

  it('two scans at the same moment abandon a checkout once, with one email', async () => {
    const raced = await shopperCheckout(platform, [{ productId, quantity: 1 }], { details: false });
    const email = 'racing@example.com';
    const patched = await fetch(`${platform.url}/ecom/v1/checkouts/${raced.checkoutId}`, {
      method: 'PATCH',
      headers: { Authorization: raced.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ checkout: { buyerInfo: { email } } }),
    });
    expect(patched.status).toBe(200);
    const at = new Date(Date.now() + 4 * HOUR);
    const made = await Promise.all([
      platform.services.abandonedCheckouts.scan(at),
      platform.services.abandonedCheckouts.scan(at),
    ]);
    expect(made[0]! + made[1]!).toBe(1);
    expect(await recoveryEmails(email)).toHaveLength(1);
  });

  it("honours the email's unsubscribe link, and a shopper may not read abandoned checkouts", async () => {
    await shopperCheckout(platform, [{ productId, quantity: 1 }]);
    const before = (await recoveryEmails('ada@example.com')).length;
    expect(await platform.services.abandonedCheckouts.scan(new Date(Date.now() + 3 * HOUR))).toBe(1);
    const emails = await recoveryEmails('ada@example.com');
    expect(emails).toHaveLength(before + 1);
    const unsubscribe = emails[0]!.text.match(/No more of these emails: (\S+)/)?.[1] as string;
    const answer = await fetch(unsubscribe);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('ada@example.com will get no more reminders');

    const second = await shopperCheckout(platform, [{ productId, quantity: 1 }]);
    expect(await platform.services.abandonedCheckouts.scan(new Date(Date.now() + 5 * HOUR))).toBe(1);
    expect(await recoveryEmails('ada@example.com')).toHaveLength(before + 1);
    const page: any = await merchant.abandonedCheckouts.queryAbandonedCheckouts().find();
    const unsent = page.items.find((item: any) => item.checkoutId === second.checkoutId);
    expect(unsent.activities).toEqual([expect.objectContaining({ type: 'EMAIL_NOT_SENT' })]);

    const refused = await fetch(`${platform.url}/ecom/v1/abandoned-checkout/${unsent._id}`, {
      headers: { Authorization: second.auth },
    });
    expect([401, 403]).toContain(refused.status);

    await merchant.abandonedCheckouts.deleteAbandonedCheckout(unsent._id);
    await expect(merchant.abandonedCheckouts.getAbandonedCheckout(unsent._id)).rejects.toMatchObject({
      details: { applicationError: { code: 'ABANDONED_CHECKOUT_NOT_FOUND' } },
    });
  });
});

/** The compiled query with its parameters written in, as literals: for EXPLAIN. */
function interpolated(text: string, parameters: readonly unknown[], marker: '?' | '$'): string {
  const literal = (value: unknown) =>
    typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  if (marker === '$') return text.replace(/\$(\d+)/g, (_, index) => literal(parameters[Number(index) - 1]));
  let next = 0;
  return text.replace(/\?/g, () => literal(parameters[next++]));
}
