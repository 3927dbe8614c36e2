/** Winning buyers back: abandoned checkouts and back-in-stock requests. */
import type { BuyerInfo, FullAddressContactDetails, MultiCurrencyPrice } from './common.ts';
import type { CatalogReference } from './ecom-common.ts';

export const ABANDONED_CHECKOUT_STATUSES = ['ABANDONED', 'RECOVERED'] as const;
export type AbandonedCheckoutStatus = (typeof ABANDONED_CHECKOUT_STATUSES)[number];

export const BACK_IN_STOCK_REQUEST_STATUSES = [
  'RECEIVED',
  'PROCESSING',
  'NOTIFICATION_SENT',
  'FAILED',
] as const;
export type BackInStockRequestStatus = (typeof BACK_IN_STOCK_REQUEST_STATUSES)[number];

export interface AbandonedCheckoutActivity {
  createdDate?: Date;
  /** `NOT_SENT`, `SCHEDULED`, `EMAIL_SENT`, ... */
  type?: string;
}

export interface AbandonedCheckout {
  id?: string;
  createdDate?: Date;
  updatedDate?: Date;
  checkoutId?: string | null;
  cartId?: string | null;
  status?: AbandonedCheckoutStatus;
  buyerLanguage?: string | null;
  buyerInfo?: BuyerInfo;
  contactDetails?: FullAddressContactDetails;
  currency?: string;
  conversionCurrency?: string | null;
  totalPrice?: MultiCurrencyPrice;
  subtotalPrice?: MultiCurrencyPrice;
  activities?: AbandonedCheckoutActivity[];
  /** When the buyer came back and completed it. */
  checkoutRecoveredDate?: Date;
  checkoutUrl?: string;
}

/** A buyer's request to hear when an out-of-stock item is back. */
export interface BackInStockRequest {
  id?: string | null;
  catalogReference?: CatalogReference;
  email?: string;
  contactId?: string | null;
  status?: BackInStockRequestStatus;
  autoNotified?: boolean | null;
  createdDate?: Date;
  itemUrl?: string | null;
}
