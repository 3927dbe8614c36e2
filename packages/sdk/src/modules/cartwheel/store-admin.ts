import type { ModuleDefinition } from '../../client.ts';
import { everyHost } from '../../transport/domains.ts';
import type { HttpMethod, Transport } from '../../transport/http.ts';
import type { DiscountRule } from '../../types/ecom-discounts.ts';
import { ecomService } from '../ecom/domains.ts';
import { segment } from '../stores/domains.ts';
import { CARTWHEEL_API } from './domains.ts';
import type { StaffMember, StaffPermission } from './staff-session.ts';

/**
 * Cartwheel's own admin calls (`/api/cartwheel/...`): staff, roles, API keys, the audit log and the
 * store's payment and store settings. The hosted platform keeps these in its dashboard, so there is no
 * hosted client to match; the paths are the same on every host. Its own module object (`storeAdmin`),
 * so a storefront that never imports it ships none of it.
 */
const CARTWHEEL_ADMIN = CARTWHEEL_API;

export interface StaffRole {
  id: string;
  name: string;
  permissions: StaffPermission[];
  createdDate: string;
  updatedDate: string;
}

/** A staff record as the staff list answers it: the session's `StaffMember` and its dates. */
export interface StaffRecord extends StaffMember {
  /** The identity (and member) id, once the invitation is accepted. */
  identityId: string | null;
  createdDate: string;
  updatedDate: string;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  /** The key's first characters, to tell keys apart (the key itself is shown once, at creation). */
  keyPrefix: string;
  permissions: StaffPermission[];
  createdDate: string;
  expiresDate: string | null;
  lastUsedDate: string | null;
  revokedDate: string | null;
}

export interface CreateApiKeyInput {
  name: string;
  permissions: StaffPermission[];
  /** ISO date-time; none for a key that does not expire. */
  expiresDate?: string | null;
}

export interface AuditEntry {
  id: string;
  date: string;
  actor: { type: string; id: string | null; name: string | null };
  /**
   * The operation the call made, named as the platform's operation tables name it
   * (`orders.cancelOrder`, `catalog.createProduct`); null on entries recorded before operations were.
   */
  operation: string | null;
  method: string;
  route: string;
  path: string;
  status: number;
  address: string;
  requestId: string;
}

export interface AuditLogPage {
  entries: AuditEntry[];
  /** Pass as `before` for the next (older) page; null on the last. */
  nextCursor: string | null;
}

/** An app's webhook endpoint: the app is the caller's (an API key's, or the OAuth client staff signed in through). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  eventTypes: string[];
  status: 'ACTIVE' | 'PAUSED';
  /** Why it is paused: `REQUESTED` (paused by hand), `GONE` (it answered 410), `FAILING` (down for days). */
  pausedReason: 'REQUESTED' | 'GONE' | 'FAILING' | null;
  /** `JWT`: the hosted platform's signed body; `STANDARD`: Standard Webhooks headers. */
  signature: 'JWT' | 'STANDARD';
  createdDate: string;
  updatedDate: string;
}

export interface CreateWebhookInput {
  url: string;
  eventTypes: string[];
  signature?: 'JWT' | 'STANDARD';
}

export interface WebhookChange {
  url?: string;
  eventTypes?: string[];
  /** `PAUSED` holds its deliveries; `ACTIVE` resumes, sending everything it missed in order. */
  status?: 'ACTIVE' | 'PAUSED';
}

/** One attempt to send a delivery: what the receiver answered, or what went wrong. */
export interface WebhookAttempt {
  attempt: number;
  date: string;
  /** `DELIVERED`, `FAILED`, `TIMEOUT`, `UNREACHABLE`, `REFUSED_ADDRESS` or `GONE`. */
  outcome: string;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
}

/** One event sent to one endpoint: `DEAD` when retries were used up (a dead letter). */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  entityEventSequence: string | null;
  status: 'PENDING' | 'DELIVERED' | 'DEAD';
  /** A test event (`POST .../test`), about no real entity. */
  test: boolean;
  /** The event as sent: the hosted domain event, or a v1 catalog plain event's data. */
  payload: Record<string, unknown>;
  attempts: WebhookAttempt[];
  nextAttemptDate: string | null;
  createdDate: string;
  deliveredDate: string | null;
}

/** An event type an endpoint may take, and the permission its app must hold to take it. */
export interface WebhookEventTypeInfo {
  eventType: string;
  permission: StaffPermission | null;
}

export type CaptureMode = 'IMMEDIATE' | 'AUTHORIZE_ONLY';

export interface PaymentSettings {
  capture: CaptureMode;
}

/** How members join and sign in (`/api/cartwheel/identity-settings`). */
export interface IdentitySettings {
  /** New members confirm their email with a code before they can sign in. */
  requireEmailVerification: boolean;
  /** New members wait for the owner's approval before they can sign in. */
  requireOwnerApproval: boolean;
  /** A solved captcha on every registration and login. */
  captcha: 'off' | 'required';
  /** The owner and staff whose role moves money (capture, void, refund) pass a second step at every sign-in. */
  requireStaffSecondStep: boolean;
}

/** What a reconciliation found the store's payments and a provider's charges to disagree on. */
export type ReconciliationDifferenceKind =
  /** The provider holds a charge that no payment of the store names: money taken with no order. */
  | 'NOT_IN_CARTWHEEL'
  /** A payment of the store names a charge the provider does not have. */
  | 'NOT_AT_PROVIDER'
  | 'AMOUNT_DIFFERS'
  /** Held at one side, taken or released at the other (captured or voided outside the store). */
  | 'STATE_DIFFERS'
  | 'CAPTURED_DIFFERS'
  /** Refunded more at one side (a refund made at the provider's dashboard and not recorded, say). */
  | 'REFUNDED_DIFFERS';

/** A charge's money as one side sees it: held, taken, released, or a 3-D Secure step still open. */
export type ReconciledChargeState = 'AUTHORIZED' | 'CAPTURED' | 'CANCELED' | 'PENDING';

/** One side of a reconciled payment. */
export interface ReconciledSide {
  amount: string;
  currency: string;
  state: ReconciledChargeState;
  capturedAmount: string;
  /** What was given back of it: refunds at the provider, or the store's refunds of the payment. */
  refundedAmount: string;
  createdDate: string;
}

export interface ReconciliationDifference {
  kind: ReconciliationDifferenceKind;
  providerId: string;
  transactionId: string;
  /** The order the payment belongs to, when the store has the payment. */
  orderId: string | null;
  cartwheel: ReconciledSide | null;
  provider: ReconciledSide | null;
}

/** The store's payments beside each provider's own charges for a period (`to` excluded). */
export interface PaymentReconciliation {
  from: string;
  to: string;
  providers: {
    providerId: string;
    /** False: the provider cannot list its charges, and its payments were not compared. */
    compared: boolean;
    payments: number;
    charges: number;
  }[];
  differences: ReconciliationDifference[];
}

export interface StoreSettings {
  currency: string;
  weightUnit: 'KG' | 'LB';
  taxIncludedInPrices: boolean;
}

export interface TaxRegion {
  id: string;
  name: string;
  country: string;
  /** ISO 3166-2 (`US-NY`), or null for the whole country. */
  subdivision: string | null;
  /** Decimal string between 0 and 1: `"0.08875"`. */
  rate: string;
  taxShipping: boolean;
  createdDate: string;
  updatedDate: string;
}

export interface TaxRegionInput {
  name: string;
  country: string;
  subdivision?: string | null;
  rate: string;
  taxShipping?: boolean;
}

export type CouponDiscountType = 'PERCENTAGE' | 'FIXED_AMOUNT' | 'FREE_SHIPPING';

export interface StoreCoupon {
  id: string;
  code: string;
  name: string;
  active: boolean;
  discountType: CouponDiscountType;
  percentage?: number | null;
  fixedAmount?: string | null;
  productIds?: string[];
  collectionIds?: string[];
  minimumSubtotal?: string | null;
  startTime?: string | null;
  expirationTime?: string | null;
  createdDate: string;
  updatedDate: string;
}

export type StoreCouponInput = Omit<StoreCoupon, 'id' | 'name' | 'active' | 'createdDate' | 'updatedDate'> & {
  name?: string;
  active?: boolean;
};

/** Where `now` falls in a coupon's start..expiration window, as the platform reckons it. */
export function couponWindowStatus(
  coupon: Pick<StoreCoupon, 'startTime' | 'expirationTime'>,
  now: Date = new Date(),
): 'LIVE' | 'PENDING' | 'EXPIRED' {
  if (coupon.startTime && Date.parse(coupon.startTime) > now.getTime()) return 'PENDING';
  if (coupon.expirationTime && Date.parse(coupon.expirationTime) <= now.getTime()) return 'EXPIRED';
  return 'LIVE';
}

export interface StoreShippingOption {
  code: string;
  title: string;
  /** Free text: "3-5 business days". */
  deliveryTime?: string | null;
  rate: {
    kind: 'FLAT_RATE' | 'BY_WEIGHT';
    price?: string;
    pricePerWeightUnit?: string;
    weightBrackets?: Array<{ upToWeight: number | null; price: string }>;
    freeShippingAbove?: string | null;
  };
  deliveryTimeSlots?: Array<{ from: string; to: string }>;
}

export interface StoreShippingRegion {
  id: string;
  name: string;
  destinations: Array<{ country: string; subdivisions?: string[] }>;
  options: StoreShippingOption[];
  createdDate: string;
  updatedDate: string;
}

export type StoreShippingRegionInput = Pick<StoreShippingRegion, 'name' | 'destinations' | 'options'>;

/** Where a buyer may collect an order: offered beside every shipment. */
export interface StorePickupLocation {
  id: string;
  code: string;
  title: string;
  pickupMethod: 'STORE_PICKUP' | 'PICKUP_POINT';
  address: {
    country?: string | null;
    subdivision?: string | null;
    city?: string | null;
    postalCode?: string | null;
    addressLine?: string | null;
    addressLine2?: string | null;
  };
  /** Decimal string, usually "0.00". */
  price: string;
  instructions?: string | null;
  deliveryTime?: string | null;
  createdDate: string;
  updatedDate: string;
}

export type StorePickupLocationInput = Omit<StorePickupLocation, 'id' | 'createdDate' | 'updatedDate'>;

/** An image as the hosted wire sends it: `{url}` at least; the rest as the media library gave it. */
export interface CheckoutImage {
  id?: string;
  url?: string;
  height?: number;
  width?: number;
  altText?: string | null;
  filename?: string | null;
}

/** The checkout header's logo: the image and how big it shows (its alignment is the header's). */
export interface CheckoutLogoSetting {
  image?: CheckoutImage;
  size: 'SMALL' | 'MEDIUM' | 'LARGE';
}

/** A colour or an image behind a part of the checkout: one of the two. */
export interface CheckoutBackgroundFill {
  color?: string | null;
  image?: CheckoutImage;
}

export interface CheckoutPolicySetting {
  visible?: boolean | null;
  content?: string | null;
}

export interface CheckoutCheckboxSetting {
  visible?: boolean | null;
  checkedByDefault?: boolean | null;
}

/**
 * `GET /ecom/v1/checkout-settings` as Cartwheel answers it: the hosted call's whole shape (its
 * `CheckoutSettings`), with `status` (point 4): INACTIVE keeps the settings but the hosted checkout
 * page shows its plain default brand.
 */
export interface StoreCheckoutSettings {
  status: 'ACTIVE' | 'INACTIVE';
  checkoutPolicies: {
    termsAndConditions?: CheckoutPolicySetting;
    privacyPolicy?: CheckoutPolicySetting;
    returnPolicy?: CheckoutPolicySetting;
    digitalItemPolicy?: CheckoutPolicySetting;
    contactUs?: CheckoutPolicySetting;
    customPolicy?: CheckoutPolicySetting & { title?: string | null };
  };
  checkoutFields: {
    subscriptionCheckbox?: CheckoutCheckboxSetting & { splitByChannel?: boolean | null };
    policyAgreementCheckbox?: CheckoutCheckboxSetting;
    giftCardRedeemEnabled?: boolean | null;
    mitEnabled?: boolean | null;
    delayCaptureEnabled?: boolean | null;
    captureBeforeExpiryEnabled?: boolean | null;
  };
  checkoutBrand: {
    header: {
      text?: string | null;
      textColor?: string | null;
      /** null: the header shows the store's name alone. */
      logo: CheckoutLogoSetting | null;
      alignment: 'SIDE' | 'CENTER';
      displayCheckoutLabel?: boolean | null;
      continueShopping?: { hidden?: boolean | null; displayType?: 'TEXT' | 'ICON' };
      backgroundFill?: CheckoutBackgroundFill;
      dividerColor?: string | null;
    };
    mainSection?: {
      formBackgroundFill?: CheckoutBackgroundFill;
      summaryBackgroundFill?: CheckoutBackgroundFill;
      dividerColor?: string | null;
      tintedBoxColor?: string | null;
      expressButtonsCornerRadius?: 'RECTANGLE' | 'PILL';
      cornerRadius?: number | null;
    };
    footer?: { backgroundFill?: CheckoutBackgroundFill; dividerColor?: string | null };
    global?: {
      selectionColor?: string | null;
      placeOrderButtonColor?: string | null;
      buttonColor?: string | null;
    };
  };
  checkoutBillingFields?: 'All_FIELDS' | 'MINIMUM_REQUIRED_FIELDS';
  createdDate?: string;
  updatedDate?: string;
}

type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;

/** What `PATCH /ecom/v1/checkout-settings` takes: the fields named change, `null` clears one. */
export type CheckoutSettingsPatch = DeepPartial<Omit<StoreCheckoutSettings, 'createdDate' | 'updatedDate'>>;

/** A catalog line of a checkout template: a product (its variant by `options`) and how many. */
export interface CheckoutTemplateLine {
  quantity?: number;
  catalogReference: {
    appId: string;
    catalogItemId: string;
    options?: { variantId?: string; options?: Record<string, string> } | null;
  };
}

/** A line the merchant names and prices themselves. */
export interface CheckoutTemplateCustomLine {
  quantity?: number;
  price: string;
  productName: { original: string; translated?: string | null };
  itemType?: { preset?: 'PHYSICAL' | 'DIGITAL' | 'GIFT_CARD' | 'SERVICE'; custom?: string | null };
}

/**
 * `POST /ecom/v1/checkout-templates` as Cartwheel answers it: lines, custom lines and a coupon a buy
 * link (`create-and-redirect-to-checkout`) makes a checkout of. INACTIVE: it makes none.
 */
export interface StoreCheckoutTemplate {
  id: string;
  status: 'ACTIVE' | 'INACTIVE';
  customization: {
    webClient: { disabledContinueShoppingButton?: boolean; disabledPolicyAgreementCheckbox?: boolean };
    lockedGiftCard?: boolean;
    lockedCoupon?: boolean;
    disabledManualPayment?: boolean;
  };
  lineItems: CheckoutTemplateLine[];
  customLineItems: CheckoutTemplateCustomLine[];
  couponCode?: string | null;
  createdDate: string;
  updatedDate: string;
}

export type CheckoutTemplateInput = Partial<
  Pick<StoreCheckoutTemplate, 'status' | 'customization' | 'lineItems' | 'customLineItems' | 'couponCode'>
>;

/** A checkout left unfinished with a buyer email, as the back office lists it (hosted `AbandonedCheckout`). */
export interface StoreAbandonedCheckout {
  id: string;
  checkoutId: string;
  status: 'ABANDONED' | 'RECOVERED';
  buyerInfo: { email: string };
  currency: string;
  totalPrice: { amount: string; formattedAmount?: string };
  activities: Array<{ createdDate: string; type: 'EMAIL_SENT' | 'EMAIL_NOT_SENT' }>;
  checkoutRecoveredDate?: string;
  createdDate: string;
}

/** The hosted paths of the settings the hosted platform also serves: checkout settings, discount rules. */
const CHECKOUT_SETTINGS = ecomService(
  everyHost(['/v1/checkout-settings', '/ecom/v1/checkout-settings']),
  'checkoutSettings.v1.CheckoutSettingsService',
  'checkoutSettings',
);
const CHECKOUT_TEMPLATES = ecomService(
  everyHost(['/v1/checkout-templates', '/ecom/v1/checkout-templates']),
  'checkoutTemplates.v1.CheckoutTemplateService',
  'checkoutTemplate',
);
const ABANDONED_CHECKOUTS = ecomService(
  everyHost(['/v1/abandoned-checkout', '/ecom/v1/abandoned-checkout']),
  'abandonedCheckouts.v1.AbandonedCheckoutService',
  'abandonedCheckout',
);
const DISCOUNT_RULES = ecomService(
  everyHost(['/v1/discount-rules', '/ecom/v1/discount-rules']),
  'discounts.v1.DiscountRules',
  'discountRule',
);

function call<T>(
  transport: Transport,
  method: HttpMethod,
  path: string,
  name: string,
  body?: unknown,
  params?: Record<string, unknown>,
): Promise<T> {
  return transport.request<T>({
    method,
    path,
    mapping: CARTWHEEL_ADMIN,
    ...(body === undefined ? {} : { body }),
    ...(params ? { params } : {}),
    // the entity is the path's first part (`staff-roles`, `api-keys`)
    trace: {
      package: '@cartwheel/sdk',
      method: `cartwheel.admin.v1.StoreAdmin.${name}`,
      entity: path.split('/')[1] ?? '',
    },
  });
}

const id = (value: string) => segment(value);

export const storeAdmin = {
  /** `GET /api/cartwheel/permissions`: every permission there is. */
  listPermissions: (t: Transport) => async (): Promise<StaffPermission[]> =>
    (await call<{ permissions: StaffPermission[] }>(t, 'GET', '/permissions', 'ListPermissions')).permissions,

  /** `GET /api/cartwheel/staff-roles`. */
  listRoles: (t: Transport) => async (): Promise<StaffRole[]> =>
    (await call<{ roles: StaffRole[] }>(t, 'GET', '/staff-roles', 'ListRoles')).roles,
  /** `POST /api/cartwheel/staff-roles` {role: {name, permissions}}. */
  createRole:
    (t: Transport) =>
    async (role: { name: string; permissions: StaffPermission[] }): Promise<StaffRole> =>
      (await call<{ role: StaffRole }>(t, 'POST', '/staff-roles', 'CreateRole', { role })).role,
  /** `PATCH /api/cartwheel/staff-roles/{id}` {role: {name?, permissions?}}. */
  updateRole:
    (t: Transport) =>
    async (roleId: string, role: { name?: string; permissions?: StaffPermission[] }): Promise<StaffRole> =>
      (await call<{ role: StaffRole }>(t, 'PATCH', `/staff-roles/${id(roleId)}`, 'UpdateRole', { role }))
        .role,
  /** `DELETE /api/cartwheel/staff-roles/{id}`: refused with `ROLE_IN_USE` while someone holds it. */
  deleteRole:
    (t: Transport) =>
    async (roleId: string): Promise<void> => {
      await call(t, 'DELETE', `/staff-roles/${id(roleId)}`, 'DeleteRole');
    },

  /** `GET /api/cartwheel/staff`. */
  listStaff: (t: Transport) => async (): Promise<StaffRecord[]> =>
    (await call<{ staff: StaffRecord[] }>(t, 'GET', '/staff', 'ListStaff')).staff,
  /** `POST /api/cartwheel/staff/invitations` {email, roleId}: mails the invitation. */
  inviteStaff:
    (t: Transport) =>
    async (invitation: { email: string; roleId: string }): Promise<StaffRecord> =>
      (await call<{ staffMember: StaffRecord }>(t, 'POST', '/staff/invitations', 'InviteStaff', invitation))
        .staffMember,
  /** `PATCH /api/cartwheel/staff/{id}` {roleId}. */
  changeStaffRole:
    (t: Transport) =>
    async (staffId: string, roleId: string): Promise<StaffRecord> =>
      (
        await call<{ staffMember: StaffRecord }>(t, 'PATCH', `/staff/${id(staffId)}`, 'ChangeStaffRole', {
          roleId,
        })
      ).staffMember,
  /** `POST /api/cartwheel/staff/{id}/suspend`: their sign-ins end. */
  suspendStaff:
    (t: Transport) =>
    async (staffId: string): Promise<StaffRecord> =>
      (
        await call<{ staffMember: StaffRecord }>(
          t,
          'POST',
          `/staff/${id(staffId)}/suspend`,
          'SuspendStaff',
          {},
        )
      ).staffMember,
  /** `POST /api/cartwheel/staff/{id}/reinstate`. */
  reinstateStaff:
    (t: Transport) =>
    async (staffId: string): Promise<StaffRecord> =>
      (
        await call<{ staffMember: StaffRecord }>(
          t,
          'POST',
          `/staff/${id(staffId)}/reinstate`,
          'ReinstateStaff',
          {},
        )
      ).staffMember,
  /** `DELETE /api/cartwheel/staff/{id}`. */
  removeStaff:
    (t: Transport) =>
    async (staffId: string): Promise<void> => {
      await call(t, 'DELETE', `/staff/${id(staffId)}`, 'RemoveStaff');
    },

  /** `GET /api/cartwheel/api-keys`: keys without their secret, with `lastUsedDate`. */
  listApiKeys: (t: Transport) => async (): Promise<ApiKeyInfo[]> =>
    (await call<{ apiKeys: ApiKeyInfo[] }>(t, 'GET', '/api-keys', 'ListApiKeys')).apiKeys,
  /** `POST /api/cartwheel/api-keys` {apiKey}: `key` is in this answer only. */
  createApiKey:
    (t: Transport) =>
    (apiKey: CreateApiKeyInput): Promise<{ apiKey: ApiKeyInfo; key: string }> =>
      call(t, 'POST', '/api-keys', 'CreateApiKey', { apiKey }),
  /** `POST /api/cartwheel/api-keys/{id}/revoke`. */
  revokeApiKey:
    (t: Transport) =>
    async (keyId: string): Promise<ApiKeyInfo> =>
      (await call<{ apiKey: ApiKeyInfo }>(t, 'POST', `/api-keys/${id(keyId)}/revoke`, 'RevokeApiKey', {}))
        .apiKey,

  /** `GET /api/cartwheel/audit-log?limit=&before=`: newest first. */
  listAuditLog:
    (t: Transport) =>
    (options: { limit?: number; before?: string } = {}): Promise<AuditLogPage> =>
      call(t, 'GET', '/audit-log', 'ListAuditLog', undefined, {
        limit: options.limit,
        before: options.before,
      }),

  /** `GET /api/cartwheel/webhooks`: the caller's app's endpoints. */
  listWebhooks: (t: Transport) => async (): Promise<WebhookEndpoint[]> =>
    (await call<{ webhooks: WebhookEndpoint[] }>(t, 'GET', '/webhooks', 'ListWebhooks')).webhooks,
  /** `POST /api/cartwheel/webhooks` {webhook}: a Standard Webhooks endpoint's `secret` is in this answer only. */
  createWebhook:
    (t: Transport) =>
    (webhook: CreateWebhookInput): Promise<{ webhook: WebhookEndpoint; secret?: string }> =>
      call(t, 'POST', '/webhooks', 'CreateWebhook', { webhook }),
  /** `PATCH /api/cartwheel/webhooks/{id}` {webhook}: its URL, event types, or pause / resume. */
  updateWebhook:
    (t: Transport) =>
    async (webhookId: string, webhook: WebhookChange): Promise<WebhookEndpoint> =>
      (
        await call<{ webhook: WebhookEndpoint }>(t, 'PATCH', `/webhooks/${id(webhookId)}`, 'UpdateWebhook', {
          webhook,
        })
      ).webhook,
  /** `DELETE /api/cartwheel/webhooks/{id}`: with its deliveries and their log. */
  deleteWebhook:
    (t: Transport) =>
    async (webhookId: string): Promise<void> => {
      await call(t, 'DELETE', `/webhooks/${id(webhookId)}`, 'DeleteWebhook');
    },
  /** `GET /api/cartwheel/webhooks/event-types`: what an endpoint may take. */
  listWebhookEventTypes: (t: Transport) => async (): Promise<WebhookEventTypeInfo[]> =>
    (await call<{ eventTypes: WebhookEventTypeInfo[] }>(t, 'GET', '/webhooks/event-types', 'ListEventTypes'))
      .eventTypes,
  /** `GET /api/cartwheel/webhooks/{id}/deliveries?status=&limit=`: newest first, with every attempt. */
  listWebhookDeliveries:
    (t: Transport) =>
    async (
      webhookId: string,
      options: { status?: WebhookDelivery['status']; limit?: number } = {},
    ): Promise<WebhookDelivery[]> =>
      (
        await call<{ deliveries: WebhookDelivery[] }>(
          t,
          'GET',
          `/webhooks/${id(webhookId)}/deliveries`,
          'ListDeliveries',
          undefined,
          { status: options.status, limit: options.limit },
        )
      ).deliveries,
  /** `POST /api/cartwheel/webhooks/{id}/test`: a sample of the endpoint's first event type, sent now. */
  sendWebhookTestEvent:
    (t: Transport) =>
    async (webhookId: string): Promise<WebhookDelivery> =>
      (
        await call<{ delivery: WebhookDelivery }>(
          t,
          'POST',
          `/webhooks/${id(webhookId)}/test`,
          'SendTestEvent',
          {},
        )
      ).delivery,
  /** `POST /api/cartwheel/webhooks/{id}/deliveries/{deliveryId}/replay`: sent again, same event id. */
  replayWebhookDelivery:
    (t: Transport) =>
    async (webhookId: string, deliveryId: string): Promise<WebhookDelivery> =>
      (
        await call<{ delivery: WebhookDelivery }>(
          t,
          'POST',
          `/webhooks/${id(webhookId)}/deliveries/${id(deliveryId)}/replay`,
          'ReplayDelivery',
          {},
        )
      ).delivery,
  /** `POST /api/cartwheel/webhooks/{id}/replay` {since}: every delivery since then sent again, in order. */
  replayWebhookDeliveriesSince:
    (t: Transport) =>
    async (webhookId: string, since: string): Promise<number> =>
      (
        await call<{ replayed: number }>(t, 'POST', `/webhooks/${id(webhookId)}/replay`, 'ReplaySince', {
          since,
        })
      ).replayed,
  /** `GET /api/cartwheel/webhooks/dead-letters/count`: deliveries given up on, across the caller's endpoints. */
  countWebhookDeadLetters: (t: Transport) => async (): Promise<number> =>
    (await call<{ count: number }>(t, 'GET', '/webhooks/dead-letters/count', 'CountDeadLetters')).count,

  /** `GET /api/cartwheel/payment-settings`. */
  getPaymentSettings: (t: Transport) => async (): Promise<PaymentSettings> =>
    (await call<{ paymentSettings: PaymentSettings }>(t, 'GET', '/payment-settings', 'GetPaymentSettings'))
      .paymentSettings,
  /** `PATCH /api/cartwheel/payment-settings` {paymentSettings: {capture}}. */
  updatePaymentSettings:
    (t: Transport) =>
    async (paymentSettings: PaymentSettings): Promise<PaymentSettings> =>
      (
        await call<{ paymentSettings: PaymentSettings }>(
          t,
          'PATCH',
          '/payment-settings',
          'UpdatePaymentSettings',
          { paymentSettings },
        )
      ).paymentSettings,
  /** `GET /api/cartwheel/identity-settings`. */
  getIdentitySettings: (t: Transport) => async (): Promise<IdentitySettings> =>
    (await call<{ settings: IdentitySettings }>(t, 'GET', '/identity-settings', 'GetIdentitySettings'))
      .settings,
  /** `PATCH /api/cartwheel/identity-settings` {settings}: only the fields given change. */
  updateIdentitySettings:
    (t: Transport) =>
    async (settings: Partial<IdentitySettings>): Promise<IdentitySettings> =>
      (
        await call<{ settings: IdentitySettings }>(
          t,
          'PATCH',
          '/identity-settings',
          'UpdateIdentitySettings',
          {
            settings,
          },
        )
      ).settings,
  /**
   * `POST /api/cartwheel/payments/reconcile` {from, to}: every difference between the store's payments
   * and each provider's own records for the period (ISO date-times, `to` excluded; at most 366 days).
   */
  reconcilePayments:
    (t: Transport) =>
    async (period: { from: string; to: string }): Promise<PaymentReconciliation> =>
      (
        await call<{ reconciliation: PaymentReconciliation }>(
          t,
          'POST',
          '/payments/reconcile',
          'ReconcilePayments',
          period,
        )
      ).reconciliation,

  /** `GET /api/cartwheel/store-settings`. */
  getStoreSettings: (t: Transport) => async (): Promise<StoreSettings> =>
    (await call<{ storeSettings: StoreSettings }>(t, 'GET', '/store-settings', 'GetStoreSettings'))
      .storeSettings,
  /** `PATCH /api/cartwheel/store-settings` {storeSettings}: only the fields given change. */
  updateStoreSettings:
    (t: Transport) =>
    async (storeSettings: Partial<StoreSettings>): Promise<StoreSettings> =>
      (
        await call<{ storeSettings: StoreSettings }>(t, 'PATCH', '/store-settings', 'UpdateStoreSettings', {
          storeSettings,
        })
      ).storeSettings,
  /** `GET /api/cartwheel/tax-regions`. */
  listTaxRegions: (t: Transport) => async (): Promise<TaxRegion[]> =>
    (await call<{ taxRegions: TaxRegion[] }>(t, 'GET', '/tax-regions', 'ListTaxRegions')).taxRegions,
  /** `POST /api/cartwheel/tax-regions` {taxRegion}. */
  createTaxRegion:
    (t: Transport) =>
    async (taxRegion: TaxRegionInput): Promise<TaxRegion> =>
      (await call<{ taxRegion: TaxRegion }>(t, 'POST', '/tax-regions', 'CreateTaxRegion', { taxRegion }))
        .taxRegion,
  /** `DELETE /api/cartwheel/tax-regions/{id}`. */
  deleteTaxRegion:
    (t: Transport) =>
    async (regionId: string): Promise<void> => {
      await call(t, 'DELETE', `/tax-regions/${id(regionId)}`, 'DeleteTaxRegion');
    },

  /** `GET /api/cartwheel/coupons`. */
  listCoupons: (t: Transport) => async (): Promise<StoreCoupon[]> =>
    (await call<{ coupons: StoreCoupon[] }>(t, 'GET', '/coupons', 'ListCoupons')).coupons,
  /** `POST /api/cartwheel/coupons` {coupon}. */
  createCoupon:
    (t: Transport) =>
    async (coupon: StoreCouponInput): Promise<StoreCoupon> =>
      (await call<{ coupon: StoreCoupon }>(t, 'POST', '/coupons', 'CreateCoupon', { coupon })).coupon,
  /** `DELETE /api/cartwheel/coupons/{id}`. */
  deleteCoupon:
    (t: Transport) =>
    async (couponId: string): Promise<void> => {
      await call(t, 'DELETE', `/coupons/${id(couponId)}`, 'DeleteCoupon');
    },
  /** `GET /api/cartwheel/shipping-regions`. */
  listShippingRegions: (t: Transport) => async (): Promise<StoreShippingRegion[]> =>
    (
      await call<{ shippingRegions: StoreShippingRegion[] }>(
        t,
        'GET',
        '/shipping-regions',
        'ListShippingRegions',
      )
    ).shippingRegions,
  /** `POST /api/cartwheel/shipping-regions` {shippingRegion}. */
  createShippingRegion:
    (t: Transport) =>
    async (shippingRegion: StoreShippingRegionInput): Promise<StoreShippingRegion> =>
      (
        await call<{ shippingRegion: StoreShippingRegion }>(
          t,
          'POST',
          '/shipping-regions',
          'CreateShippingRegion',
          {
            shippingRegion,
          },
        )
      ).shippingRegion,
  /** `DELETE /api/cartwheel/shipping-regions/{id}`. */
  deleteShippingRegion:
    (t: Transport) =>
    async (regionId: string): Promise<void> => {
      await call(t, 'DELETE', `/shipping-regions/${id(regionId)}`, 'DeleteShippingRegion');
    },
  /** `PATCH /api/cartwheel/tax-regions/{id}` {taxRegion}: only the fields given change. */
  updateTaxRegion:
    (t: Transport) =>
    async (regionId: string, taxRegion: Partial<TaxRegionInput>): Promise<TaxRegion> =>
      (
        await call<{ taxRegion: TaxRegion }>(t, 'PATCH', `/tax-regions/${id(regionId)}`, 'UpdateTaxRegion', {
          taxRegion,
        })
      ).taxRegion,
  /** `PATCH /api/cartwheel/coupons/{id}` {coupon}: only the fields given change. */
  updateCoupon:
    (t: Transport) =>
    async (couponId: string, coupon: Partial<StoreCouponInput>): Promise<StoreCoupon> =>
      (
        await call<{ coupon: StoreCoupon }>(t, 'PATCH', `/coupons/${id(couponId)}`, 'UpdateCoupon', {
          coupon,
        })
      ).coupon,
  /** `PATCH /api/cartwheel/shipping-regions/{id}` {shippingRegion}: only the fields given change. */
  updateShippingRegion:
    (t: Transport) =>
    async (
      regionId: string,
      shippingRegion: Partial<StoreShippingRegionInput>,
    ): Promise<StoreShippingRegion> =>
      (
        await call<{ shippingRegion: StoreShippingRegion }>(
          t,
          'PATCH',
          `/shipping-regions/${id(regionId)}`,
          'UpdateShippingRegion',
          { shippingRegion },
        )
      ).shippingRegion,

  /** `GET /api/cartwheel/pickup-locations`. */
  listPickupLocations: (t: Transport) => async (): Promise<StorePickupLocation[]> =>
    (
      await call<{ pickupLocations: StorePickupLocation[] }>(
        t,
        'GET',
        '/pickup-locations',
        'ListPickupLocations',
      )
    ).pickupLocations,
  /** `POST /api/cartwheel/pickup-locations` {pickupLocation}. */
  createPickupLocation:
    (t: Transport) =>
    async (pickupLocation: StorePickupLocationInput): Promise<StorePickupLocation> =>
      (
        await call<{ pickupLocation: StorePickupLocation }>(
          t,
          'POST',
          '/pickup-locations',
          'CreatePickupLocation',
          {
            pickupLocation,
          },
        )
      ).pickupLocation,
  /** `PATCH /api/cartwheel/pickup-locations/{id}` {pickupLocation}: only the fields given change. */
  updatePickupLocation:
    (t: Transport) =>
    async (
      locationId: string,
      pickupLocation: Partial<StorePickupLocationInput>,
    ): Promise<StorePickupLocation> =>
      (
        await call<{ pickupLocation: StorePickupLocation }>(
          t,
          'PATCH',
          `/pickup-locations/${id(locationId)}`,
          'UpdatePickupLocation',
          { pickupLocation },
        )
      ).pickupLocation,
  /** `DELETE /api/cartwheel/pickup-locations/{id}`. */
  deletePickupLocation:
    (t: Transport) =>
    async (locationId: string): Promise<void> => {
      await call(t, 'DELETE', `/pickup-locations/${id(locationId)}`, 'DeletePickupLocation');
    },

  /** `GET /ecom/v1/checkout-settings`. */
  getCheckoutSettings: (t: Transport) => async (): Promise<StoreCheckoutSettings> =>
    (
      await CHECKOUT_SETTINGS<{ checkoutSettings: StoreCheckoutSettings }>(
        t,
        'GET',
        '/v1/checkout-settings',
        'GetCheckoutSettings',
      )
    ).checkoutSettings,
  /** `PATCH /ecom/v1/checkout-settings`: what the patch names changes, the rest stays; `null` clears. */
  updateCheckoutSettings:
    (t: Transport) =>
    async (patch: CheckoutSettingsPatch): Promise<StoreCheckoutSettings> =>
      (
        await CHECKOUT_SETTINGS<{ checkoutSettings: StoreCheckoutSettings }>(
          t,
          'PATCH',
          '/v1/checkout-settings',
          'UpdateCheckoutSettings',
          { checkoutSettings: patch },
        )
      ).checkoutSettings,

  /** `POST /ecom/v1/abandoned-checkout/query`, page after page: every abandoned checkout, oldest first. */
  listAbandonedCheckouts: (t: Transport) => async (): Promise<StoreAbandonedCheckout[]> => {
    const found: StoreAbandonedCheckout[] = [];
    let cursor: string | null = null;
    do {
      const page: {
        abandonedCheckouts: StoreAbandonedCheckout[];
        metadata?: { cursors?: { next?: string | null } };
      } = await ABANDONED_CHECKOUTS(t, 'POST', '/v1/abandoned-checkout/query', 'QueryAbandonedCheckouts', {
        query: { cursorPaging: { limit: 100, ...(cursor ? { cursor } : {}) } },
      });
      found.push(...page.abandonedCheckouts);
      cursor = page.metadata?.cursors?.next ?? null;
    } while (cursor);
    return found;
  },

  /** `POST /ecom/v1/checkout-templates/query`, page after page: every template, oldest first. */
  listCheckoutTemplates: (t: Transport) => async (): Promise<StoreCheckoutTemplate[]> => {
    const templates: StoreCheckoutTemplate[] = [];
    let cursor: string | null = null;
    do {
      const page: {
        checkoutTemplates: StoreCheckoutTemplate[];
        pagingMetadata?: { cursors?: { next?: string | null } };
      } = await CHECKOUT_TEMPLATES(t, 'POST', '/v1/checkout-templates/query', 'QueryCheckoutTemplates', {
        query: { cursorPaging: { limit: 100, ...(cursor ? { cursor } : {}) } },
      });
      templates.push(...page.checkoutTemplates);
      cursor = page.pagingMetadata?.cursors?.next ?? null;
    } while (cursor);
    return templates;
  },
  /** `POST /ecom/v1/checkout-templates` {checkoutTemplate}. */
  createCheckoutTemplate:
    (t: Transport) =>
    async (checkoutTemplate: CheckoutTemplateInput): Promise<StoreCheckoutTemplate> =>
      (
        await CHECKOUT_TEMPLATES<{ checkoutTemplate: StoreCheckoutTemplate }>(
          t,
          'POST',
          '/v1/checkout-templates',
          'CreateCheckoutTemplate',
          { checkoutTemplate },
        )
      ).checkoutTemplate,
  /** `PATCH /ecom/v1/checkout-templates/{id}`: what it names replaces the template's. */
  updateCheckoutTemplate:
    (t: Transport) =>
    async (templateId: string, checkoutTemplate: CheckoutTemplateInput): Promise<StoreCheckoutTemplate> =>
      (
        await CHECKOUT_TEMPLATES<{ checkoutTemplate: StoreCheckoutTemplate }>(
          t,
          'PATCH',
          `/v1/checkout-templates/${id(templateId)}`,
          'UpdateCheckoutTemplate',
          { checkoutTemplate },
        )
      ).checkoutTemplate,
  /** `DELETE /ecom/v1/checkout-templates/{id}`. */
  deleteCheckoutTemplate:
    (t: Transport) =>
    async (templateId: string): Promise<void> => {
      await CHECKOUT_TEMPLATES(
        t,
        'DELETE',
        `/v1/checkout-templates/${id(templateId)}`,
        'DeleteCheckoutTemplate',
      );
    },

  /** `POST /ecom/v1/discount-rules/query`, page after page: every rule, oldest first, with its `status`. */
  listDiscountRules: (t: Transport) => async (): Promise<DiscountRule[]> => {
    const rules: DiscountRule[] = [];
    let cursor: string | null = null;
    do {
      const page: { discountRules: DiscountRule[]; pagingMetadata?: { cursors?: { next?: string | null } } } =
        await DISCOUNT_RULES(t, 'POST', '/v1/discount-rules/query', 'QueryDiscountRules', {
          query: { cursorPaging: { limit: 100, ...(cursor ? { cursor } : {}) } },
        });
      rules.push(...page.discountRules);
      cursor = page.pagingMetadata?.cursors?.next ?? null;
    } while (cursor);
    return rules;
  },
  /** `POST /ecom/v1/discount-rules` {discountRule}. */
  createDiscountRule:
    (t: Transport) =>
    async (discountRule: DiscountRule): Promise<DiscountRule> =>
      (
        await DISCOUNT_RULES<{ discountRule: DiscountRule }>(
          t,
          'POST',
          '/v1/discount-rules',
          'CreateDiscountRule',
          {
            discountRule,
          },
        )
      ).discountRule,
  /** `PATCH /ecom/v1/discount-rules/{id}` {discountRule}: a `revision` given must be the current one. */
  updateDiscountRule:
    (t: Transport) =>
    async (ruleId: string, discountRule: DiscountRule): Promise<DiscountRule> =>
      (
        await DISCOUNT_RULES<{ discountRule: DiscountRule }>(
          t,
          'PATCH',
          `/v1/discount-rules/${id(ruleId)}`,
          'UpdateDiscountRule',
          { discountRule },
        )
      ).discountRule,
  /** `DELETE /ecom/v1/discount-rules/{id}`. */
  deleteDiscountRule:
    (t: Transport) =>
    async (ruleId: string): Promise<void> => {
      await DISCOUNT_RULES(t, 'DELETE', `/v1/discount-rules/${id(ruleId)}`, 'DeleteDiscountRule');
    },
} satisfies ModuleDefinition;
