import {
  checkout as hostedCheckout,
  currentCart as hostedCurrentCart,
  orderBilling as hostedOrderBilling,
  orders as hostedOrders,
  orderTransactions as hostedOrderTransactions,
} from '@wix/ecom';
import {
  authentication as hostedAuthentication,
  recovery as hostedRecovery,
  verification as hostedVerification,
} from '@wix/identity';
import { members as hostedMembers } from '@wix/members';
import {
  createClient as createHostedClient,
  ApiKeyStrategy as HostedApiKeyStrategy,
  OAuthStrategy as HostedOAuthStrategy,
} from '@wix/sdk';
import { products as hostedProducts } from '@wix/stores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiKeyStrategy,
  authentication,
  checkout,
  collections,
  createClient,
  currentCart,
  HOSTED_API_HOST,
  type LoginOptions,
  members,
  type OAuthData,
  OAuthStrategy,
  orderBilling,
  orders,
  orderTransactions,
  paymentsCollector,
  products,
  type RegisterOptions,
  recovery,
  redirects,
  type SendRecoveryEmailOptions,
  storeVariants,
  verification,
} from '../src/index.ts';
import { TRACING_HEADER } from '../src/wire/index.ts';
import { recordingFetch, type SentRequest } from './support/recording-fetch.ts';

/**
 * Cartwheel's SDK beside the hosted platform's own client packages, both pointed at the hosted API host
 * and both sending into a recording `fetch`: for each call, the two requests must be the same (method,
 * URL with its query string, body bytes, content type, authorization), and Cartwheel's tracing header
 * must have the hosted one's shape, naming the same method.
 */

/** The hosted client's tracing header (`biHeaderGenerator` in `@wix/sdk`). */
const HOSTED_TRACING_HEADER = 'x-wix-bi-gateway';
const API_KEY = 'admin-api-key';

const ours = recordingFetch();
const theirs = recordingFetch();
beforeEach(() => {
  ours.requests.length = 0;
  theirs.requests.length = 0;
  ours.answer = {};
  theirs.answer = {};
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const cartwheelModules = {
  products,
  collections,
  storeVariants,
  currentCart,
  checkout,
  orders,
  paymentsCollector,
  orderTransactions,
  members,
  authentication,
  recovery,
  verification,
  redirects,
};
const cartwheel = createClient({
  host: HOSTED_API_HOST,
  auth: ApiKeyStrategy({ apiKey: API_KEY }),
  fetch: ours.fetch,
  modules: cartwheelModules,
});
const hosted = createHostedClient({
  // the hosted platform wants the site a key acts on (a header Cartwheel's one-site platform has no use for)
  auth: HostedApiKeyStrategy({ apiKey: API_KEY, siteId: 'cartwheel-test-site' }),
  fetch: theirs.fetch,
  modules: {
    products: hostedProducts,
    currentCart: hostedCurrentCart,
    // the hosted client's orders module also holds the payments collector's calls
    checkout: hostedCheckout,
    orders: hostedOrders,
    orderTransactions: hostedOrderTransactions,
    members: hostedMembers,
    authentication: hostedAuthentication,
    recovery: hostedRecovery,
    verification: hostedVerification,
  },
});
type Cartwheel = typeof cartwheel;
type Hosted = typeof hosted;

/** `environment=...,package-name=...,method-fqn=...,entity=...`: its keys, and the method's own name. */
function traceShape(value: string | null) {
  if (value === null) return null;
  const fields = value.split(',').map((field) => field.split('='));
  const fqn = fields.find(([key]) => key === 'method-fqn')?.[1] ?? '';
  return { keys: fields.map(([key]) => key), method: fqn.slice(fqn.lastIndexOf('.') + 1) };
}

function only(requests: SentRequest[]): SentRequest {
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

function expectSameRequest(ourRequest: SentRequest, theirRequest: SentRequest) {
  expect(ourRequest.method).toBe(theirRequest.method);
  expect(ourRequest.url).toBe(theirRequest.url);
  expect(ourRequest.body).toBe(theirRequest.body);
  expect(ourRequest.headers.get('content-type')).toBe(theirRequest.headers.get('content-type'));
  expect(ourRequest.headers.get('authorization')).toBe(theirRequest.headers.get('authorization'));
  const shape = traceShape(theirRequest.headers.get(HOSTED_TRACING_HEADER));
  expect(shape?.keys).toEqual(['environment', 'package-name', 'method-fqn', 'entity']);
  expect(traceShape(ourRequest.headers.get(TRACING_HEADER))).toEqual(shape);
}

type Row = [
  name: string,
  ourCall: (c: Cartwheel) => Promise<unknown>,
  theirCall: (h: Hosted) => Promise<unknown>,
];

const deletes: Row[] = [
  ['products.deleteProduct', (c) => c.products.deleteProduct('p1'), (h) => h.products.deleteProduct('p1')],
  [
    'products.deleteProductOptions',
    (c) => c.products.deleteProductOptions('p1'),
    (h) => h.products.deleteProductOptions('p1'),
  ],
  [
    'products.deleteCollection',
    (c) => c.products.deleteCollection('c1'),
    (h) => h.products.deleteCollection('c1'),
  ],
  [
    'currentCart.deleteCurrentCart',
    (c) => c.currentCart.deleteCurrentCart(),
    (h) => h.currentCart.deleteCurrentCart(),
  ],
  [
    'orders.deleteActivity',
    (c) => c.orders.deleteActivity({ id: 'o1', activityId: 'a1' }),
    (h) => (h.orders as any).deleteActivity({ _id: 'o1', activityId: 'a1' }),
  ],
  ['members.deleteMember', (c) => c.members.deleteMember('m1'), (h) => h.members.deleteMember('m1')],
  [
    'members.deleteMyMember',
    (c) => c.members.deleteMyMember({ contentAssigneeId: 'm2' }),
    (h) => h.members.deleteMyMember({ contentAssigneeId: 'm2' }),
  ],
  [
    'members.deleteMemberPhones',
    (c) => c.members.deleteMemberPhones('m1'),
    (h) => h.members.deleteMemberPhones('m1'),
  ],
  [
    'members.deleteMemberEmails',
    (c) => c.members.deleteMemberEmails('m1'),
    (h) => h.members.deleteMemberEmails('m1'),
  ],
  [
    'members.deleteMemberAddresses',
    (c) => c.members.deleteMemberAddresses('m1'),
    (h) => h.members.deleteMemberAddresses('m1'),
  ],
];

const EMAIL = { email: 'ada@example.com' };
const REDIRECT = { url: 'https://shop.example/reset', clientId: 'client-1' };
/** Options of a kind the signature does not name: neither client may put them on the wire. */
const STRAY = { sessionId: 'stray', 0: 'x' };

/**
 * A profile with every field the hosted client types, in each client's address names (`addressLine`
 * here, `addressLine1` there), given in neither client's wire order; a fresh one per call, since the
 * hosted client rewrites the objects it is given.
 */
const fullProfile = (addressLine: 'addressLine' | 'addressLine1') => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  nickname: 'ada',
  picture: 'https://shop.example/ada.png',
  emails: ['ada@work.example'],
  phones: ['+1 555 0100'],
  labels: ['vip'],
  language: 'en',
  privacyStatus: 'PUBLIC' as const,
  customFields: [
    { name: 'str', value: { strValue: 'text' } },
    { name: 'num', value: { numValue: 1.5 } },
    { name: 'date', value: { dateValue: new Date('2024-05-01T10:00:00.000Z') } },
    { name: 'bool', value: { boolValue: true } },
    { name: 'list', value: { listValue: { value: [{ strValue: 'a' }, { numValue: 2 }] } } },
    { name: 'map', value: { mapValue: { value: { key: { strValue: 'b' } } } } },
  ],
  secondaryEmails: [{ email: 'ada@home.example', tag: 'HOME' as const }],
  phonesV2: [{ countryCode: 'US', phone: '555 0101', tag: 'MOBILE' as const }],
  addresses: [
    {
      address: {
        country: 'US',
        subdivision: 'US-NY',
        city: 'New York',
        postalCode: '10001',
        [addressLine]: '350 Fifth Avenue',
        addressLine2: 'Floor 5',
      },
      tag: 'HOME' as const,
    },
    { tag: 'WORK' as const, address: { addressLine2: 'Suite 2', country: 'GB', [addressLine]: '1 Strand' } },
  ],
  company: 'Analytical Engines',
  position: 'Programmer',
  birthdate: '1815-12-10',
  slug: 'ada',
  subscription: true,
  vatId: 'GB123',
});
/**
 * Custom values JSON cannot carry as they are: the hosted client names the numbers and leaves the null
 * date out (Cartwheel's types have no null date; a caller in plain JavaScript can still send one).
 */
const oddCustomFields = () => [
  { name: 'nan', value: { numValue: Number.NaN } },
  { name: 'infinity', value: { numValue: Number.NEGATIVE_INFINITY } },
  { name: 'no-date', value: { dateValue: null } },
];

const identityCalls: Row[] = [
  [
    'authentication.register',
    (c) =>
      c.authentication.register(EMAIL, {
        password: 'secret1',
        profile: { nickname: 'ada', firstName: 'Ada' },
        captchaTokens: [{ Recaptcha: 'r' }],
        clientMetaData: { source: 'shop' },
      }),
    (h) =>
      h.authentication.registerV2(EMAIL, {
        password: 'secret1',
        profile: { nickname: 'ada', firstName: 'Ada' },
        captchaTokens: [{ Recaptcha: 'r' }],
        clientMetaData: { source: 'shop' },
      }),
  ],
  [
    'authentication.register (a full profile)',
    (c) => c.authentication.register(EMAIL, { password: 'secret1', profile: fullProfile('addressLine') }),
    (h) => h.authentication.registerV2(EMAIL, { password: 'secret1', profile: fullProfile('addressLine1') }),
  ],
  [
    'authentication.register (custom values JSON cannot carry)',
    (c) => c.authentication.register(EMAIL, { profile: { customFields: oddCustomFields() as never } }),
    (h) => h.authentication.registerV2(EMAIL, { profile: { customFields: oddCustomFields() } }),
  ],
  [
    'authentication.register (stray options)',
    (c) => c.authentication.register(EMAIL, { ...STRAY, password: 'secret1' } as RegisterOptions),
    (h) => h.authentication.registerV2(EMAIL, { ...STRAY, password: 'secret1' } as never),
  ],
  [
    'authentication.login',
    (c) =>
      c.authentication.login(EMAIL, {
        password: 'secret1',
        captchaTokens: [{ InvisibleRecaptcha: 'i' }],
        clientMetaData: { source: 'shop' },
      }),
    (h) =>
      h.authentication.loginV2(EMAIL, {
        password: 'secret1',
        captchaTokens: [{ InvisibleRecaptcha: 'i' }],
        clientMetaData: { source: 'shop' },
      }),
  ],
  [
    'authentication.login (a state token)',
    (c) =>
      c.authentication.login(EMAIL, {
        stateToken: 'state-token',
        clientMetaData: { source: 'shop' },
        password: 'secret1',
      }),
    (h) =>
      h.authentication.loginV2(EMAIL, {
        stateToken: 'state-token',
        clientMetaData: { source: 'shop' },
        password: 'secret1',
      }),
  ],
  [
    'authentication.login (stray options)',
    (c) => c.authentication.login(EMAIL, { ...STRAY, password: 'secret1' } as LoginOptions),
    (h) => h.authentication.loginV2(EMAIL, { ...STRAY, password: 'secret1' } as never),
  ],
  [
    'authentication.changePassword',
    (c) => c.authentication.changePassword('new-secret'),
    (h) => h.authentication.changePassword('new-secret'),
  ],
  [
    'authentication.signOn',
    (c) =>
      c.authentication.signOn(EMAIL, {
        profile: { nickname: 'ada' },
        verifyEmail: true,
        mergeExistingContact: false,
      }),
    (h) =>
      h.authentication.signOn(EMAIL, {
        profile: { nickname: 'ada' },
        verifyEmail: true,
        mergeExistingContact: false,
      }),
  ],
  [
    'authentication.signOn (a full profile)',
    (c) => c.authentication.signOn(EMAIL, { profile: fullProfile('addressLine'), verifyEmail: true }),
    (h) => h.authentication.signOn(EMAIL, { profile: fullProfile('addressLine1'), verifyEmail: true }),
  ],
  [
    'authentication.signOn (custom values JSON cannot carry)',
    (c) => c.authentication.signOn(EMAIL, { profile: { customFields: oddCustomFields() as never } }),
    (h) => h.authentication.signOn(EMAIL, { profile: { customFields: oddCustomFields() } }),
  ],
  [
    'authentication.signOn (stray options)',
    (c) => c.authentication.signOn(EMAIL, STRAY as never),
    (h) => h.authentication.signOn(EMAIL, STRAY as never),
  ],
  [
    'recovery.sendRecoveryEmail',
    (c) => c.recovery.sendRecoveryEmail(EMAIL.email, { language: 'en', redirect: REDIRECT }),
    (h) => h.recovery.sendRecoveryEmail(EMAIL.email, { language: 'en', redirect: REDIRECT }),
  ],
  [
    'recovery.sendRecoveryEmail (stray options)',
    (c) =>
      c.recovery.sendRecoveryEmail(EMAIL.email, { ...STRAY, language: 'en' } as SendRecoveryEmailOptions),
    (h) => h.recovery.sendRecoveryEmail(EMAIL.email, { ...STRAY, language: 'en' } as never),
  ],
  [
    'recovery.sendActivationEmail',
    (c) =>
      c.recovery.sendActivationEmail('identity-1', { emailOptions: { language: 'en', redirect: REDIRECT } }),
    (h) =>
      h.recovery.sendActivationEmail('identity-1', { emailOptions: { language: 'en', redirect: REDIRECT } }),
  ],
  [
    'recovery.sendActivationEmail (stray options)',
    (c) => c.recovery.sendActivationEmail('identity-1', STRAY as never),
    (h) => h.recovery.sendActivationEmail('identity-1', STRAY as never),
  ],
  [
    'recovery.recover',
    (c) => c.recovery.recover('recovery-token', { password: 'new-secret' }),
    (h) => h.recovery.recover('recovery-token', { password: 'new-secret' }),
  ],
  [
    // the issue's own example: a bare string where the options belong is not spread into "0":"p","1":"w"
    'recovery.recover (a string for options)',
    (c) => c.recovery.recover('recovery-token', 'pw' as never),
    (h) => h.recovery.recover('recovery-token', 'pw' as never),
  ],
  [
    'verification.start',
    (c) => c.verification.start({ identityId: 'identity-1', target: 'EMAIL' }),
    (h) => h.verification.start({ identityId: 'identity-1', target: 'EMAIL' }),
  ],
  [
    'verification.start (no target)',
    (c) => c.verification.start({ identityId: 'identity-1' }),
    (h) => h.verification.start({ identityId: 'identity-1' }),
  ],
  [
    'verification.start (stray options)',
    (c) => c.verification.start({ ...STRAY, identityId: 'identity-1' } as never),
    (h) => h.verification.start({ ...STRAY, identityId: 'identity-1' } as never),
  ],
  [
    'verification.verifyDuringAuthentication',
    (c) => c.verification.verifyDuringAuthentication('123456', { stateToken: 'state-token' }),
    (h) => h.verification.verifyDuringAuthentication('123456', { stateToken: 'state-token' }),
  ],
  [
    'verification.verifyDuringAuthentication (stray options)',
    (c) => c.verification.verifyDuringAuthentication('123456', { ...STRAY, stateToken: 'state-token' }),
    (h) =>
      h.verification.verifyDuringAuthentication('123456', { ...STRAY, stateToken: 'state-token' } as never),
  ],
];

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const LINE = {
  catalogReference: { appId: STORES_APP_ID, catalogItemId: 'p1', options: { variantId: 'v1' } },
  quantity: 2,
};
/** One address in each client's names: the hosted client takes `addressLine1`, `formatted`, `location`. */
const OUR_ADDRESS = {
  country: 'US',
  subdivision: 'US-NY',
  city: 'New York',
  postalCode: '10001',
  addressLine: '350 Fifth Avenue',
  addressLine2: 'Floor 5',
  formattedAddress: '350 Fifth Avenue, New York',
  geocode: { latitude: 40.7484, longitude: -73.9857 },
  streetAddress: { number: '350', name: 'Fifth Avenue' },
};
const HOSTED_ADDRESS = {
  addressLine1: '350 Fifth Avenue',
  addressLine2: 'Floor 5',
  streetAddress: { number: '350', name: 'Fifth Avenue' },
  postalCode: '10001',
  city: 'New York',
  country: 'US',
  subdivision: 'US-NY',
  formatted: '350 Fifth Avenue, New York',
  location: { latitude: 40.7484, longitude: -73.9857 },
};
/** An address as a checkout answer carries it: the names the hosted client does not send are left out. */
const READ_ADDRESS = { ...OUR_ADDRESS, countryFullname: 'United States', subdivisionFullname: 'New York' };
const CONTACT = { firstName: 'Ada', lastName: 'Lovelace', phone: '+1 555 0100' };
const checkoutFields = (address: object) => ({
  buyerInfo: { email: 'ada@example.com' },
  billingInfo: { address, contactDetails: CONTACT },
  shippingInfo: {
    shippingDestination: { address, contactDetails: CONTACT },
    selectedCarrierServiceOption: { code: 'standard' },
  },
});
const orderFields = (address: object) => ({
  buyerNote: 'ring twice',
  billingInfo: { address, contactDetails: CONTACT },
  shippingInfo: {
    title: 'Standard',
    logistics: { shippingDestination: { address, contactDetails: CONTACT } },
  },
  recipientInfo: { address, contactDetails: CONTACT },
});

/** Every method of the ecom modules, each in both clients' terms (`id` here is `_id` there). */
const ecomCalls: Row[] = [
  [
    'currentCart.getCurrentCart',
    (c) => c.currentCart.getCurrentCart(),
    (h) => h.currentCart.getCurrentCart(),
  ],
  [
    'currentCart.updateCurrentCart',
    (c) =>
      c.currentCart.updateCurrentCart({
        cartInfo: { buyerNote: 'ring twice', contactInfo: { address: OUR_ADDRESS } },
        couponCode: 'SAVE10',
      }),
    (h) =>
      h.currentCart.updateCurrentCart({
        cartInfo: { buyerNote: 'ring twice', contactInfo: { address: HOSTED_ADDRESS } },
        couponCode: 'SAVE10',
      }),
  ],
  [
    'currentCart.addToCurrentCart',
    (c) => c.currentCart.addToCurrentCart({ lineItems: [LINE] }),
    (h) => h.currentCart.addToCurrentCart({ lineItems: [LINE] }),
  ],
  [
    'currentCart.removeLineItemsFromCurrentCart',
    (c) => c.currentCart.removeLineItemsFromCurrentCart(['li1', 'li2']),
    (h) => h.currentCart.removeLineItemsFromCurrentCart(['li1', 'li2']),
  ],
  [
    'currentCart.updateCurrentCartLineItemQuantity',
    (c) => c.currentCart.updateCurrentCartLineItemQuantity([{ quantity: 3, id: 'li1' }]),
    (h) => h.currentCart.updateCurrentCartLineItemQuantity([{ quantity: 3, _id: 'li1' }]),
  ],
  [
    'currentCart.removeCouponFromCurrentCart',
    (c) => c.currentCart.removeCouponFromCurrentCart(),
    (h) => h.currentCart.removeCouponFromCurrentCart(),
  ],
  [
    'currentCart.createCheckoutFromCurrentCart',
    (c) =>
      c.currentCart.createCheckoutFromCurrentCart({
        channelType: 'WEB',
        shippingAddress: OUR_ADDRESS,
        billingAddress: READ_ADDRESS,
        selectedShippingOption: { code: 'standard' },
        email: 'ada@example.com',
      }),
    (h) =>
      h.currentCart.createCheckoutFromCurrentCart({
        channelType: 'WEB',
        shippingAddress: HOSTED_ADDRESS,
        billingAddress: HOSTED_ADDRESS,
        selectedShippingOption: { code: 'standard' },
        email: 'ada@example.com',
      }),
  ],
  [
    'currentCart.estimateCurrentCartTotals',
    (c) =>
      c.currentCart.estimateCurrentCartTotals({
        shippingAddress: OUR_ADDRESS,
        calculateTax: true,
        calculateShipping: true,
      }),
    (h) =>
      h.currentCart.estimateCurrentCartTotals({
        shippingAddress: HOSTED_ADDRESS,
        calculateTax: true,
        calculateShipping: true,
      }),
  ],
  ['checkout.getCheckout', (c) => c.checkout.getCheckout('ch1'), (h) => h.checkout.getCheckout('ch1')],
  [
    'checkout.getCheckoutByCartId',
    (c) => c.checkout.getCheckoutByCartId('cart1'),
    (h) => h.checkout.getCheckoutByCartId('cart1'),
  ],
  [
    'checkout.createCheckout',
    (c) =>
      c.checkout.createCheckout({
        lineItems: [LINE],
        channelType: 'WEB',
        couponCode: 'SAVE10',
        checkoutInfo: checkoutFields(OUR_ADDRESS),
      }),
    (h) =>
      h.checkout.createCheckout({
        lineItems: [LINE],
        channelType: 'WEB',
        couponCode: 'SAVE10',
        checkoutInfo: checkoutFields(HOSTED_ADDRESS),
      }),
  ],
  [
    'checkout.createCheckout (custom lines only)',
    (c) =>
      c.checkout.createCheckout({
        customLineItems: [{ productName: { original: 'Gift wrap' }, price: '5', quantity: 1 }],
        channelType: 'OTHER_PLATFORM',
      }),
    (h) =>
      h.checkout.createCheckout({
        customLineItems: [
          { productName: { original: 'Gift wrap' }, price: '5', quantity: 1, itemType: undefined as never },
        ],
        channelType: 'OTHER_PLATFORM',
      }),
  ],
  [
    'checkout.updateCheckout',
    (c) => c.checkout.updateCheckout('ch1', checkoutFields(OUR_ADDRESS), { couponCode: 'SAVE10' }),
    (h) => h.checkout.updateCheckout('ch1', checkoutFields(HOSTED_ADDRESS), { couponCode: 'SAVE10' }),
  ],
  [
    'checkout.updateCheckout (an address as an answer carries it)',
    (c) => c.checkout.updateCheckout('ch1', checkoutFields(READ_ADDRESS)),
    (h) => h.checkout.updateCheckout('ch1', checkoutFields(HOSTED_ADDRESS)),
  ],
  [
    "checkout.updateCheckout (an address in the hosted client's names)",
    (c) => c.checkout.updateCheckout('ch1', checkoutFields(HOSTED_ADDRESS)),
    (h) => h.checkout.updateCheckout('ch1', checkoutFields(HOSTED_ADDRESS)),
  ],
  [
    'checkout.updateCheckout (a pickup point and a null address)',
    (c) =>
      c.checkout.updateCheckout('ch1', {
        billingInfo: { address: null as never },
        shippingInfo: {
          selectedCarrierServiceOption: {
            code: 'pickup',
            logistics: { pickupDetails: { address: OUR_ADDRESS, pickupMethod: 'STORE_PICKUP' } },
          },
        },
      }),
    (h) =>
      h.checkout.updateCheckout('ch1', {
        billingInfo: { address: null as never },
        shippingInfo: {
          selectedCarrierServiceOption: {
            code: 'pickup',
            logistics: { pickupDetails: { address: HOSTED_ADDRESS, pickupMethod: 'STORE_PICKUP' } },
          } as never,
        },
      }),
  ],
  [
    'checkout.addToCheckout',
    (c) => c.checkout.addToCheckout('ch1', { lineItems: [LINE] }),
    (h) => h.checkout.addToCheckout('ch1', { lineItems: [LINE] }),
  ],
  [
    'checkout.removeLineItems',
    (c) => c.checkout.removeLineItems('ch1', ['li1', 'li2']),
    (h) => h.checkout.removeLineItems('ch1', ['li1', 'li2']),
  ],
  [
    'checkout.updateLineItemsQuantity',
    (c) => c.checkout.updateLineItemsQuantity('ch1', [{ quantity: 2, id: 'li1' }]),
    (h) => h.checkout.updateLineItemsQuantity('ch1', [{ quantity: 2, _id: 'li1' }]),
  ],
  ['checkout.removeCoupon', (c) => c.checkout.removeCoupon('ch1'), (h) => h.checkout.removeCoupon('ch1')],
  ['checkout.createOrder', (c) => c.checkout.createOrder('ch1'), (h) => h.checkout.createOrder('ch1')],
  [
    'checkout.createOrder (options)',
    (c) => c.checkout.createOrder('ch1', { savePaymentMethod: true, delayCapture: true }),
    (h) => h.checkout.createOrder('ch1', { savePaymentMethod: true, delayCapture: true }),
  ],
  [
    'checkout.getCheckoutUrl',
    (c) => c.checkout.getCheckoutUrl('ch1'),
    (h) => h.checkout.getCheckoutUrl('ch1'),
  ],
  [
    'checkout.markCheckoutAsCompleted',
    (c) => c.checkout.markCheckoutAsCompleted('ch1'),
    (h) => h.checkout.markCheckoutAsCompleted('ch1'),
  ],
  [
    'checkout.markCheckoutAsCompleted (an order id)',
    (c) => c.checkout.markCheckoutAsCompleted('ch1', { orderId: 'o1' }),
    (h) => h.checkout.markCheckoutAsCompleted('ch1', { orderId: 'o1' } as never),
  ],
  ['orders.getOrder', (c) => c.orders.getOrder('o1'), (h) => h.orders.getOrder('o1')],
  [
    'orders.searchOrders',
    (c) =>
      c.orders.searchOrders({
        filter: { status: { $eq: 'APPROVED' }, paymentStatus: { $in: ['PAID', 'NOT_PAID'] } },
        sort: [{ fieldName: 'createdDate', order: 'DESC' }],
        cursorPaging: { limit: 10, cursor: 'next-1' },
      }),
    (h) =>
      h.orders.searchOrders({
        filter: { status: { $eq: 'APPROVED' }, paymentStatus: { $in: ['PAID', 'NOT_PAID'] } },
        // the hosted client's name for the field; it sends `createdDate`
        sort: [{ fieldName: '_createdDate', order: 'DESC' }],
        cursorPaging: { limit: 10, cursor: 'next-1' },
      }),
  ],
  [
    'orders.searchOrders (no search)',
    (c) => c.orders.searchOrders(),
    (h) => h.orders.searchOrders(undefined as never),
  ],
  [
    'orders.createOrder',
    (c) =>
      c.orders.createOrder(
        { ...orderFields(OUR_ADDRESS), channelInfo: { type: 'WEB' }, currency: 'USD' },
        { settings: { editableByEveryone: true } },
      ),
    (h) =>
      h.orders.createOrder(
        { ...orderFields(HOSTED_ADDRESS), channelInfo: { type: 'WEB' }, currency: 'USD' } as never,
        { settings: { editableByEveryone: true } },
      ),
  ],
  [
    'orders.createOrder (paid, approval strategy, notifications)',
    (c) =>
      c.orders.createOrder(
        { ...orderFields(OUR_ADDRESS), channelInfo: { type: 'POS' }, paymentStatus: 'PAID' },
        {
          settings: {
            orderApprovalStrategy: 'PAYMENT_RECEIVED',
            notifications: { sendNotificationToBuyer: false, sendNotificationsToBusiness: true },
          },
        },
      ),
    (h) =>
      h.orders.createOrder(
        { ...orderFields(HOSTED_ADDRESS), channelInfo: { type: 'POS' }, paymentStatus: 'PAID' } as never,
        {
          settings: {
            orderApprovalStrategy: 'PAYMENT_RECEIVED',
            notifications: { sendNotificationToBuyer: false, sendNotificationsToBusiness: true },
          },
        },
      ),
  ],
  [
    'orders.updateOrder',
    (c) => c.orders.updateOrder('o1', orderFields(READ_ADDRESS)),
    (h) => h.orders.updateOrder('o1', orderFields(HOSTED_ADDRESS) as never),
  ],
  [
    'orders.bulkUpdateOrders',
    (c) =>
      c.orders.bulkUpdateOrders(
        [
          { order: { buyerNote: 'first', id: 'o1' }, fieldMask: ['buyerNote'] },
          {
            order: { recipientInfo: { address: OUR_ADDRESS }, id: 'o2' },
            fieldMask: ['recipientInfo', 'tags'],
          },
        ],
        { returnEntity: true },
      ),
    (h) =>
      h.orders.bulkUpdateOrders(
        [
          { order: { _id: 'o1', buyerNote: 'first' }, fieldMask: ['buyerNote'] },
          {
            order: { _id: 'o2', recipientInfo: { address: HOSTED_ADDRESS } },
            fieldMask: ['recipientInfo', 'tags'],
          },
        ] as never,
        { returnEntity: true },
      ),
  ],
  [
    'orders.cancelOrder',
    (c) =>
      c.orders.cancelOrder('o1', {
        sendOrderCanceledEmail: true,
        customMessage: 'Sorry',
        restockAllItems: true,
      }),
    (h) =>
      h.orders.cancelOrder('o1', {
        sendOrderCanceledEmail: true,
        customMessage: 'Sorry',
        restockAllItems: true,
      }),
  ],
  [
    'orders.bulkUpdateOrderTags',
    (c) =>
      c.orders.bulkUpdateOrderTags(['o1', 'o2'], {
        assignTags: { privateTags: { tagIds: ['t1'] } },
        unassignTags: { tags: { tagIds: ['t2'] } },
      }),
    (h) =>
      h.orders.bulkUpdateOrderTags(['o1', 'o2'], {
        assignTags: { privateTags: { tagIds: ['t1'] } },
        unassignTags: { tags: { tagIds: ['t2'] } },
      }),
  ],
  [
    'orders.addActivities',
    (c) =>
      c.orders.addActivities('o1', {
        orderActivities: [{ merchantComment: { message: 'Called the buyer' } }],
      }),
    (h) =>
      h.orders.addActivities('o1', {
        orderActivities: [{ merchantComment: { message: 'Called the buyer' } }],
      }),
  ],
  [
    'orders.aggregateOrders',
    (c) =>
      c.orders.aggregateOrders({
        filter: { status: { $in: ['APPROVED'] } },
        aggregation: { queue: { $count: ['paymentStatus', 'fulfillmentStatus'] } },
        hierarchySeparatorOverride: '/',
      }),
    (h) =>
      (h.orders as any).aggregateOrders({
        filter: { status: { $in: ['APPROVED'] } },
        aggregation: { queue: { $count: ['paymentStatus', 'fulfillmentStatus'] } },
        hierarchySeparatorOverride: '/',
      }),
  ],
  [
    'paymentsCollector.preparePaymentCollection',
    (c) =>
      c.paymentsCollector.preparePaymentCollection(
        'o1',
        { amount: '10.50' },
        {
          paymentGatewayOrderId: 'gateway-1',
          delayedCapture: true,
          delayedCaptureSettings: { scheduledAction: 'VOID', delayDuration: { unit: 'DAYS', count: 3 } },
        },
      ),
    (h) =>
      h.orders.preparePaymentCollection(
        'o1',
        { amount: '10.50' },
        {
          paymentGatewayOrderId: 'gateway-1',
          delayedCapture: true,
          delayedCaptureSettings: {
            scheduledAction: 'VOID',
            delayDuration: { unit: 'DAYS' as never, count: 3 },
          },
        },
      ),
  ],
  [
    'paymentsCollector.getPaymentCollectabilityStatus',
    (c) => c.paymentsCollector.getPaymentCollectabilityStatus('o1'),
    (h) => h.orders.getPaymentCollectabilityStatus('o1'),
  ],
  [
    'paymentsCollector.voidAuthorizedPayments',
    (c) => c.paymentsCollector.voidAuthorizedPayments('o1', ['pay1', 'pay2']),
    (h) => h.orders.voidAuthorizedPayments('o1', ['pay1', 'pay2']),
  ],
  [
    'paymentsCollector.captureAuthorizedPayments',
    (c) =>
      c.paymentsCollector.captureAuthorizedPayments('o1', [
        { paymentId: 'pay1', amount: { amount: '5.25' } },
      ]),
    (h) => h.orders.captureAuthorizedPayments('o1', [{ paymentId: 'pay1', amount: { amount: '5.25' } }]),
  ],
  [
    'orderTransactions.listTransactionsForSingleOrder',
    (c) => c.orderTransactions.listTransactionsForSingleOrder('o1'),
    (h) => h.orderTransactions.listTransactionsForSingleOrder('o1'),
  ],
  [
    'orderTransactions.listTransactionsForMultipleOrders',
    (c) => c.orderTransactions.listTransactionsForMultipleOrders(['o1', 'o2']),
    (h) => h.orderTransactions.listTransactionsForMultipleOrders(['o1', 'o2']),
  ],
  [
    'orderTransactions.addPayments',
    (c) =>
      c.orderTransactions.addPayments('o1', [
        {
          amount: { amount: '10.00' },
          regularPaymentDetails: { offlinePayment: true, paymentMethod: 'Cash' },
        },
      ]),
    (h) =>
      h.orderTransactions.addPayments('o1', [
        {
          amount: { amount: '10.00' },
          regularPaymentDetails: { offlinePayment: true, paymentMethod: 'Cash' },
        },
      ]),
  ],
  [
    'orderTransactions.updatePaymentStatus',
    (c) =>
      c.orderTransactions.updatePaymentStatus({ paymentId: 'pay1', orderId: 'o1' }, { status: 'APPROVED' }),
    (h) =>
      h.orderTransactions.updatePaymentStatus({ paymentId: 'pay1', orderId: 'o1' }, { status: 'APPROVED' }),
  ],
];

/**
 * One answer for every ecom call, holding each wrapper the calls unwrap (`checkout`, `order`) and
 * none of the fields the hosted client renames (`id`, dates, addresses): both clients must hand back
 * the same part of it.
 */
const ECOM_ANSWER = {
  cart: { currency: 'USD', buyerNote: 'ring twice' },
  checkout: { currency: 'USD', buyerNote: 'ring twice' },
  checkoutId: 'ch1',
  order: { number: '1001', status: 'APPROVED' },
  orders: [{ number: '1001' }],
  metadata: { count: 1, hasNext: false, cursors: {} },
  orderId: 'o1',
  paymentGatewayOrderId: 'gateway-1',
  checkoutUrl: 'https://shop.example/checkout',
  orderTransactions: { orderId: 'o1', payments: [], refunds: [] },
  results: [],
  bulkActionMetadata: { totalSuccesses: 1, totalFailures: 0 },
  status: 'COLLECTABLE',
  amount: { amount: '10.50', formattedAmount: '$10.50' },
};

/** Every method of Cartwheel's modules that sends a DELETE, found by calling each one. */
async function methodsSendingDelete(): Promise<string[]> {
  const found: string[] = [];
  for (const [moduleName, bound] of Object.entries(cartwheel)) {
    if (!(moduleName in cartwheelModules)) continue;
    for (const [method, call] of Object.entries(bound as Record<string, (...args: unknown[]) => unknown>)) {
      ours.requests.length = 0;
      await Promise.resolve()
        .then(() => call('x1', 'x2', {}))
        .catch(() => undefined);
      if (ours.requests.some((request) => request.method === 'DELETE')) found.push(`${moduleName}.${method}`);
    }
  }
  return found;
}

describe("requests equal to the hosted client's (issue 9, SDK)", () => {
  it('pins every DELETE the SDK has', async () => {
    const rows = new Set(deletes.map(([name]) => name));
    expect(new Set(await methodsSendingDelete())).toEqual(rows);
  });

  it.each(deletes)('%s sends the DELETE the hosted client sends', async (_name, ourCall, theirCall) => {
    await ourCall(cartwheel);
    await theirCall(hosted);
    expectSameRequest(only(ours.requests), only(theirs.requests));
  });

  it('copies the path id into the query string of a DELETE, as ?id=', async () => {
    await cartwheel.products.deleteProduct('p1');
    expect(only(ours.requests).url).toBe('https://www.wixapis.com/stores/v1/products/p1?id=p1');
  });

  it('leaves a DELETE option out of the query when it is not given', async () => {
    await cartwheel.members.deleteMyMember();
    await hosted.members.deleteMyMember();
    expectSameRequest(only(ours.requests), only(theirs.requests));
    expect(only(ours.requests).url).toBe('https://www.wixapis.com/members/v1/members/my');
  });

  it('pins every method of the ecom modules', () => {
    const pinned = new Set([...ecomCalls, ...billingCalls].map(([name]) => name.split(' ')[0]!));
    const ourMethods = Object.entries({
      currentCart,
      checkout,
      orders,
      paymentsCollector,
      orderTransactions,
      orderBilling,
    })
      .flatMap(([module, methods]) => Object.keys(methods).map((method) => `${module}.${method}`))
      // the DELETEs are pinned with the other DELETEs
      .filter((method) => !deletes.some(([name]) => name === method));
    expect(new Set(ourMethods)).toEqual(pinned);
  });

  it.each(ecomCalls)(
    '%s sends what the hosted client sends and answers what it answers',
    async (_name, ourCall, theirCall) => {
      ours.answer = ECOM_ANSWER;
      theirs.answer = ECOM_ANSWER;
      const ourAnswer = await ourCall(cartwheel);
      const theirAnswer = await theirCall(hosted);
      expectSameRequest(only(ours.requests), only(theirs.requests));
      expect(ourAnswer).toEqual(theirAnswer);
    },
  );

  it("sends a checkout's addresses in the hosted client's field order, as `addressLine`", async () => {
    await cartwheel.checkout.updateCheckout('ch1', { billingInfo: { address: READ_ADDRESS } });
    expect(only(ours.requests).body).toBe(
      '{"checkout":{"billingInfo":{"address":{"city":"New York","subdivision":"US-NY","country":"US",' +
        '"postalCode":"10001","formattedAddress":"350 Fifth Avenue, New York",' +
        '"geocode":{"latitude":40.7484,"longitude":-73.9857},"addressLine":"350 Fifth Avenue",' +
        '"addressLine2":"Floor 5","streetAddress":{"name":"Fifth Avenue","number":"350"}}},"id":"ch1"}}',
    );
  });

  it("leaves the caller's objects as they were", async () => {
    const fields = checkoutFields(READ_ADDRESS);
    const before = structuredClone(fields);
    await cartwheel.checkout.updateCheckout('ch1', fields);
    expect(fields).toEqual(before);
  });

  it('sends a field mask as the comma-joined paths the hosted client sends', async () => {
    await cartwheel.orders.updateOrder('o1', { buyerNote: 'x' }, { fieldMask: ['buyerNote', 'tags'] });
    expect(only(ours.requests).body).toBe(
      '{"order":{"buyerNote":"x","id":"o1"},"fieldMask":"buyerNote,tags"}',
    );
  });

  it('pins every identity call the hosted client has (it has no resend, and no second-step verify)', () => {
    const pinned = new Set(identityCalls.map(([name]) => name.split(' ')[0]!));
    const ourMethods = [
      ...Object.keys(authentication).map((method) => `authentication.${method}`),
      ...Object.keys(recovery).map((method) => `recovery.${method}`),
      ...Object.keys(verification).map((method) => `verification.${method}`),
    ];
    expect(ourMethods.filter((method) => !pinned.has(method))).toEqual([
      'authentication.verify',
      'verification.resendDuringAuthentication',
    ]);
    expect(Object.keys(hosted.verification)).not.toContain('resendDuringAuthentication');
    // the hosted module maps `/v2/verify` but offers no call for it: ours is `POST /v2/{factorType}/verify`
    expect(Object.keys(hosted.authentication)).not.toContain('verify');
  });

  it.each(identityCalls)('%s sends what the hosted client sends', async (_name, ourCall, theirCall) => {
    await ourCall(cartwheel);
    await theirCall(hosted);
    expectSameRequest(only(ours.requests), only(theirs.requests));
  });

  it("sends a register profile's addresses in the hosted client's field order, city first", async () => {
    await cartwheel.authentication.register(EMAIL, {
      profile: { addresses: fullProfile('addressLine').addresses },
    });
    expect(only(ours.requests).body).toBe(
      '{"loginId":{"email":"ada@example.com"},"profile":{"addresses":[{"address":{"city":"New York",' +
        '"subdivision":"US-NY","country":"US","postalCode":"10001","addressLine":"350 Fifth Avenue",' +
        '"addressLine2":"Floor 5"},"tag":"HOME"},{"tag":"WORK","address":{"country":"GB",' +
        '"addressLine":"1 Strand","addressLine2":"Suite 2"}}]}}',
    );
  });

  it("leaves the caller's profile as it was", async () => {
    const profile = { ...fullProfile('addressLine'), customFields: oddCustomFields() as never };
    const before = structuredClone(profile);
    await cartwheel.authentication.register(EMAIL, { profile });
    await cartwheel.authentication.signOn(EMAIL, { profile });
    expect(profile).toEqual(before);
  });

  it('sends only the named fields of recover, never the characters of a string', async () => {
    await cartwheel.recovery.recover('recovery-token', 'pw' as never);
    expect(only(ours.requests).body).toBe('{"recoveryToken":"recovery-token"}');
  });
});

describe("token requests equal to the hosted client's OAuthStrategy (issue 9, SDK)", () => {
  const CLIENT_ID = 'client-1';
  /** The hosted OAuthStrategy calls the global `fetch` at its own host, whatever the client is given. */
  const hostedAuth = () => {
    vi.stubGlobal('fetch', theirs.fetch);
    return HostedOAuthStrategy({ clientId: CLIENT_ID });
  };
  const ourAuth = () => OAuthStrategy({ clientId: CLIENT_ID, host: HOSTED_API_HOST, fetch: ours.fetch });
  const context = { baseUrl: `https://${HOSTED_API_HOST}`, fetch: ours.fetch };
  const oauthData: OAuthData = {
    state: 'state-1',
    codeVerifier: 'verifier-1',
    codeChallenge: 'challenge-1',
    redirectUri: 'https://shop.example/callback',
    originalUri: 'https://shop.example/',
  };

  const tokenCalls: [
    name: string,
    ourCall: (auth: ReturnType<typeof ourAuth>) => Promise<unknown>,
    theirCall: (auth: ReturnType<typeof hostedAuth>) => Promise<unknown>,
  ][] = [
    [
      'anonymous visitor tokens',
      (auth) => auth.generateVisitorTokens(context),
      (auth) => auth.generateVisitorTokens(),
    ],
    [
      'a refresh',
      (auth) => auth.renewToken(context, 'refresh-0'),
      (auth) => auth.renewToken({ value: 'refresh-0', role: 'visitor' as never }),
    ],
    [
      'an authorization code',
      (auth) => auth.getMemberTokens('code-1', 'state-1', oauthData),
      (auth) => auth.getMemberTokens('code-1', 'state-1', oauthData),
    ],
    [
      'an external login',
      (auth) => {
        auth.setTokens(heldTokens());
        return auth.getMemberTokensForExternalLogin('m1', API_KEY);
      },
      (auth) => {
        auth.setTokens(heldTokens() as never);
        return auth.getMemberTokensForExternalLogin('m1', API_KEY);
      },
    ],
  ];

  function heldTokens() {
    return {
      accessToken: { value: 'visitor-access', expiresAt: Math.floor(Date.now() / 1000) + 3600 },
      refreshToken: { value: 'visitor-refresh', role: 'visitor' as const },
    };
  }

  it.each(tokenCalls)(
    'the token request for %s is the hosted one, tracing header included',
    async (_name, ourCall, theirCall) => {
      await ourCall(ourAuth());
      await theirCall(hostedAuth());
      const ourRequest = only(ours.requests);
      expectSameRequest(ourRequest, only(theirs.requests));
      expect(ourRequest.url).toBe('https://www.wixapis.com/oauth2/token');
      expect(ourRequest.headers.get(TRACING_HEADER)).toBe(
        'environment=cartwheel-sdk,package-name=@cartwheel/sdk,method-fqn=cartwheel.identity.oauth2.v1.Oauth2.Token,entity=refreshToken',
      );
    },
  );
});

// ---- the merchant's money calls (issue 20): order billing, bulk payment statuses, the collector on orders ----

const billingClient = createClient({
  host: HOSTED_API_HOST,
  auth: ApiKeyStrategy({ apiKey: API_KEY }),
  fetch: ours.fetch,
  modules: { orders, orderBilling, orderTransactions },
});
const hostedBilling = createHostedClient({
  auth: HostedApiKeyStrategy({ apiKey: API_KEY, siteId: 'cartwheel-test-site' }),
  fetch: theirs.fetch,
  modules: {
    orders: hostedOrders,
    orderBilling: hostedOrderBilling,
    orderTransactions: hostedOrderTransactions,
  },
});

const REFUND_ITEMS = {
  lineItems: [{ lineItemId: 'li1', quantity: 2 }],
  additionalFees: [{ additionalFeeId: 'fee1', amount: { amount: '1.00' } }],
  shipping: { amount: { amount: '2.50' } },
};

const billingCalls: Array<
  [string, (c: typeof billingClient) => Promise<unknown>, (h: typeof hostedBilling) => Promise<unknown>]
> = [
  [
    'orders.preparePaymentCollection',
    (c) =>
      c.orders.preparePaymentCollection('o1', { amount: '10.50' }, { paymentGatewayOrderId: 'gateway-1' }),
    (h) =>
      h.orders.preparePaymentCollection('o1', { amount: '10.50' }, { paymentGatewayOrderId: 'gateway-1' }),
  ],
  [
    'orders.getPaymentCollectabilityStatus',
    (c) => c.orders.getPaymentCollectabilityStatus('o1'),
    (h) => h.orders.getPaymentCollectabilityStatus('o1'),
  ],
  [
    'orders.voidAuthorizedPayments',
    (c) => c.orders.voidAuthorizedPayments('o1', ['pay1']),
    (h) => h.orders.voidAuthorizedPayments('o1', ['pay1']),
  ],
  [
    'orders.captureAuthorizedPayments',
    (c) => c.orders.captureAuthorizedPayments('o1', [{ paymentId: 'pay1', amount: { amount: '5.25' } }]),
    (h) => h.orders.captureAuthorizedPayments('o1', [{ paymentId: 'pay1', amount: { amount: '5.25' } }]),
  ],
  [
    'orderTransactions.bulkUpdatePaymentStatuses',
    (c) =>
      c.orderTransactions.bulkUpdatePaymentStatuses([{ paymentId: 'pay1', orderId: 'o1' }], {
        status: 'APPROVED',
        returnFullEntity: true,
      }),
    (h) =>
      h.orderTransactions.bulkUpdatePaymentStatuses([{ paymentId: 'pay1', orderId: 'o1' }], {
        status: 'APPROVED',
        returnFullEntity: true,
      }),
  ],
  [
    'orderBilling.getOrderRefundability',
    (c) => c.orderBilling.getOrderRefundability('o1'),
    (h) => h.orderBilling.getOrderRefundability('o1'),
  ],
  [
    'orderBilling.calculateRefund',
    (c) => c.orderBilling.calculateRefund('o1', { refundItems: REFUND_ITEMS }),
    (h) => h.orderBilling.calculateRefund('o1', { refundItems: REFUND_ITEMS }),
  ],
  [
    'orderBilling.refundPayments',
    (c) =>
      c.orderBilling.refundPayments('o1', {
        paymentRefunds: [{ paymentId: 'pay1', amount: { amount: '4.00' }, externalRefund: false }],
        sideEffects: {
          restock: { lineItems: [{ lineItemId: 'li1', quantity: 1 }] },
          notifications: { sendCustomerEmail: true, customMessage: 'sorry' },
        },
        refundItems: REFUND_ITEMS,
        customerReason: 'broken',
      }),
    (h) =>
      h.orderBilling.refundPayments('o1', {
        paymentRefunds: [{ paymentId: 'pay1', amount: { amount: '4.00' }, externalRefund: false }],
        sideEffects: {
          restock: { lineItems: [{ lineItemId: 'li1', quantity: 1 }] },
          notifications: { sendCustomerEmail: true, customMessage: 'sorry' },
        },
        refundItems: REFUND_ITEMS,
        customerReason: 'broken',
      }),
  ],
  [
    'orderBilling.captureAuthorizedPayments',
    (c) => c.orderBilling.captureAuthorizedPayments('o1', { payments: [{ paymentId: 'pay1' }] }),
    (h) => h.orderBilling.captureAuthorizedPayments('o1', { payments: [{ paymentId: 'pay1' }] }),
  ],
  [
    'orderBilling.voidAuthorizedPayments',
    (c) => c.orderBilling.voidAuthorizedPayments('o1', { paymentIds: ['pay1'] }),
    (h) => h.orderBilling.voidAuthorizedPayments('o1', { paymentIds: ['pay1'] }),
  ],
];

describe("the merchant's money calls equal the hosted client's (issue 20, SDK)", () => {
  it('pins every method of the orderBilling module', () => {
    const pinned = new Set(billingCalls.map(([name]) => name));
    expect(
      Object.keys(orderBilling)
        .map((method) => `orderBilling.${method}`)
        .filter((name) => !pinned.has(name)),
    ).toEqual([]);
  });

  it.each(billingCalls)(
    '%s sends what the hosted client sends and answers what it answers',
    async (_name, ourCall, theirCall) => {
      const answer = {
        ...ECOM_ANSWER,
        available: true,
        payments: [],
        lineItems: [],
        refund: { transactions: [] },
      };
      ours.answer = answer;
      theirs.answer = answer;
      const ourAnswer = await ourCall(billingClient);
      const theirAnswer = await theirCall(hostedBilling);
      expectSameRequest(only(ours.requests), only(theirs.requests));
      expect(ourAnswer).toEqual(theirAnswer);
    },
  );
});

/**
 * Every members call (issue 21, point 7), ours and the hosted client's `members` module side by side:
 * the same method, URL, body bytes, content type, authorization and tracing shape.
 */
const memberCalls: Row[] = [
  [
    'updateCurrentMemberSlug',
    (c) => c.members.updateCurrentMemberSlug('ada-l'),
    (h) => h.members.updateCurrentMemberSlug('ada-l'),
  ],
  [
    'updateMemberSlug',
    (c) => c.members.updateMemberSlug('m1', 'ada-l'),
    (h) => h.members.updateMemberSlug('m1', 'ada-l'),
  ],
  ['joinCommunity', (c) => c.members.joinCommunity(), (h) => h.members.joinCommunity()],
  ['leaveCommunity', (c) => c.members.leaveCommunity(), (h) => h.members.leaveCommunity()],
  [
    'getCurrentMember',
    (c) => c.members.getCurrentMember({ fieldsets: ['FULL'] }),
    (h) => h.members.getCurrentMember({ fieldsets: ['FULL'] }),
  ],
  [
    'getMember',
    (c) => c.members.getMember('m1', { fieldsets: ['PUBLIC'] }),
    (h) => h.members.getMember('m1', { fieldsets: ['PUBLIC'] }),
  ],
  [
    'listMembers',
    (c) =>
      c.members.listMembers({
        paging: { limit: 20, offset: 40 },
        fieldsets: ['FULL'],
        sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
      }),
    (h) =>
      h.members.listMembers({
        paging: { limit: 20, offset: 40 },
        fieldsets: ['FULL'],
        sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
      }),
  ],
  [
    'queryMembers',
    (c) =>
      c.members.queryMembers(
        { filter: { status: 'APPROVED' }, paging: { limit: 5, offset: 0 } },
        { fieldsets: ['FULL'] },
      ),
    (h) =>
      h.members
        .queryMembers({ fieldsets: ['FULL'] })
        .eq('status', 'APPROVED')
        .limit(5)
        .find(),
  ],
  ['muteMember', (c) => c.members.muteMember('m1'), (h) => h.members.muteMember('m1')],
  ['unmuteMember', (c) => c.members.unmuteMember('m1'), (h) => h.members.unmuteMember('m1')],
  ['approveMember', (c) => c.members.approveMember('m1'), (h) => h.members.approveMember('m1')],
  ['blockMember', (c) => c.members.blockMember('m1'), (h) => h.members.blockMember('m1')],
  ['disconnectMember', (c) => c.members.disconnectMember('m1'), (h) => h.members.disconnectMember('m1')],
  [
    'bulkDeleteMembers',
    (c) => c.members.bulkDeleteMembers(['m1', 'm2']),
    (h) => h.members.bulkDeleteMembers(['m1', 'm2']),
  ],
  [
    'bulkDeleteMembersByFilter',
    (c) => c.members.bulkDeleteMembersByFilter({ status: 'BLOCKED' }, { contentAssigneeId: 'm2' }),
    (h) => h.members.bulkDeleteMembersByFilter({ status: 'BLOCKED' }, { contentAssigneeId: 'm2' }),
  ],
  [
    'bulkApproveMembers',
    (c) => c.members.bulkApproveMembers({ status: 'PENDING' }),
    (h) => h.members.bulkApproveMembers({ status: 'PENDING' }),
  ],
  [
    'bulkBlockMembers',
    (c) => c.members.bulkBlockMembers({ status: 'PENDING' }),
    (h) => h.members.bulkBlockMembers({ status: 'PENDING' }),
  ],
  [
    'createMember',
    (c) =>
      c.members.createMember({ member: { loginEmail: 'ada@example.com', profile: { nickname: 'Ada' } } }),
    (h) =>
      h.members.createMember({ member: { loginEmail: 'ada@example.com', profile: { nickname: 'Ada' } } }),
  ],
  [
    'updateMember',
    (c) =>
      c.members.updateMember('m1', { profile: { nickname: 'Countess' }, contact: { phones: ['+1 555'] } }),
    (h) =>
      h.members.updateMember('m1', { profile: { nickname: 'Countess' }, contact: { phones: ['+1 555'] } }),
  ],
];

describe("members requests equal to the hosted client's (issue 21, SDK)", () => {
  it('pins every members call of the hosted client (the deletes are pinned above)', () => {
    const pinned = new Set([
      ...memberCalls.map(([name]) => name),
      ...deletes
        .filter(([name]) => name.startsWith('members.'))
        .map(([name]) => name.slice('members.'.length)),
      // Cartwheel's own, which the hosted client has no call for
      'getBulkMembersJob',
    ]);
    expect(new Set(Object.keys(members))).toEqual(pinned);
  });

  it.each(memberCalls)('members.%s sends what the hosted client sends', async (_name, ourCall, theirCall) => {
    ours.answer = { member: { id: 'm1' }, members: [], metadata: { count: 0, offset: 0, total: 0 } };
    theirs.answer = ours.answer;
    await ourCall(cartwheel);
    await theirCall(hosted);
    expectSameRequest(only(ours.requests), only(theirs.requests));
  });
});
