import type { BillingTables } from '../billing/tables.ts';
import type { CartTables } from '../carts/tables.ts';
import type { CatalogTables } from '../catalog/tables.ts';
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
import type { StaffTables } from '../staff/tables.ts';
import type { StoreSettingsTables } from '../store-settings/tables.ts';
import type { WorkerTables } from '../workers/tables.ts';

/** Rows as the database holds them. Dates are ISO-8601 text, booleans 0/1, documents JSON text. */
export interface CoreTables {
  settings: { key: string; value: string };
  oauth_clients: {
    id: string;
    name: string;
    /** JSON array of exact redirect URIs. */
    redirect_uris: string;
    /** JSON array of origins (`http://localhost:4000`). */
    allowed_origins: string;
    created_at: string;
  };
  refresh_tokens: {
    /** SHA-256 of the token: the token itself is never stored. */
    token_hash: string;
    family_id: string;
    client_id: string;
    role: 'visitor' | 'member';
    visitor_id: string;
    member_id: string | null;
    created_at: string;
    expires_at: string;
    used_at: string | null;
    revoked_at: string | null;
    /** When the member proved who they are (a password, a reset link); kept across refreshes. Null before 0012. */
    signed_in_at: string | null;
  };
}

export interface Tables
  extends CoreTables,
    CatalogTables,
    IdentityTables,
    MemberTables,
    EmailTables,
    OAuthTables,
    EventTables,
    StoreSettingsTables,
    CartTables,
    CheckoutTables,
    OrderTables,
    PaymentTables,
    FulfillmentTables,
    StaffTables,
    BillingTables,
    OrderViewTables,
    WorkerTables {}
