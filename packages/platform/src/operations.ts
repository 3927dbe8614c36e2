import { ABANDONED_CHECKOUT_OPERATIONS } from './abandoned-checkouts/operations-access.ts';
import {
  BACK_IN_STOCK_OPERATIONS,
  BACK_IN_STOCK_SETTINGS_OPERATIONS,
} from './back-in-stock/operations-access.ts';
import { BILLING_OPERATIONS } from './billing/operations-access.ts';
import { CART_OPERATIONS } from './carts/operations-access.ts';
import { CATALOG_OPERATIONS } from './catalog/operations-access.ts';
import { CHECKOUT_TEMPLATE_OPERATIONS } from './checkout-templates/operations-access.ts';
import { CHECKOUT_OPERATIONS } from './checkouts/operations-access.ts';
import { EMAIL_OPERATIONS } from './email/operations-access.ts';
import { FULFILLMENT_OPERATIONS } from './fulfillments/operations-access.ts';
import { GRAPHQL_OPERATIONS } from './graphql/operations-access.ts';
import { PLATFORM_OPERATIONS } from './http/operations-access.ts';
import { IDENTITY_OPERATIONS } from './identity/operations-access.ts';
import { MEMBER_OPERATIONS } from './members/operations-access.ts';
import { OAUTH_OPERATIONS } from './oauth/operations-access.ts';
import { ORDER_VIEW_OPERATIONS } from './order-views/operations-access.ts';
import { ORDER_OPERATIONS } from './orders/operations-access.ts';
import { PAYMENT_OPERATIONS } from './payments/operations-access.ts';
import type { Operation, OperationTable } from './shared/access.ts';
import { STAFF_OPERATIONS } from './staff/operations-access.ts';
import { STORE_SETTINGS_OPERATIONS } from './store-settings/operations-access.ts';
import { SUBSCRIPTION_CONTRACT_OPERATIONS } from './subscriptions/operations-access.ts';
import { WEBHOOK_OPERATIONS } from './webhooks/operations-access.ts';

/**
 * Every domain's operation table: what the platform exposes and who may call each operation. The REST
 * routes read their entries; a second API (GraphQL, issue 33) reads the same tables, so a call has one
 * access rule whichever API serves it. A new domain's table is added here.
 */
export const OPERATION_TABLES: readonly OperationTable[] = [
  PLATFORM_OPERATIONS,
  OAUTH_OPERATIONS,
  IDENTITY_OPERATIONS,
  MEMBER_OPERATIONS,
  CATALOG_OPERATIONS,
  CART_OPERATIONS,
  CHECKOUT_OPERATIONS,
  CHECKOUT_TEMPLATE_OPERATIONS,
  ABANDONED_CHECKOUT_OPERATIONS,
  BACK_IN_STOCK_OPERATIONS,
  BACK_IN_STOCK_SETTINGS_OPERATIONS,
  SUBSCRIPTION_CONTRACT_OPERATIONS,
  ORDER_OPERATIONS,
  ORDER_VIEW_OPERATIONS,
  FULFILLMENT_OPERATIONS,
  PAYMENT_OPERATIONS,
  BILLING_OPERATIONS,
  STORE_SETTINGS_OPERATIONS,
  STAFF_OPERATIONS,
  EMAIL_OPERATIONS,
  WEBHOOK_OPERATIONS,
  GRAPHQL_OPERATIONS,
];

/** Every operation of every table, in the tables' order. */
export const allOperations = (): Operation[] => OPERATION_TABLES.flatMap((table) => Object.values(table));
