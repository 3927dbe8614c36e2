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

/** A buyer's request to hear when an out-of-stock item is back (hosted `BackInStockNotificationRequest`). */
export interface BackInStockRequest {
  id?: string | null;
  /** The stores app's product and `{ variantId }` or `{ options }` naming its variant. */
  catalogReference?: CatalogReference;
  email?: string;
  /** The member who asked, when a member did. */
  contactId?: string | null;
  /** RECEIVED when made; PROCESSING while its email goes; then NOTIFICATION_SENT, or FAILED. */
  status?: BackInStockRequestStatus;
  /** Set once notified: true when the store sent the email, false when marked sent by hand. */
  autoNotified?: boolean | null;
  createdDate?: Date;
  itemUrl?: string | null;
  /** Cartwheel's: why the last notification failed, while FAILED (it is tried again). */
  failureReason?: string;
}

/** The item as the shopper saw it, which the email names (hosted `BackInStockItemDetails`). */
export interface BackInStockItemDetails {
  name: string;
  /** As shown, e.g. `$25.00`. */
  price: string;
  image?: { id?: string; url?: string; height?: number; width?: number; altText?: string | null } | null;
}

/** How many requests wait for one item (hosted `BackInStockNotificationRequestsCount`). */
export interface BackInStockRequestsCount {
  catalogReference: CatalogReference;
  /** The item's requests still RECEIVED: shoppers who will get an email when it is back. */
  count: number;
}

/** Whether the store takes new requests, per catalog app (hosted `BackInStockSettings`). */
export interface BackInStockSettings {
  collectionStates: Array<{ appId: string; collectingRequests: boolean }>;
}
