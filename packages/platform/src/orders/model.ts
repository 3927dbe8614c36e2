import type { Address, ChannelType, FullAddressContactDetails, MultiCurrencyPrice } from '@cartwheel/sdk';
import { formatMoney } from '../catalog/pricing.ts';
import type { Priced } from '../pricing/contract.ts';
import type { StoredOrder } from './document.ts';

/** An order's buyer email as its column holds it, and as sign-ins look it up: trimmed, in lower case. */
export const buyerEmail = (email: string): string => email.trim().toLowerCase();

/** Money on an order: one currency, a decimal string and how the shopper read it. */
export interface OrderPrice {
  amount: string;
  formattedAmount: string;
}

/** What a checkout hands the orders domain to make an order of: its inputs and what it was priced at. */
export interface OrderSource {
  checkoutId: string;
  channelType: ChannelType;
  buyer: {
    visitorId: string | null;
    memberId: string | null;
    contactId: string | null;
    email: string | null;
  };
  buyerNote: string | null;
  billingAddress: Address | null;
  shippingAddress: Address | null;
  contactDetails: FullAddressContactDetails | null;
  priced: Priced;
  /**
   * A subscription contract's renewal (subscriptions/): the contract and which cycle this order pays
   * for; absent: a first order (its lines bought by subscription are cycle 1 of a contract to come).
   */
  subscription?: { contractId: string; cycleNumber: number; startDate: string };
}

const price = (
  money: MultiCurrencyPrice | undefined,
  fallback: MultiCurrencyPrice | undefined,
): OrderPrice => {
  const chosen = money ?? fallback;
  return { amount: chosen?.amount ?? '0', formattedAmount: chosen?.formattedAmount ?? chosen?.amount ?? '0' };
};

/** An order line bought by subscription: its subscription and the cycle the order pays for. */
function subscriptionInfoOf(line: Priced['lineItems'][number], source: OrderSource) {
  const option = line.subscriptionOptionInfo!;
  const settings = option.subscriptionSettings ?? {};
  return {
    id: source.subscription?.contractId ?? null,
    cycleNumber: source.subscription?.cycleNumber ?? 1,
    subscriptionOptionTitle: option.title?.original ?? '',
    subscriptionOptionDescription: option.description?.original ?? null,
    subscriptionSettings: {
      frequency: settings.frequency,
      interval: settings.interval ?? 1,
      autoRenewal: settings.autoRenewal ?? false,
      billingCycles: settings.billingCycles ?? null,
      ...(source.subscription ? { startDate: source.subscription.startDate } : {}),
    },
  };
}

/**
 * The order as sold: every line's name, image, options and prices copied from the priced checkout, so
 * a later change to the catalog never alters it. Status fields, number and dates are the row's.
 */
export function orderDocument(source: OrderSource): StoredOrder {
  const { priced } = source;
  const zero = { amount: '0.00', formattedAmount: formatMoney(0, priced.currency) };
  const lineItems = priced.lineItems.map((line) => {
    const calculated = priced.calculatedLineItems.find(
      (item) => item.lineItemId === line.id,
    )?.pricesBreakdown;
    const tax = calculated?.taxDetails;
    return {
      // each priced line is a stored line's (pricing/contract.ts), which has its id and quantity
      id: line.id as string,
      productName: line.productName,
      catalogReference: line.catalogReference,
      quantity: line.quantity as number,
      price: price(calculated?.price, line.price),
      priceBeforeDiscounts: price(calculated?.priceBeforeDiscounts, line.priceBeforeDiscounts ?? line.price),
      lineItemPrice: price(calculated?.lineItemPrice, line.lineItemPrice),
      totalPriceBeforeTax: price(calculated?.totalPriceBeforeTax, line.lineItemPrice),
      totalPriceAfterTax: price(calculated?.totalPriceAfterTax, line.lineItemPrice),
      totalDiscount: price(calculated?.totalDiscount, zero),
      taxInfo: {
        taxAmount: price(tax?.totalTax, zero),
        taxableAmount: price(tax?.taxableAmount, calculated?.totalPriceBeforeTax ?? line.lineItemPrice),
        taxRate: tax?.taxRate ?? '0',
        taxIncludedInPrice: priced.taxIncludedInPrices,
        taxBreakdown: tax?.taxBreakdown ?? [],
      },
      taxDetails: {
        taxRate: tax?.taxRate ?? '0',
        totalTax: price(tax?.totalTax, zero),
        taxableAmount: price(tax?.taxableAmount, calculated?.totalPriceBeforeTax ?? line.lineItemPrice),
      },
      descriptionLines: line.descriptionLines ?? [],
      ...(line.image ? { image: line.image } : {}),
      physicalProperties: line.physicalProperties ?? { shippable: false },
      itemType: line.itemType,
      paymentOption: line.paymentOption ?? 'FULL_PAYMENT_ONLINE',
      ...(line.subscriptionOptionInfo ? { subscriptionInfo: subscriptionInfoOf(line, source) } : {}),
    };
  });
  const selected = priced.shippingInfo.selectedCarrierServiceOption;
  const destination = source.shippingAddress
    ? {
        address: source.shippingAddress,
        ...(source.contactDetails ? { contactDetails: source.contactDetails } : {}),
      }
    : undefined;
  const summary = priced.priceSummary;
  return {
    lineItems,
    buyerInfo: {
      ...(source.buyer.visitorId ? { visitorId: source.buyer.visitorId } : {}),
      ...(source.buyer.memberId ? { memberId: source.buyer.memberId } : {}),
      contactId: source.buyer.contactId,
      email: source.buyer.email,
    },
    buyerNote: source.buyerNote,
    billingInfo: source.billingAddress
      ? {
          address: source.billingAddress,
          ...(source.contactDetails ? { contactDetails: source.contactDetails } : {}),
        }
      : {},
    ...(priced.shippable && selected
      ? {
          shippingInfo: {
            ...(selected.carrierId ? { carrierId: selected.carrierId } : {}),
            code: selected.code,
            title: selected.title,
            logistics: {
              ...(selected.logistics?.pickupDetails
                ? { pickupDetails: selected.logistics.pickupDetails }
                : destination
                  ? { shippingDestination: destination }
                  : {}),
              ...(selected.logistics?.deliveryTime ? { deliveryTime: selected.logistics.deliveryTime } : {}),
              ...(selected.logistics?.instructions ? { instructions: selected.logistics.instructions } : {}),
              ...(selected.logistics?.deliveryTimeSlot
                ? { deliveryTimeSlot: selected.logistics.deliveryTimeSlot }
                : {}),
            },
            cost: {
              price: price(selected.cost?.price, summary.shipping),
              totalPriceBeforeTax: price(selected.cost?.totalPriceBeforeTax, selected.cost?.price),
              totalPriceAfterTax: price(selected.cost?.totalPriceAfterTax, selected.cost?.price),
            },
            ...(priced.shippingInfo.region ? { region: priced.shippingInfo.region } : {}),
          },
        }
      : {}),
    ...(priced.shippable && destination ? { recipientInfo: destination } : {}),
    priceSummary: {
      subtotal: price(summary.subtotal, zero),
      shipping: price(summary.shipping, zero),
      tax: price(summary.tax, zero),
      discount: price(summary.discount, zero),
      total: price(summary.total, zero),
      totalAdditionalFees: price(summary.additionalFees, zero),
    },
    appliedDiscounts: priced.appliedDiscounts,
    taxSummary: priced.taxSummary,
    currency: priced.currency,
    weightUnit: priced.weightUnit,
    taxIncludedInPrices: priced.taxIncludedInPrices,
    channelInfo: { type: source.channelType },
    checkoutId: source.checkoutId,
    tags: { privateTags: { tagIds: [] }, tags: { tagIds: [] } },
    activities: [],
  };
}
