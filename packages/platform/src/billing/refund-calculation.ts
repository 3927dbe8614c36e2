import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { RefundDocument } from '../payments/transactions.ts';
import { type Big, type Currency, decimal } from '../shared/money.ts';
import { big, type CountedRefund, priceOf, shareOf } from './amounts.ts';

/** What a refund names (`refundItems`): lines and quantities, shipping, additional fees. */
export interface RefundItemsInput {
  lineItems?: Array<{ lineItemId?: string | undefined; quantity?: number | undefined }> | undefined;
  additionalFees?:
    | Array<{ additionalFeeId?: string | undefined; amount?: { amount?: string | undefined } | undefined }>
    | undefined;
  shipping?: { amount?: { amount?: string | undefined } | undefined } | undefined;
}

/** An order's lines and shipping as sold, the part of its stored document refunds read. */
export interface SoldOrder {
  lineItems?: Array<{
    id: string;
    quantity: number;
    /** Units put back on the shelf already (a cancel with restock, refunds with restock). */
    restockedQuantity?: number;
    catalogReference?: { catalogItemId?: string; options?: Record<string, unknown> };
    totalPriceAfterTax?: { amount: string };
    totalDiscount?: { amount: string };
    taxInfo?: { taxAmount?: { amount: string } };
  }>;
  shippingInfo?: {
    cost?: { totalPriceAfterTax?: { amount: string }; totalPriceBeforeTax?: { amount: string } };
  };
  taxIncludedInPrices?: boolean;
  priceSummary?: { total?: { amount: string } };
  currency?: string;
}

type Price = { amount: string; formattedAmount: string };
interface Summary {
  total: Price;
  tax: Price;
  discount: Price;
  subtotal: Price;
}

export interface CalculationError {
  lineItem?: { lineItemId: string; quantity: number };
  additionalFee?: { additionalFeeId: string };
  shipping?: { amount?: { amount?: string | undefined } | undefined };
  error: { applicationError: { code: string; description: string } };
}

/** `calculateRefund`'s figures: the same numbers `refundPayments` refunds, to the cent. */
export interface RefundCalculation {
  errors: CalculationError[];
  total: Big;
  lineItems: Array<{ lineItemId: string; quantity: number; total: Big }>;
  shipping: Big;
  summary: Summary & { lineItemsSubtotal: Price; additionalFeesTotal: Price };
  calculatedRefundItems: {
    lineItems: Array<{ item: { lineItemId: string; quantity: number }; summary: Summary }>;
    additionalFees: unknown[];
    shipping?: { shipping: { amount: Price }; summary: Summary };
  };
}

/** How much of each line and of the shipping earlier refunds took (those started count too). */
export function refundedSoFar(refunds: CountedRefund[]): { lines: Map<string, number>; shipping: Big } {
  const lines = new Map<string, number>();
  let shipping = big('0');
  for (const refund of refunds) {
    for (const line of refund.doc.details.lineItems)
      lines.set(line.lineItemId, (lines.get(line.lineItemId) ?? 0) + line.quantity);
    if (refund.doc.details.shipping) shipping = shipping.plus(refund.doc.details.shipping.amount.amount);
  }
  return { lines, shipping };
}

/**
 * Units of each line of `orderId` refunded (or being refunded), read through `executor`: what a
 * fulfillment may no longer ship (it holds the order row, as refunds do).
 */
export async function refundedLineQuantities(
  executor: Kysely<Tables> | Transaction<Tables>,
  orderId: string,
): Promise<Map<string, number>> {
  const rows = await executor
    .selectFrom('order_refunds')
    .select(['status', 'doc'])
    .where('order_id', '=', orderId)
    .execute();
  return refundedSoFar(
    rows.map((row) => ({ status: row.status, doc: JSON.parse(row.doc) as RefundDocument })),
  ).lines;
}

const shippingFigures = (order: SoldOrder) => {
  const after = big(order.shippingInfo?.cost?.totalPriceAfterTax?.amount);
  const before = big(
    order.shippingInfo?.cost?.totalPriceBeforeTax?.amount ??
      order.shippingInfo?.cost?.totalPriceAfterTax?.amount,
  );
  return { after, tax: after.minus(before) };
};

/** What each line, the shipping and the fees can still be refunded, for `getOrderRefundability`. */
export function refundability(order: SoldOrder, currency: Currency, refunds: CountedRefund[]) {
  const so = refundedSoFar(refunds);
  const shipping = shippingFigures(order);
  return {
    lineItems: (order.lineItems ?? []).map((line) => {
      const refunded = so.lines.get(line.id) ?? 0;
      return {
        lineItemId: line.id,
        originalQuantity: line.quantity,
        refundedQuantity: refunded,
        availableRefundQuantity: Math.max(0, line.quantity - refunded),
      };
    }),
    ...(shipping.after.gt(0)
      ? {
          shipping: {
            amount: priceOf(currency, shipping.after),
            refundedAmount: priceOf(currency, so.shipping),
            availableRefundAmount: priceOf(currency, shipping.after.minus(so.shipping)),
          },
        }
      : {}),
    additionalFees: [],
  };
}

const error = (code: string, description: string) => ({ applicationError: { code, description } });

/**
 * What refunding `items` comes to: each line's share of what the buyer paid for it (after its
 * discounts, with its tax), taken in cumulative roundings so the refunds of a line add up to its
 * total exactly; the shipping as asked (all that is left unless an amount is named), its tax in
 * proportion. Problems are listed, not thrown: `calculateRefund` answers them, `refundPayments` refuses.
 */
export function calculateRefund(
  order: SoldOrder,
  currency: Currency,
  refunds: CountedRefund[],
  items: RefundItemsInput,
): RefundCalculation {
  const so = refundedSoFar(refunds);
  const included = order.taxIncludedInPrices === true;
  const errors: CalculationError[] = [];
  const zero = big('0');
  let total = zero;
  let tax = zero;
  let discount = zero;
  let subtotal = zero;
  let linesSubtotal = zero;
  const calculatedLines: RefundCalculation['calculatedRefundItems']['lineItems'] = [];
  const lines: RefundCalculation['lineItems'] = [];

  // a line named twice is one request for the sum
  const asked = new Map<string, number>();
  for (const line of items.lineItems ?? []) {
    const id = line.lineItemId ?? '';
    asked.set(id, (asked.get(id) ?? 0) + (line.quantity ?? 0));
  }
  for (const [lineItemId, quantity] of asked) {
    const sold = order.lineItems?.find((line) => line.id === lineItemId);
    if (!sold) {
      errors.push({
        lineItem: { lineItemId, quantity },
        error: error('LINE_ITEM_NOT_FOUND', `the order has no line item ${lineItemId}`),
      });
      continue;
    }
    const before = so.lines.get(lineItemId) ?? 0;
    if (!Number.isInteger(quantity) || quantity < 1 || before + quantity > sold.quantity) {
      errors.push({
        lineItem: { lineItemId, quantity },
        error: error(
          'INVALID_LINE_ITEM_REFUND_QUANTITY',
          `line item ${lineItemId} has ${Math.max(0, sold.quantity - before)} of ${sold.quantity} left to refund`,
        ),
      });
      continue;
    }
    const part = (amount: string | undefined) =>
      shareOf(currency, big(amount), big(String(before)), big(String(quantity)), big(String(sold.quantity)));
    const lineTotal = part(sold.totalPriceAfterTax?.amount);
    const lineTax = part(sold.taxInfo?.taxAmount?.amount);
    const lineDiscount = part(sold.totalDiscount?.amount);
    // before discounts and tax: what the parts above leave, so total = subtotal - discount (+ tax)
    const lineSubtotal = included
      ? lineTotal.plus(lineDiscount)
      : lineTotal.minus(lineTax).plus(lineDiscount);
    total = total.plus(lineTotal);
    tax = tax.plus(lineTax);
    discount = discount.plus(lineDiscount);
    subtotal = subtotal.plus(lineSubtotal);
    linesSubtotal = linesSubtotal.plus(lineSubtotal);
    lines.push({ lineItemId, quantity, total: lineTotal });
    calculatedLines.push({
      item: { lineItemId, quantity },
      summary: {
        total: priceOf(currency, lineTotal),
        tax: priceOf(currency, lineTax),
        discount: priceOf(currency, lineDiscount),
        subtotal: priceOf(currency, lineSubtotal),
      },
    });
  }

  for (const fee of items.additionalFees ?? []) {
    errors.push({
      additionalFee: { additionalFeeId: fee.additionalFeeId ?? '' },
      error: error(
        'ADDITIONAL_FEE_NOT_FOUND',
        `the order has no additional fee ${fee.additionalFeeId ?? ''}`,
      ),
    });
  }

  let shippingRefund = zero;
  let calculatedShipping: RefundCalculation['calculatedRefundItems']['shipping'];
  if (items.shipping) {
    const shipping = shippingFigures(order);
    const available = shipping.after.minus(so.shipping);
    const named = items.shipping.amount?.amount;
    const amount = named === undefined ? available : decimal(named);
    if (shipping.after.lte(0)) {
      errors.push({
        shipping: items.shipping,
        error: error('SHIPPING_NOT_FOUND', 'the order has no shipping to refund'),
      });
    } else if (!amount || amount.lte(0) || amount.gt(available) || !currency.round(amount).eq(amount)) {
      errors.push({
        shipping: items.shipping,
        error: error(
          'INVALID_SHIPPING_REFUND_AMOUNT',
          `the shipping has ${currency.text(available)} left to refund`,
        ),
      });
    } else {
      const shippingTax = shareOf(currency, shipping.tax, so.shipping, amount, shipping.after);
      const shippingSubtotal = included ? amount : amount.minus(shippingTax);
      shippingRefund = amount;
      total = total.plus(amount);
      tax = tax.plus(shippingTax);
      subtotal = subtotal.plus(shippingSubtotal);
      calculatedShipping = {
        shipping: { amount: priceOf(currency, amount) },
        summary: {
          total: priceOf(currency, amount),
          tax: priceOf(currency, shippingTax),
          discount: priceOf(currency, zero),
          subtotal: priceOf(currency, shippingSubtotal),
        },
      };
    }
  }

  return {
    errors,
    total,
    lineItems: lines,
    shipping: shippingRefund,
    summary: {
      total: priceOf(currency, total),
      tax: priceOf(currency, tax),
      discount: priceOf(currency, discount),
      subtotal: priceOf(currency, subtotal),
      lineItemsSubtotal: priceOf(currency, linesSubtotal),
      additionalFeesTotal: priceOf(currency, zero),
    },
    calculatedRefundItems: {
      lineItems: calculatedLines,
      additionalFees: [],
      ...(calculatedShipping ? { shipping: calculatedShipping } : {}),
    },
  };
}
