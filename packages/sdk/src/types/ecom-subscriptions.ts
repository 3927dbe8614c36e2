/** Subscription contracts: the agreement behind each recurring order. */
import type { AddressWithContact, BuyerInfo, WeightUnit } from './common.ts';
import type { AppliedDiscount, SubscriptionSettings } from './ecom-common.ts';
import type { OrderLineItem, OrderPriceSummary, OrderShippingInfo } from './ecom-orders.ts';

/**
 * Where a contract stands (Cartwheel's own field; the hosted contract has none): renewed each period
 * (`ACTIVE`), held by its member or the merchant (`PAUSED`), stopped for good (`CANCELED`), every
 * billing cycle billed (`ENDED`), or its renewal's charge declined after every retry (`PAYMENT_FAILED`).
 */
export const SUBSCRIPTION_CONTRACT_STATUSES = [
  'ACTIVE',
  'PAUSED',
  'CANCELED',
  'ENDED',
  'PAYMENT_FAILED',
] as const;
export type SubscriptionContractStatus = (typeof SUBSCRIPTION_CONTRACT_STATUSES)[number];

/** The last declined charge of the cycle a contract waits to renew (Cartwheel's own field). */
export interface SubscriptionRenewalFailure {
  /** The provider's decline code (`CARD_DECLINED`, `AUTHENTICATION_REQUIRED`, ...). */
  code?: string;
  description?: string;
  failedDate?: Date;
  /** Declined charges of this cycle so far. */
  failedAttempts?: number;
  /** When the charge is tried again; absent once the retries are spent. */
  nextAttemptDate?: Date;
}

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
  channelInfo?: { type?: string };
  /** Cartwheel's own: where the contract stands. */
  status?: SubscriptionContractStatus;
  /** Cartwheel's own: the order that started it (its first cycle). */
  firstOrderId?: string;
  /** Cartwheel's own: how many cycles have their order made and paid. */
  cyclesBilled?: number;
  /** Cartwheel's own: when the next cycle's order is due (while it is active or paused). */
  nextBillingDate?: Date;
  /** Cartwheel's own: the next cycle's last declined charge, while it waits for a retry or gave up. */
  renewalFailure?: SubscriptionRenewalFailure;
}

/** A field's condition in a query's filter: a value, or `{$operator: value}`. */
type FieldCondition<T> =
  | T
  | {
      $eq?: T;
      $ne?: T;
      $gt?: T;
      $gte?: T;
      $lt?: T;
      $lte?: T;
      $in?: T[];
      $startsWith?: string;
      $exists?: boolean;
    };

/**
 * `querySubscriptionContracts`'s query: the hosted fields (`id`, `buyerInfo.contactId`) with any
 * operator and sort, Cartwheel's filters by status and member, cursor paging.
 */
export interface SubscriptionContractQuery {
  filter?: {
    id?: FieldCondition<string>;
    'buyerInfo.contactId'?: FieldCondition<string | null>;
    status?: FieldCondition<SubscriptionContractStatus>;
    /** Staff only (a member sees their own). */
    'buyerInfo.memberId'?: FieldCondition<string>;
  };
  sort?: Array<{ fieldName: 'id' | '_id' | 'buyerInfo.contactId'; order?: 'ASC' | 'DESC' }>;
  /** A next page's `cursor` carries the filter and sort it was made with. */
  cursorPaging?: { limit?: number; cursor?: string | null };
}

export interface SubscriptionContractsPage {
  subscriptionContracts?: SubscriptionContract[];
  /** As the hosted wire names it. */
  pagingMetadata?: { count?: number; cursors?: { next?: string | null }; hasNext?: boolean };
}
