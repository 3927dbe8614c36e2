import {
  type CatalogReference,
  type FieldViolation,
  type ItemType,
  type ItemTypePreset,
  STORES_APP_ID,
  type WeightUnit,
} from '@cartwheel/sdk';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { closed } from '../http/input.ts';
import { AppliedDiscount } from '../http/responses.ts';
import { normalizeAddress } from '../shared/address.ts';
import { applicationError, invalidArgument, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { Big, type Currency } from '../shared/money.ts';
import type { StoredOrder } from './document.ts';
import { OrderShippingInfo } from './responses.ts';
import type { RecordedLineInput, RecordedOrderInput, RecordedOrderSettings } from './schemas.ts';

/**
 * `createOrder`: an order the merchant or an app records (a till, a phone order), not bought through
 * a checkout. Its lines, buyer and totals are taken as given, checked to add up to the cent; the
 * order's number, statuses and dates are the platform's: its status follows its payment status and
 * `settings.orderApprovalStrategy` (APPROVAL_STRATEGIES). Its shape is the route's schema
 * (`RecordedOrderInput`, schemas.ts); here are the rules a schema cannot say.
 */

const MAX_QUANTITY = 100_000;

const DEFAULT_CHANNEL = 'BACKOFFICE_MERCHANT';
const ITEM_PRESETS = new Set(['PHYSICAL', 'DIGITAL', 'GIFT_CARD', 'SERVICE']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isId = (value: string): boolean => GUID.test(value);

/** The store's facts a recorded order is held to. */
export interface RecordingStore {
  currency: Currency;
  weightUnit: WeightUnit;
  taxIncludedInPrices: boolean;
}

/**
 * `settings.orderApprovalStrategy`, as the hosted platform defines it: `DEFAULT` approves an order of 0
 * or one whose payment was received; `PAYMENT_RECEIVED` only one whose payment was received;
 * `PAYMENT_METHOD_SAVED` one whose payment method was saved (Cartwheel saves none, so there too the
 * payment received approves it). An order its strategy does not approve is `INITIALIZED` until it is paid.
 */
export const APPROVAL_STRATEGIES = ['DEFAULT', 'PAYMENT_RECEIVED', 'PAYMENT_METHOD_SAVED'] as const;

/** The payment statuses a recorded order may start with: nothing paid, paid in full, or paid pending. */
export const RECORDED_PAYMENT_STATUSES = ['NOT_PAID', 'PAID', 'PENDING'] as const;
type RecordedPaymentStatus = (typeof RECORDED_PAYMENT_STATUSES)[number];

/** A recorded order, checked: its wire document and the row's own columns. */
export interface RecordedOrder {
  doc: StoredOrder & { shippable: boolean };
  memberId: string | null;
  /** Send the buyer the order's confirmation (`settings.notifications.sendNotificationToBuyer`, default yes). */
  notifyBuyer: boolean;
  /** `APPROVED` when its approval strategy is met at once, else `INITIALIZED` until it is paid. */
  status: 'APPROVED' | 'INITIALIZED';
  paymentStatus: RecordedPaymentStatus;
  /**
   * The payment the order was recorded with (`PAID`: its total taken, `PENDING`: its total waiting to
   * clear), to be kept as a transaction so refunds, balances and aggregates read it; none for an order
   * of 0 or one not paid.
   */
  payment: { amount: string; status: 'APPROVED' | 'PENDING' } | null;
  /** The stores app's catalog lines, for the caller to check against the catalog. */
  catalogLines: Array<{ field: string; productId: string; options: Record<string, unknown> | null }>;
}

/**
 * Checks `order` (the request's) against the store and answers the document to store: field
 * violations for what is missing or malformed (all of them at once), `ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT`
 * for another currency, `AMOUNTS_DO_NOT_ADD_UP` when the lines are not the subtotal or the summary's
 * parts are not its total.
 */
export function recordedOrder(
  order: RecordedOrderInput,
  settings: RecordedOrderSettings | null | undefined,
  store: RecordingStore,
): RecordedOrder {
  const violations: FieldViolation[] = [];
  const { currency } = store;
  const money = (
    value: { amount: string } | null | undefined,
    field: string,
    required: boolean,
  ): Big | undefined => {
    if (value === undefined || value === null) {
      if (required) violations.push(violation(`${field}.amount`, 'is required', 'REQUIRED_FIELD'));
      return undefined;
    }
    const { amount } = value;
    let parsed: Big | undefined;
    try {
      parsed = /^\d+(\.\d+)?$/.test(amount) ? new Big(amount) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || !currency.round(parsed).eq(parsed)) {
      violations.push(
        violation(`${field}.amount`, `must be an amount of 0 or more in ${currency.code}`, 'FORMAT'),
      );
      return undefined;
    }
    return parsed;
  };
  const price = (amount: Big) => ({
    amount: currency.text(amount),
    formattedAmount: currency.format(amount),
  });

  if (order.currency !== undefined && order.currency !== null && order.currency !== currency.code)
    throw applicationError(
      'INVALID_ARGUMENT',
      'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT',
      `the store sells in ${currency.code}; the order is in ${String(order.currency)}`,
    );
  const given = order.paymentStatus ?? 'UNSPECIFIED';
  const paymentStatus = (given === 'UNSPECIFIED' ? 'NOT_PAID' : given) as RecordedPaymentStatus;
  if (!(RECORDED_PAYMENT_STATUSES as readonly unknown[]).includes(paymentStatus))
    violations.push(
      violation(
        'order.paymentStatus',
        `a recorded order starts ${RECORDED_PAYMENT_STATUSES.join(', ')}; record part payments with addPayments`,
        'INVALID_ENUM_VALUE',
      ),
    );
  const options: RecordedOrderSettings = settings ?? {};
  const strategy = options.orderApprovalStrategy ?? 'DEFAULT';
  if (!(APPROVAL_STRATEGIES as readonly unknown[]).includes(strategy))
    violations.push(
      violation(
        'settings.orderApprovalStrategy',
        `one of ${APPROVAL_STRATEGIES.join(', ')}`,
        'INVALID_ENUM_VALUE',
      ),
    );
  checkSettings(options, violations);
  if (
    order.status !== undefined &&
    order.status !== null &&
    !['APPROVED', 'INITIALIZED'].includes(order.status)
  )
    violations.push(
      violation(
        'order.status',
        'a recorded order is APPROVED, or INITIALIZED until its approval strategy is met',
        'INVALID_ENUM_VALUE',
      ),
    );

  // ---- lines ----
  const lines: RecordedLineInput[] = order.lineItems ?? [];
  if (lines.length === 0)
    violations.push(violation('order.lineItems', 'at least one line item is required', 'REQUIRED_FIELD'));
  let linesTotal = new Big(0);
  let shippable = false;
  const catalogLines: RecordedOrder['catalogLines'] = [];
  const seenIds = new Set<string>();
  const parsedLines = lines.map((line, index) => {
    const field = `order.lineItems[${index}]`;
    let id = newId();
    if (line.id !== undefined && line.id !== null && line.id !== '') {
      if (!isId(line.id) || seenIds.has(line.id))
        violations.push(violation(`${field}.id`, 'must be a unique GUID, or left out', 'FORMAT'));
      else id = line.id;
    }
    seenIds.add(id);
    const name = typeof line.productName === 'object' ? line.productName?.original : line.productName;
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200)
      violations.push(
        violation(
          `${field}.productName.original`,
          'a name of 1 to 200 characters is required',
          'REQUIRED_FIELD',
        ),
      );
    const quantity = line.quantity ?? 0;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY)
      violations.push(
        violation(`${field}.quantity`, `must be a whole number from 1 to ${MAX_QUANTITY}`, 'FORMAT'),
      );
    const unit = money(line.price, `${field}.price`, true);
    const lineTotal = unit && Number.isInteger(quantity) ? unit.times(quantity) : new Big(0);
    linesTotal = linesTotal.plus(lineTotal);
    const reference = line.catalogReference;
    if (reference) {
      const itemId = reference.catalogItemId;
      if (typeof itemId !== 'string' || itemId === '')
        violations.push(
          violation(
            `${field}.catalogReference.catalogItemId`,
            'is required with a catalog reference',
            'REQUIRED_FIELD',
          ),
        );
      // the app whose catalog holds the item: the stores app's items are checked against the catalog
      if (typeof reference.appId !== 'string' || reference.appId === '')
        violations.push(
          violation(
            `${field}.catalogReference.appId`,
            'is required with a catalog reference',
            'REQUIRED_FIELD',
          ),
        );
      else if (reference.appId === STORES_APP_ID && typeof itemId === 'string' && itemId !== '')
        catalogLines.push({
          field: `${field}.catalogReference`,
          productId: itemId,
          options: reference.options ?? null,
        });
    }
    const physical = line.physicalProperties ?? undefined;
    // what a till sells is handed over; a line ships only when it says so
    const ships = physical?.shippable === true;
    shippable ||= ships;
    const preset = line.itemType?.preset ?? undefined;
    const custom = line.itemType?.custom ?? undefined;
    if (line.itemType !== undefined && !((preset && ITEM_PRESETS.has(preset)) || custom))
      violations.push(
        violation(
          `${field}.itemType`,
          'a preset (PHYSICAL, DIGITAL, GIFT_CARD, SERVICE) or a custom type',
          'FORMAT',
        ),
      );
    const tax = line.taxDetails ?? undefined;
    const lineTax = tax
      ? money(tax.totalTax ?? { amount: '0' }, `${field}.taxDetails.totalTax`, false)
      : undefined;
    const taxRate = tax?.taxRate ?? '0';
    return {
      lineTotal,
      ...(lineTax ? { statedTax: lineTax } : {}),
      taxRate,
      unit: unit ?? new Big(0),
      doc: {
        id,
        productName: { original: typeof name === 'string' ? name.trim() : '' },
        ...(reference ? { catalogReference: storedReference(reference) } : {}),
        quantity,
      },
      // kept as given, a null field left out as the wire types it (the answer would read a null text as "")
      rest: withoutNulls({
        descriptionLines: line.descriptionLines ?? [],
        ...(line.image ? { image: line.image } : {}),
        physicalProperties: { ...physical, shippable: ships },
        itemType: storedItemType(preset, custom),
        paymentOption: line.paymentOption ?? 'FULL_PAYMENT_ONLINE',
      }),
    };
  });

  // ---- buyer, addresses, channel ----
  const buyer = order.buyerInfo ?? {};
  const email = buyer.email?.trim();
  if (email !== undefined && !EMAIL.test(email))
    violations.push(violation('order.buyerInfo.email', 'must be an email address', 'FORMAT'));
  for (const key of ['contactId', 'memberId'] as const)
    if (buyer[key] !== undefined && buyer[key] !== null && !isId(buyer[key]))
      violations.push(violation(`order.buyerInfo.${key}`, 'must be a GUID', 'FORMAT'));
  if (!email && !buyer.contactId && !buyer.memberId)
    violations.push(
      violation(
        'order.buyerInfo',
        "the buyer's email, contact id or member id is required",
        'REQUIRED_FIELD',
      ),
    );
  const withContact = (value: RecordedOrderInput['billingInfo']) => {
    if (!value) return undefined;
    const address = value.address ? normalizeAddress(value.address) : null;
    return {
      ...(address ? { address } : {}),
      ...(value.contactDetails ? { contactDetails: value.contactDetails } : {}),
    };
  };
  const billingInfo = withContact(order.billingInfo) ?? {};
  const recipientInfo = withContact(order.recipientInfo);
  const channel = order.channelInfo ?? {};
  const channelType = channel.type ?? DEFAULT_CHANNEL;
  const tagIds = (value: { tagIds?: string[] } | null | undefined, field: string): string[] => {
    const ids = value?.tagIds ?? [];
    if (ids.length > 100 || ids.some((tag) => tag === '')) {
      violations.push(violation(`${field}.tagIds`, 'at most 100 tag ids', 'FORMAT'));
      return [];
    }
    return [...new Set(ids)];
  };
  const tags = order.tags ?? {};
  const publicTags = tagIds(tags.tags, 'order.tags.tags');
  const privateTags = tagIds(tags.privateTags, 'order.tags.privateTags');

  // ---- totals ----
  const summary = order.priceSummary ?? {};
  if (!order.priceSummary) violations.push(violation('order.priceSummary', 'is required', 'REQUIRED_FIELD'));
  const subtotal = money(summary.subtotal, 'order.priceSummary.subtotal', true);
  const shipping = money(summary.shipping, 'order.priceSummary.shipping', false) ?? new Big(0);
  const tax = money(summary.tax, 'order.priceSummary.tax', false) ?? new Big(0);
  const discount = money(summary.discount, 'order.priceSummary.discount', false) ?? new Big(0);
  const total = money(summary.total, 'order.priceSummary.total', true);
  // kept as given, so they must be what the order's answer says they are, or it could not be read back
  if (order.shippingInfo)
    violations.push(...unanswerable(KEPT_AS_GIVEN.shippingInfo, order.shippingInfo, 'order.shippingInfo'));
  for (const [index, applied] of (order.appliedDiscounts ?? []).entries())
    violations.push(
      ...unanswerable(KEPT_AS_GIVEN.appliedDiscount, applied, `order.appliedDiscounts[${index}]`),
    );
  if (violations.length > 0) throw invalidArgument(violations);
  // tax inside the prices is part of the subtotal already, so it is not added again
  const expected = subtotal!
    .plus(shipping)
    .plus(store.taxIncludedInPrices ? 0 : tax)
    .minus(discount);
  if (!linesTotal.eq(subtotal!))
    throw applicationError(
      'INVALID_ARGUMENT',
      'AMOUNTS_DO_NOT_ADD_UP',
      `the line items come to ${currency.text(linesTotal)}; priceSummary.subtotal is ${currency.text(subtotal!)}`,
    );
  if (!expected.eq(total!))
    throw applicationError(
      'INVALID_ARGUMENT',
      'AMOUNTS_DO_NOT_ADD_UP',
      `subtotal + shipping + tax - discount is ${currency.text(expected)}; priceSummary.total is ${currency.text(total!)}`,
    );
  if (discount.gt(subtotal!))
    throw applicationError(
      'INVALID_ARGUMENT',
      'AMOUNTS_DO_NOT_ADD_UP',
      `priceSummary.discount ${currency.text(discount)} is more than the subtotal ${currency.text(subtotal!)}`,
    );
  const stated = parsedLines.some((line) => line.statedTax !== undefined);
  const statedTax = parsedLines.reduce((sum, line) => sum.plus(line.statedTax ?? 0), new Big(0));
  if (stated && !statedTax.eq(tax))
    throw applicationError(
      'INVALID_ARGUMENT',
      'AMOUNTS_DO_NOT_ADD_UP',
      `the line items' taxes come to ${currency.text(statedTax)}; priceSummary.tax is ${currency.text(tax)}`,
    );

  // ---- approval and payment ----
  const free = total!.eq(0);
  const approved = paymentStatus === 'PAID' || (strategy === 'DEFAULT' && free);
  const status = approved ? 'APPROVED' : 'INITIALIZED';
  if (free && paymentStatus === 'PENDING')
    throw invalidArgument([
      violation('order.paymentStatus', 'an order of 0 has no payment to wait for', 'INVALID_ENUM_VALUE'),
    ]);
  // nothing can ever be paid for an order of 0, so a strategy waiting for a payment would keep it for good
  if (free && !approved)
    throw invalidArgument([
      violation(
        'settings.orderApprovalStrategy',
        `an order of 0 receives no payment: ${strategy} would never approve it; record it PAID, or use DEFAULT`,
        'INVALID_ENUM_VALUE',
      ),
    ]);
  if (order.status !== undefined && order.status !== null && order.status !== status)
    throw invalidArgument([
      violation(
        'order.status',
        `the order is ${status} by its payment status ${paymentStatus} and approval strategy ${strategy}`,
        'INVALID_ENUM_VALUE',
      ),
    ]);

  // each line carries its share of the order's discount and tax, so a refund of it gives back what
  // the buyer paid for it and the lines' parts add up to the order's (billing/refund-calculation.ts)
  const discounts = shares(
    discount,
    parsedLines.map((line) => line.lineTotal),
    currency,
  );
  const taxes = stated
    ? parsedLines.map((line) => line.statedTax ?? new Big(0))
    : shares(
        tax,
        parsedLines.map((line, index) => line.lineTotal.minus(discounts[index]!)),
        currency,
      );
  const lineItems = parsedLines.map((line, index) => {
    const lineDiscount = discounts[index]!;
    const lineTax = taxes[index]!;
    const net = line.lineTotal.minus(lineDiscount);
    // tax inside the prices is part of the line's price already
    const beforeTax = store.taxIncludedInPrices ? net.minus(lineTax) : net;
    const afterTax = store.taxIncludedInPrices ? net : net.plus(lineTax);
    return {
      ...line.doc,
      price: price(line.unit),
      priceBeforeDiscounts: price(line.unit),
      lineItemPrice: price(line.lineTotal),
      totalPriceBeforeTax: price(beforeTax),
      totalPriceAfterTax: price(afterTax),
      totalDiscount: price(lineDiscount),
      taxDetails: { taxRate: line.taxRate, totalTax: price(lineTax), taxableAmount: price(beforeTax) },
      taxInfo: {
        taxAmount: price(lineTax),
        taxableAmount: price(beforeTax),
        taxRate: line.taxRate,
        taxIncludedInPrice: store.taxIncludedInPrices,
        taxBreakdown: [],
      },
      ...line.rest,
    };
  });

  return {
    memberId: buyer.memberId ?? null,
    notifyBuyer: options.notifications?.sendNotificationToBuyer !== false,
    status,
    paymentStatus,
    payment:
      paymentStatus === 'NOT_PAID' || free
        ? null
        : { amount: currency.text(total!), status: paymentStatus === 'PAID' ? 'APPROVED' : 'PENDING' },
    catalogLines,
    doc: {
      lineItems,
      buyerInfo: {
        ...(buyer.memberId ? { memberId: buyer.memberId } : {}),
        contactId: buyer.contactId ?? null,
        email: email ?? null,
      },
      buyerNote: order.buyerNote ?? null,
      ...(order.buyerLanguage ? { buyerLanguage: order.buyerLanguage } : {}),
      billingInfo,
      ...(order.shippingInfo ? { shippingInfo: order.shippingInfo } : {}),
      ...(recipientInfo ? { recipientInfo } : {}),
      priceSummary: {
        subtotal: price(subtotal!),
        shipping: price(shipping),
        tax: price(tax),
        discount: price(discount),
        total: price(total!),
        totalAdditionalFees: price(new Big(0)),
      },
      appliedDiscounts: order.appliedDiscounts ?? [],
      currency: currency.code,
      weightUnit: store.weightUnit,
      taxIncludedInPrices: store.taxIncludedInPrices,
      channelInfo: { ...channel, type: channelType },
      ...(order.attributionSource ? { attributionSource: order.attributionSource } : {}),
      tags: { privateTags: { tagIds: privateTags }, tags: { tagIds: publicTags } },
      activities: [],
      shippable,
    },
  };
}

/**
 * The settings Cartwheel accepts and keeps no effect of, checked for their form so a caller's mistake
 * is told (docs/architecture.md, "Orders the merchant records"): `editableByEveryone` or
 * `editableByOwnerApps` (one of them; 1 to 10 app GUIDs), which on the hosted platform govern who may
 * edit the order's contents through draft orders (ORDER_CANNOT_BE_EDITED is that call's error, not
 * updateOrder's), and Cartwheel has no order editing; and `notifications.sendNotificationsToBusiness`,
 * which would silence the business's new-order notification, and Cartwheel mails the business none for
 * any order (the merchant follows orders in the back office and through the order events).
 */
function checkSettings(options: RecordedOrderSettings, violations: FieldViolation[]): void {
  const owners = options.editableByOwnerApps;
  const everyone = options.editableByEveryone;
  const given = (value: unknown) => value !== undefined && value !== null;
  if (owners) {
    const appIds = owners.appIds;
    if (!appIds || appIds.length < 1 || appIds.length > 10 || appIds.some((id) => !isId(id)))
      violations.push(
        violation('settings.editableByOwnerApps.appIds', '1 to 10 app ids, each a GUID', 'FORMAT'),
      );
    if (given(everyone))
      violations.push(
        violation(
          'settings.editableByEveryone',
          'give editableByEveryone or editableByOwnerApps, not both',
          'ONE_OF_ALIGNMENT',
        ),
      );
  }
}

/**
 * `amount` split over lines in proportion to `weights`, to the currency's smallest unit, adding up to
 * it exactly (largest remainders): a line never gets more than its weight when `amount` is at most
 * their sum. With no weight at all, the first line takes it.
 */
function shares(amount: Big, weights: Big[], currency: Currency): Big[] {
  const whole = weights.reduce((sum, weight) => sum.plus(weight), new Big(0));
  if (weights.length === 0) return [];
  if (whole.eq(0)) return weights.map((_, index) => (index === 0 ? amount : new Big(0)));
  const exact = weights.map((weight) => amount.times(weight).div(whole));
  const floors = exact.map((share) => share.round(currency.decimals, 0));
  const unit = new Big(1).div(new Big(10).pow(currency.decimals));
  let left = amount.minus(floors.reduce((sum, share) => sum.plus(share), new Big(0)));
  const byRemainder = exact
    .map((share, index) => ({ index, remainder: share.minus(floors[index]!) }))
    .sort((a, b) => b.remainder.cmp(a.remainder));
  for (const { index } of byRemainder) {
    if (left.lte(0)) break;
    floors[index] = floors[index]!.plus(unit);
    left = left.minus(unit);
  }
  return floors;
}

/** A line's catalog reference as kept: its values as given, a null one left out as the wire types it. */
function storedReference(reference: {
  appId?: string | null | undefined;
  catalogItemId?: string | null | undefined;
  options?: Record<string, unknown> | null | undefined;
}): CatalogReference {
  return {
    ...(reference.appId != null ? { appId: reference.appId } : {}),
    ...(reference.catalogItemId != null ? { catalogItemId: reference.catalogItemId } : {}),
    ...(reference.options != null ? { options: reference.options } : {}),
  };
}

/** A value with its null fields left out, deep: what the caller sent as null, the wire types absent. */
type WithoutNulls<T> = T extends null
  ? never
  : T extends ReadonlyArray<infer Item>
    ? WithoutNulls<Item>[]
    : T extends object
      ? { [K in keyof T]: WithoutNulls<T[K]> }
      : T;

function withoutNulls<T>(value: T): WithoutNulls<T> {
  if (Array.isArray(value)) return value.map(withoutNulls) as WithoutNulls<T>;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, field]) => field !== null)
        .map(([key, field]) => [key, withoutNulls(field)]),
    ) as WithoutNulls<T>;
  return value as WithoutNulls<T>;
}

/** A line's item type as kept: its preset and its own type as given (checked above), else PHYSICAL. */
function storedItemType(preset: string | undefined, custom: string | undefined): ItemType {
  if (!preset && !custom) return { preset: 'PHYSICAL' };
  return { ...(preset ? { preset: preset as ItemTypePreset } : {}), ...(custom ? { custom } : {}) };
}

/**
 * The parts of the order's answer (orders/responses.ts) that a recorded order's shipping and discounts
 * are kept as given against, closed: a key the answer has no field for would be stored and never read
 * back (the answer's serializer drops it), so it is refused instead, as the input contract refuses one.
 */
const KEPT_AS_GIVEN = {
  shippingInfo: closed(OrderShippingInfo, []),
  appliedDiscount: closed(AppliedDiscount, []),
};

/**
 * Where `value`, a part of a recorded order kept as the caller gave it, does not fit the part of the
 * order's answer that serialises it: each place a field violation, an unknown key named as such.
 */
function unanswerable(answer: TSchema, value: unknown, field: string): FieldViolation[] {
  const at = (instancePath: string) =>
    `${field}${instancePath
      .split('/')
      .slice(1)
      .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
      .join('')}`;
  return [...Value.Errors(answer, value)]
    .filter((error) => error.keyword !== 'additionalProperties') // each unknown key is its own error too
    .map((error) =>
      error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')
        ? violation(at(error.instancePath), 'is not a field of an order Cartwheel keeps', 'FIELD_NOT_ALLOWED')
        : violation(at(error.instancePath), error.message, 'FORMAT'),
    );
}
