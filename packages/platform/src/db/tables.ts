import type { AbandonedCheckoutTables } from '../abandoned-checkouts/tables.ts';
import type { BackInStockTables } from '../back-in-stock/tables.ts';
import type { BillingTables } from '../billing/tables.ts';
import type { CartTables } from '../carts/tables.ts';
import type { CatalogTables } from '../catalog/tables.ts';
import type { CheckoutTemplateTables } from '../checkout-templates/tables.ts';
import type { CheckoutTables } from '../checkouts/tables.ts';
import type { EmailTables } from '../email/tables.ts';
import type { EventTables } from '../events/tables.ts';
import type { FulfillmentTables } from '../fulfillments/tables.ts';
import type { IdentityTables } from '../identity/tables.ts';
import type { MemberTables } from '../members/tables.ts';
import type { OAuthTables } from '../oauth/tables.ts';
import type { OrderViewTables } from '../order-views/tables.ts';
import type { OrderTables } from '../orders/tables.ts';
import type { PaymentTables } from '../payments/tables.ts';
import type { SettingsTables } from '../settings/tables.ts';
import type { StaffTables } from '../staff/tables.ts';
import type { StoreSettingsTables } from '../store-settings/tables.ts';
import type { SubscriptionTables } from '../subscriptions/tables.ts';
import type { WebhookTables } from '../webhooks/tables.ts';
import type { WorkerTables } from '../workers/tables.ts';

/** Rows as the database holds them. Dates are ISO-8601 text, booleans 0/1, documents JSON text. */
export interface Tables
  extends SettingsTables,
    CatalogTables,
    IdentityTables,
    MemberTables,
    EmailTables,
    OAuthTables,
    EventTables,
    StoreSettingsTables,
    CartTables,
    CheckoutTables,
    CheckoutTemplateTables,
    AbandonedCheckoutTables,
    BackInStockTables,
    SubscriptionTables,
    OrderTables,
    PaymentTables,
    FulfillmentTables,
    StaffTables,
    BillingTables,
    OrderViewTables,
    WorkerTables,
    WebhookTables {}
