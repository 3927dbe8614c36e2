/** Subscription contracts: the agreement behind each recurring order. */
import type { AddressWithContact, BuyerInfo, WeightUnit } from './common.ts';
import type { AppliedDiscount, SubscriptionSettings } from './ecom-common.ts';
import type { OrderLineItem, OrderPriceSummary, OrderShippingInfo } from './ecom-orders.ts';

export interface SubscriptionContract {
  id?: string | null;
  revision?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  description?: string | null;
  title?: string | null;
  subscriptionSettings?: SubscriptionSettings;
  lineItems?: OrderLineItem[];
  buyerInfo?: BuyerInfo;
  buyerLanguage?: string | null;
  weightUnit?: WeightUnit;
  currency?: string | null;
  taxIncludedInPrices?: boolean;
  priceSummary?: OrderPriceSummary;
  billingInfo?: AddressWithContact;
  shippingInfo?: OrderShippingInfo;
  appliedDiscounts?: AppliedDiscount[];
  recipientInfo?: AddressWithContact;
}
