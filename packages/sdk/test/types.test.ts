import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RuleName } from '../src/errors/http-error.ts';
import type {
  AbandonedCheckout,
  AuthorizationDetails,
  BackInStockRequest,
  Cart,
  Checkout,
  CheckoutSettings,
  CustomValue,
  DiscountRule,
  Identity,
  InventoryItemV3,
  LineItem,
  Member,
  Order,
  Payment,
  ProductV3,
  SubscriptionContract,
} from '../src/types/index.ts';
import * as types from '../src/types/index.ts';
import { DATE_FIELDS, reviveDates } from '../src/wire/dates.ts';

/** Each runtime list against the values the specification names for it, in its order. */
const SPEC_LISTS: Array<[name: keyof typeof types, values: readonly string[]]> = [
  // point 3
  ['WEIGHT_UNITS', ['KG', 'LB']],
  ['VAT_ID_TYPES', ['CPF', 'CNPJ']],
  ['PICKUP_METHODS', ['STORE_PICKUP', 'PICKUP_POINT']],
  [
    'PAYMENT_OPTION_TYPES',
    ['FULL_PAYMENT_ONLINE', 'FULL_PAYMENT_OFFLINE', 'MEMBERSHIP', 'DEPOSIT_ONLINE', 'MEMBERSHIP_OFFLINE'],
  ],
  ['ITEM_AVAILABILITY_STATUSES', ['AVAILABLE', 'NOT_FOUND', 'NOT_AVAILABLE', 'PARTIALLY_AVAILABLE']],
  ['TAX_RATE_TYPES', ['NO_TAX_COLLECTED', 'MANUAL_RATE', 'AUTO_RATE', 'FALLBACK_RATE']],
  ['APPLIED_DISCOUNT_TYPES', ['GLOBAL', 'SPECIFIC_ITEMS', 'SHIPPING']],
  ['CHARGE_TYPES', ['HANDLING_FEE', 'INSURANCE']],
  ['JURISDICTION_TYPES', ['COUNTRY', 'STATE', 'COUNTY', 'CITY', 'SPECIAL']],
  ['SUBSCRIPTION_FREQUENCIES', ['DAY', 'WEEK', 'MONTH', 'YEAR']],
  ['ITEM_TYPE_PRESETS', ['PHYSICAL', 'DIGITAL', 'GIFT_CARD', 'SERVICE', 'CUSTOM_AMOUNT_ITEM']],
  ['LOGO_SIZES', ['SMALL', 'MEDIUM', 'LARGE']],
  ['LOGO_ALIGNMENTS', ['SIDE', 'CENTER']],
  ['MEMBER_ROLES', ['MEMBER', 'OWNER', 'CONTRIBUTOR']],
  ['EMAIL_TAGS', ['UNTAGGED', 'MAIN', 'HOME', 'WORK']],
  ['PHONE_TAGS', ['UNTAGGED', 'MAIN', 'HOME', 'MOBILE', 'WORK', 'FAX']],
  ['ADDRESS_TAGS', ['UNTAGGED', 'HOME', 'WORK', 'BILLING', 'SHIPPING']],
  ['IDENTITY_PRIVACY_STATUSES', ['UNDEFINED', 'PUBLIC', 'PRIVATE']],
  ['TENANT_TYPES', ['UNKNOWN_TENANT_TYPE', 'ACCOUNT', 'SITE', 'ROOT']],
  ['PROMPTS', ['login', 'none', 'consent', 'select_account']],
  ['CALLBACK_TYPES', ['LOGOUT', 'CHECKOUT', 'AUTHORIZE']],
  ['PRODUCT_TYPES', ['physical', 'digital']],
  ['OPTION_TYPES', ['drop_down', 'color']],
  ['MEDIA_ITEM_TYPES', ['image', 'video', 'audio', 'document', 'zip']],
  [
    'DIGITAL_FILE_TYPES',
    ['SECURE_PICTURE', 'SECURE_VIDEO', 'SECURE_DOCUMENT', 'SECURE_MUSIC', 'SECURE_ARCHIVE'],
  ],
  ['SUBSCRIPTION_DISCOUNT_TYPES', ['AMOUNT', 'PERCENT']],
  ['SUBSCRIPTION_INTERVAL_UNITS', ['DAY', 'WEEK', 'MONTH', 'YEAR']],
  // point 2
  ['MEMBERS_ACCOUNT_SECTIONS', ['ACCOUNT_INFO', 'BOOKINGS', 'ORDERS', 'SUBSCRIPTIONS', 'EVENTS']],
  // point 4
  ['ORDER_STATUSES', ['INITIALIZED', 'APPROVED', 'CANCELED', 'PENDING', 'REJECTED']],
  [
    'ORDER_PAYMENT_STATUSES',
    [
      'UNSPECIFIED',
      'NOT_PAID',
      'PAID',
      'PARTIALLY_REFUNDED',
      'FULLY_REFUNDED',
      'PENDING',
      'PARTIALLY_PAID',
      'PENDING_MERCHANT',
      'CANCELED',
      'DECLINED',
    ],
  ],
  ['FULFILLMENT_STATUSES', ['NOT_FULFILLED', 'FULFILLED', 'PARTIALLY_FULFILLED', 'CANCELED']],
  [
    'PAYMENT_STATUSES',
    [
      'UNDEFINED',
      'APPROVED',
      'PENDING',
      'PENDING_MERCHANT',
      'CANCELED',
      'DECLINED',
      'REFUNDED',
      'PARTIALLY_REFUNDED',
      'AUTHORIZED',
      'VOIDED',
    ],
  ],
  ['AUTHORIZATION_ACTION_STATUSES', ['UNKNOWN_STATUS', 'PENDING', 'SUCCEEDED', 'FAILED']],
  [
    'PAYMENT_COLLECTABILITY_STATUSES',
    [
      'COLLECTABLE',
      'NONCOLLECTABLE_ORDER_IS_CANCELLED',
      'NONCOLLECTABLE_ORDER_IS_PAID',
      'NONCOLLECTABLE_ORDER_IS_PENDING',
      'NONCOLLECTABLE_ORDER_IS_REJECTED',
      'NONCOLLECTABLE_MISSING_PAYMENT_METHOD',
    ],
  ],
  ['REFUNDABLE_STATUSES', ['NOT_REFUNDABLE', 'MANUAL', 'REFUNDABLE']],
  ['DISCOUNT_RULE_STATUSES', ['LIVE', 'EXPIRED', 'PENDING']],
  ['ABANDONED_CHECKOUT_STATUSES', ['ABANDONED', 'RECOVERED']],
  ['BACK_IN_STOCK_REQUEST_STATUSES', ['RECEIVED', 'PROCESSING', 'NOTIFICATION_SENT', 'FAILED']],
  ['CHECKOUT_SETTINGS_STATUSES', ['ACTIVE', 'INACTIVE']],
  ['INVOICE_DRAFT_STATUSES', ['DRAFT', 'COMMITTED']],
  ['MEMBER_STATUSES', ['UNKNOWN', 'PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE']],
  ['LEGACY_MEMBER_STATUSES', ['APPLICANT', 'ACTIVE', 'INACTIVE', 'BLOCKED', 'OFFLINE_ONLY']],
  ['MEMBER_ACTIVITY_STATUSES', ['ACTIVE', 'MUTED']],
  ['MEMBER_PRIVACY_STATUSES', ['PUBLIC', 'PRIVATE']],
  ['MEMBER_ACTIONS', ['approve', 'block', 'mute', 'unmute', 'disconnect', 'joinCommunity', 'leaveCommunity']],
  ['IDENTITY_STATUSES', ['PENDING', 'ACTIVE', 'DELETED', 'BLOCKED', 'OFFLINE']],
  ['IDENTITY_PENDING_REASONS', ['PENDING_ADMIN_APPROVAL_REQUIRED', 'PENDING_EMAIL_VERIFICATION_REQUIRED']],
  ['FACTOR_TYPES', ['PASSWORD', 'SMS', 'CALL', 'EMAIL', 'TOTP', 'PUSH']],
  ['FACTOR_STATUSES', ['INACTIVE', 'ACTIVE', 'REQUIRE_REENROLL']],
  [
    'LOGIN_STATES',
    [
      'INITIAL',
      'SUCCESS',
      'FAILURE',
      'EMAIL_VERIFICATION_REQUIRED',
      'OWNER_APPROVAL_REQUIRED',
      'USER_CAPTCHA_REQUIRED',
      'SILENT_CAPTCHA_REQUIRED',
    ],
  ],
  // point 5
  [
    'VALIDATION_RULES',
    [
      'VALIDATION',
      'OTHER',
      'MAX',
      'MIN',
      'MAX_LENGTH',
      'MIN_LENGTH',
      'MAX_SIZE',
      'MIN_SIZE',
      'FORMAT',
      'DECIMAL_LTE',
      'DECIMAL_GTE',
      'DECIMAL_LT',
      'DECIMAL_GT',
      'DECIMAL_MAX_SCALE',
      'INVALID_ENUM_VALUE',
      'REQUIRED_FIELD',
      'FIELD_NOT_ALLOWED',
      'ONE_OF_ALIGNMENT',
      'EXACT_LENGTH',
      'EXACT_SIZE',
    ],
  ],
  ['VIOLATION_SEVERITIES', ['WARNING', 'ERROR']],
  ['SUGGESTED_FIXES', ['REMOVE_LINE_ITEM']],
  [
    'LOGIN_ERROR_CODES',
    [
      'invalidEmail',
      'emailAlreadyExists',
      'missingCaptchaToken',
      'invalidCaptchaToken',
      'invalidPassword',
      'resetPassword',
    ],
  ],
  // point 8
  [
    'REGISTRATION_ERROR_CODES',
    ['invalidEmail', 'missingCaptchaToken', 'emailAlreadyExists', 'invalidCaptchaToken'],
  ],
  [
    'ORDER_REASON_CODES',
    [
      'PARTIALLY_OR_FULLY_REFUNDED',
      'UNSUPPORTED_CHANNEL_TYPE',
      'ORDER_STATUS_IS_NOT_SUPPORTED',
      'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT',
      'ORDER_AND_SITE_WEIGHT_UNITS_ARE_INCONSISTENT',
      'AMOUNTS_DO_NOT_ADD_UP',
      'ORDER_NOT_FOUND',
      'SUBSCRIPTION_LINE_ITEM_EXISTS',
      'UNSUPPORTED_CATALOG_ITEM',
      'TAXABLE_EXISTING_ADDITIONAL_FEE',
    ],
  ],
  ['TAX_FALLBACK_REASONS', ['AUTO_TAX_FAILED', 'AUTO_TAX_DEACTIVATED']],
  ['TAX_MANUAL_CALCULATION_REASONS', ['GLOBAL_SETTING_TO_MANUAL', 'REGION_SETTING_TO_MANUAL']],
  ['MEMBER_REASONS', ['BAD_CODE', 'NOT_FOUND', 'SEND_CODE_ERROR']],
  [
    'REFUND_DISABLED_REASONS',
    [
      'ALREADY_REFUNDED',
      'PROVIDER_IS_DOWN',
      'INTERNAL_ERROR',
      'NOT_PAID',
      'ACCESS_DENIED',
      'ZERO_PRICE',
      'DISABLED_BY_PROVIDER',
      'PENDING_REFUND',
      'FORBIDDEN',
      'TRANSACTION_NOT_FOUND',
      'ORDER_IS_PENDING',
      'ORDER_IS_REJECTED',
    ],
  ],
  // point 9
  ['RESPONSE_MODES', ['fragment', 'query', 'web_message']],
];

/** The module's exports by name, so the table can name each list. */
const exported = new Map<string, unknown>(Object.entries(types));

describe('enumerations', () => {
  it.each(SPEC_LISTS)('%s holds exactly the specification values', (name, values) => {
    expect(exported.get(name)).toEqual(values);
  });

  it('channel types hold the five the specification names, among the wire values', () => {
    expect(types.CHANNEL_TYPES.slice(0, 5)).toEqual(['WEB', 'POS', 'EBAY', 'AMAZON', 'OTHER_PLATFORM']);
    expect(new Set(types.CHANNEL_TYPES).size).toBe(types.CHANNEL_TYPES.length);
  });

  it('the catalog v1 lists match the lists catalog.ts already exports', () => {
    expect(types.INVENTORY_STATUSES).toEqual(['IN_STOCK', 'OUT_OF_STOCK', 'PARTIALLY_OUT_OF_STOCK']);
    expect(types.DISCOUNT_TYPES).toEqual(['NONE', 'AMOUNT', 'PERCENT']);
  });

  it('the v3 catalog has availability and preorder statuses', () => {
    expect(types.AVAILABILITY_STATUSES).toEqual(['IN_STOCK', 'OUT_OF_STOCK', 'PREORDER']);
    expect(types.PREORDER_STATUSES).toEqual(['ENABLED', 'DISABLED', 'PARTIALLY_ENABLED']);
  });

  it('the validation rule list and the RuleName type are the same set', () => {
    expectTypeOf<(typeof types.VALIDATION_RULES)[number]>().toEqualTypeOf<RuleName>();
  });

  it('registration and login failures map to the server codes of point 5', () => {
    expect(types.AUTH_SERVER_ERROR_CODES).toEqual({
      emailAlreadyExists: '-19995',
      missingCaptchaToken: '-19971',
      invalidCaptchaToken: '-19970',
      invalidPassword: '-19976',
      resetPassword: '-19973',
    });
  });

  it('server auth states map to login states; REQUIRE_MFA and STATUS_CHECK have no mapping', () => {
    expect(types.LOGIN_STATE_BY_SERVER_STATE).toEqual({
      SUCCESS: 'SUCCESS',
      REQUIRE_OWNER_APPROVAL: 'OWNER_APPROVAL_REQUIRED',
      REQUIRE_EMAIL_VERIFICATION: 'EMAIL_VERIFICATION_REQUIRED',
    });
    expect(types.LOGIN_STATE_BY_SERVER_STATE).not.toHaveProperty('REQUIRE_MFA');
    expect(types.LOGIN_STATE_BY_SERVER_STATE).not.toHaveProperty('STATUS_CHECK');
  });

  it('announced events cover every entity of point 4 and carry no duplicates', () => {
    const names: readonly string[] = types.EVENT_NAMES;
    expect(new Set(names).size).toBe(names.length);
    for (const expected of [
      'cart.created',
      'cart.updated',
      'cart.deleted',
      'checkout.completed',
      'checkout_settings.updated',
      'checkout_template.used',
      'fulfillments.updated',
      'abandoned_checkout.recovered',
      'order.approved',
      'order.canceled',
      'orders_settings.updated',
      'shippo_configuration.deleted',
      'member.deleted',
      'inventory_item_v3.updated',
      'redirect_session.created',
    ]) {
      expect(names).toContain(expected);
    }
  });
});

describe('business constants of point 9', () => {
  it('hold the specified values', () => {
    expect(types.SILENT_LOGIN_TIMEOUT_MS).toBe(120_000);
    expect([types.CODE_VERIFIER_MIN_LENGTH, types.CODE_VERIFIER_MAX_LENGTH]).toEqual([43, 128]);
    expect(types.CODE_VERIFIER_DEFAULT_LENGTH).toBe(43);
    expect(types.OAUTH_SCOPE).toBe('offline_access');
    expect(types.CODE_CHALLENGE_METHOD).toBe('S256');
    expect(types.DEFAULT_RESPONSE_MODE).toBe('fragment');
    expect(types.DEFAULT_PROMPT).toBe('login');
    expect(types.QUERY_RETRY_COUNT).toBe(3);
    expect([types.QUERY_RETRY_INITIAL_DELAY_MS, types.QUERY_RETRY_MAX_DELAY_MS]).toEqual([1000, 30_000]);
    expect(types.CACHE_LIFETIME_MS).toBe(300_000);
  });

  it('the verifier alphabet is letters, digits and - . _ ~', () => {
    expect(types.CODE_VERIFIER_ALPHABET).toMatch(/^[A-Za-z0-9\-._~]{66}$/);
    expect(new Set(types.CODE_VERIFIER_ALPHABET).size).toBe(66);
  });
});

describe('entity types', () => {
  it('ids are `id`, never `_id`', () => {
    expectTypeOf<Cart>().toHaveProperty('id');
    expectTypeOf<Cart>().not.toHaveProperty('_id');
    expectTypeOf<LineItem>().toHaveProperty('id');
    expectTypeOf<Checkout>().toHaveProperty('id');
    expectTypeOf<Order>().toHaveProperty('id');
    expectTypeOf<Order>().not.toHaveProperty('_id');
    expectTypeOf<Payment>().toHaveProperty('id');
    expectTypeOf<Member>().toHaveProperty('id');
    expectTypeOf<Member>().not.toHaveProperty('_id');
    expectTypeOf<Identity>().toHaveProperty('id');
    expectTypeOf<DiscountRule>().toHaveProperty('id');
    expectTypeOf<SubscriptionContract>().toHaveProperty('id');
    expectTypeOf<AbandonedCheckout>().toHaveProperty('id');
    expectTypeOf<BackInStockRequest>().toHaveProperty('id');
    expectTypeOf<ProductV3>().toHaveProperty('id');
    expectTypeOf<ProductV3>().not.toHaveProperty('_id');
    expectTypeOf<types.RedirectSession>().toHaveProperty('id');
  });

  it('date fields are Date', () => {
    expectTypeOf<Cart['createdDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<Cart['updatedDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<NonNullable<LineItem['image']>['urlExpirationDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<NonNullable<LineItem['serviceProperties']>['scheduledDate']>().toEqualTypeOf<
      Date | undefined
    >();
    expectTypeOf<Checkout['createdDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<CheckoutSettings['updatedDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<Order['purchasedDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<NonNullable<Order['activities']>[number]['createdDate']>().toEqualTypeOf<Date | undefined>();
    type Logistics = NonNullable<NonNullable<Order['shippingInfo']>['logistics']>;
    expectTypeOf<Logistics['deliverByDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<NonNullable<Logistics['deliveryTimeSlot']>['from']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<AuthorizationDetails['authorizedDate']>().toEqualTypeOf<Date | null | undefined>();
    expectTypeOf<NonNullable<AuthorizationDetails['void']>['voidedDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<NonNullable<AuthorizationDetails['scheduledAction']>['executionDate']>().toEqualTypeOf<
      Date | undefined
    >();
    expectTypeOf<NonNullable<DiscountRule['activeTimeInfo']>['start']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<NonNullable<SubscriptionContract['subscriptionSettings']>['startDate']>().toEqualTypeOf<
      Date | undefined
    >();
    expectTypeOf<AbandonedCheckout['checkoutRecoveredDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<BackInStockRequest['createdDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<Member['lastLoginDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<Identity['createdDate']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<CustomValue['dateValue']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<InventoryItemV3['updatedDate']>().toEqualTypeOf<Date | undefined>();
  });

  it('every date field the types declare is one the transport revives', () => {
    for (const field of [
      'createdDate',
      'updatedDate',
      'lastLoginDate',
      'purchasedDate',
      'expirationDate',
      'urlExpirationDate',
      'scheduledDate',
      'startDate',
      'from',
      'to',
      'deliverByDate',
      'authorizedDate',
      'voidedDate',
      'executionDate',
      'checkoutRecoveredDate',
      'dateValue',
      'start',
      'end',
    ]) {
      expect(DATE_FIELDS.has(field), field).toBe(true);
    }
  });

  it('a discount rule answer revives its active window into Dates', () => {
    const rule = reviveDates<DiscountRule>(
      JSON.parse('{"activeTimeInfo":{"start":"2025-01-01T00:00:00.000Z","end":"2025-02-01T00:00:00.000Z"}}'),
    );
    expect(rule.activeTimeInfo?.start).toEqual(new Date('2025-01-01T00:00:00.000Z'));
    expect(rule.activeTimeInfo?.end).toBeInstanceOf(Date);
  });

  it('prices carry decimal-string amounts', () => {
    expectTypeOf<NonNullable<LineItem['price']>['amount']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<LineItem['price']>['formattedConvertedAmount']>().toEqualTypeOf<
      string | undefined
    >();
  });
});
