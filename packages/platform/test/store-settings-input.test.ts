import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from './catalog-http.ts';
import { EDGE_DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const violationsOf = (body: any): Array<{ field: string; violatedRule: string }> =>
  (body?.details?.validationError?.fieldViolations ?? []).map((v: any) => ({
    field: v.field,
    violatedRule: v.violatedRule,
  }));
const fieldsOf = (body: any): string[] => violationsOf(body).map((v) => v.field);

/**
 * Store settings input a merchant cannot mean: a window that ends before it starts, a percentage of
 * nothing, a trigger of a kind the platform does not have. Each is a field violation, and nothing is kept.
 */
describe.each(EDGE_DIALECTS)('store settings input (%s)', (dialect) => {
  let platform: TestPlatform;
  let api: ReturnType<typeof admin>;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    api = admin(platform);
  });
  afterAll(() => platform?.stop());

  const rule = (fields: Record<string, unknown>) =>
    api.post('/ecom/v1/discount-rules', {
      discountRule: { name: 'x', discounts: { values: [{ percentage: 5 }] }, ...fields },
    });

  it('a coupon whose startTime is after its expirationTime is refused at expirationTime, on create and on update', async () => {
    const backwards = await api.post('/api/cartwheel/coupons', {
      coupon: {
        code: 'BACKWARDS',
        discountType: 'FREE_SHIPPING',
        startTime: '2030-02-01T00:00:00Z',
        expirationTime: '2030-01-01T00:00:00Z',
      },
    });
    expect([backwards.status, fieldsOf(backwards.body)]).toEqual([400, ['coupon.expirationTime']]);
    const sameMoment = await api.post('/api/cartwheel/coupons', {
      coupon: {
        code: 'INSTANT',
        discountType: 'FREE_SHIPPING',
        startTime: '2030-01-01T00:00:00Z',
        expirationTime: '2030-01-01T00:00:00Z',
      },
    });
    expect(fieldsOf(sameMoment.body)).toEqual(['coupon.expirationTime']);

    const created = await api.post('/api/cartwheel/coupons', {
      coupon: {
        code: 'WINDOW',
        discountType: 'FREE_SHIPPING',
        startTime: '2030-01-01T00:00:00Z',
        expirationTime: '2030-02-01T00:00:00Z',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.coupon.id;
    // an update that moves one end past the other, with the end it keeps
    const earlier = await api.patch(`/api/cartwheel/coupons/${id}`, {
      coupon: { expirationTime: '2029-12-01T00:00:00Z' },
    });
    expect([earlier.status, fieldsOf(earlier.body)]).toEqual([400, ['coupon.expirationTime']]);
    const later = await api.patch(`/api/cartwheel/coupons/${id}`, {
      coupon: { startTime: '2031-01-01T00:00:00Z' },
    });
    expect([later.status, fieldsOf(later.body)]).toEqual([400, ['coupon.expirationTime']]);
    const coupons = (await api.get('/api/cartwheel/coupons')).body.coupons;
    expect(coupons.map((c: any) => [c.code, c.startTime, c.expirationTime])).toEqual([
      ['WINDOW', '2030-01-01T00:00:00Z', '2030-02-01T00:00:00Z'],
    ]);
  });

  it('a percentage is above 0, at most 100, with at most two decimals: 1e-300 is refused on coupons and discount rules', async () => {
    for (const percentage of [1e-300, 0.001, 12.345]) {
      const coupon = await api.post('/api/cartwheel/coupons', {
        coupon: { code: 'TINY', discountType: 'PERCENTAGE', percentage },
      });
      expect([coupon.status, violationsOf(coupon.body)], `coupon ${percentage}`).toEqual([
        400,
        [{ field: 'coupon.percentage', violatedRule: 'DECIMAL_MAX_SCALE' }],
      ]);
      const discount = await rule({ discounts: { values: [{ discountType: 'PERCENTAGE', percentage }] } });
      expect([discount.status, violationsOf(discount.body)], `rule ${percentage}`).toEqual([
        400,
        [{ field: 'discountRule.discounts.values[0].percentage', violatedRule: 'DECIMAL_MAX_SCALE' }],
      ]);
    }
    for (const percentage of [0, -5, 100.01]) {
      const coupon = await api.post('/api/cartwheel/coupons', {
        coupon: { code: 'TINY', discountType: 'PERCENTAGE', percentage },
      });
      expect([coupon.status, fieldsOf(coupon.body)], `coupon ${percentage}`).toEqual([
        400,
        ['coupon.percentage'],
      ]);
    }
    expect((await api.get('/api/cartwheel/coupons')).body.coupons.map((c: any) => c.code)).not.toContain(
      'TINY',
    );

    // cents of a percent, and the whole range, are still taken
    for (const [code, percentage] of [
      ['PCT001', 0.01],
      ['PCT1250', 12.5],
      ['PCT3333', 33.33],
      ['PCT100', 100],
    ] as const) {
      const coupon = await api.post('/api/cartwheel/coupons', {
        coupon: { code, discountType: 'PERCENTAGE', percentage },
      });
      expect(coupon.status, JSON.stringify(coupon.body)).toBe(200);
      expect(coupon.body.coupon.percentage).toBe(percentage);
    }
    const taken = await rule({ discounts: { values: [{ discountType: 'PERCENTAGE', percentage: 33.33 }] } });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    await api.delete(`/ecom/v1/discount-rules/${taken.body.discountRule.id}`);
  });

  it("a discount rule trigger's triggerType is one of the known trigger types, at any depth", async () => {
    for (const triggerType of ['toString', 'constructor', '__proto__', 'SOMETIMES', '', 7]) {
      const top = await rule({ trigger: { triggerType, subtotalRange: { from: '10.00' } } });
      expect([top.status, violationsOf(top.body)], `top ${String(triggerType)}`).toEqual([
        400,
        [{ field: 'discountRule.trigger.triggerType', violatedRule: 'INVALID_ENUM_VALUE' }],
      ]);
      const nested = await rule({
        trigger: {
          triggerType: 'AND',
          and: {
            triggers: [{ triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '1' } }, { triggerType }],
          },
        },
      });
      expect([nested.status, fieldsOf(nested.body)], `nested ${String(triggerType)}`).toEqual([
        400,
        ['discountRule.trigger.and.triggers[1].triggerType'],
      ]);
    }
    expect((await api.post('/ecom/v1/discount-rules/query', {})).body.discountRules).toEqual([]);

    const known = await rule({
      trigger: {
        triggerType: 'OR',
        or: {
          triggers: [
            { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '50.00', to: '100.00' } },
            { triggerType: 'ITEM_QUANTITY_RANGE', itemQuantityRange: { from: 3 } },
            { triggerType: 'CUSTOM', customTrigger: { id: 'c1', appId: 'app' } },
          ],
        },
      },
    });
    expect(known.status, JSON.stringify(known.body)).toBe(200);
    const id = known.body.discountRule.id;
    const patched = await api.patch(`/ecom/v1/discount-rules/${id}`, {
      discountRule: { trigger: { triggerType: 'valueOf' } },
    });
    expect([patched.status, fieldsOf(patched.body)]).toEqual([400, ['discountRule.trigger.triggerType']]);
    await api.delete(`/ecom/v1/discount-rules/${id}`);
  });

  it("a trigger range whose to is below its from, or below zero, is refused at that end; a custom trigger's ids are text", async () => {
    const subtotal = await rule({ trigger: { subtotalRange: { from: '100.00', to: '50.00' } } });
    expect([subtotal.status, fieldsOf(subtotal.body)]).toEqual([
      400,
      ['discountRule.trigger.subtotalRange.to'],
    ]);
    const quantity = await rule({
      trigger: { and: { triggers: [{ itemQuantityRange: { from: 5, to: 2 } }] } },
    });
    expect([quantity.status, fieldsOf(quantity.body)]).toEqual([
      400,
      ['discountRule.trigger.and.triggers[0].itemQuantityRange.to'],
    ]);
    const negative = await rule({ trigger: { itemQuantityRange: { from: -1 } } });
    expect(fieldsOf(negative.body)).toEqual(['discountRule.trigger.itemQuantityRange.from']);
    const negativeSubtotal = await rule({ trigger: { subtotalRange: { to: '-5.00' } } });
    expect(fieldsOf(negativeSubtotal.body)).toEqual(['discountRule.trigger.subtotalRange.to']);
    const custom = await rule({ trigger: { customTrigger: { id: { $gt: '' } } } });
    expect(fieldsOf(custom.body)).toEqual(['discountRule.trigger.customTrigger.id']);
    expect((await api.post('/ecom/v1/discount-rules/query', {})).body.discountRules).toEqual([]);

    const exact = await rule({ trigger: { itemQuantityRange: { from: 2, to: 2 } } });
    expect(exact.status, JSON.stringify(exact.body)).toBe(200);
    await api.delete(`/ecom/v1/discount-rules/${exact.body.discountRule.id}`);
  });
});
