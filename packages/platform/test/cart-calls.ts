import { STORES_APP_ID } from '@cartwheel/sdk';
import { type Answer, call } from './catalog-http.ts';
import { login, memberTokens, register } from './identity-client.ts';
import { TEST_ADMIN_API_KEY, type TestPlatform } from './support/platform.ts';

/** The current-cart calls at their public paths, as a shopper's client makes them with `auth`. */
export const CART = '/ecom/v1/carts/current';

export const cartCalls = (platform: TestPlatform, auth: string) => ({
  get: () => call(platform, 'GET', CART, undefined, auth),
  patch: (body: unknown) => call(platform, 'PATCH', CART, body, auth),
  delete: () => call(platform, 'DELETE', CART, undefined, auth),
  add: (body: unknown) => call(platform, 'POST', `${CART}/add-to-cart`, body, auth),
  removeLines: (lineItemIds: string[]) =>
    call(platform, 'POST', `${CART}/remove-line-items`, { lineItemIds }, auth),
  setQuantities: (lineItems: Array<{ id: string; quantity: number }>) =>
    call(platform, 'POST', `${CART}/update-line-items-quantity`, { lineItems }, auth),
  removeCoupon: () => call(platform, 'POST', `${CART}/remove-coupon`, {}, auth),
  createCheckout: (body: unknown = {}) => call(platform, 'POST', `${CART}/create-checkout`, body, auth),
  estimate: (body: unknown = {}) => call(platform, 'POST', `${CART}/estimate-totals`, body, auth),
});

/** A catalog line as the hosted client sends it. */
export const catalogLine = (productId: string, quantity = 1, options?: Record<string, unknown>) => ({
  catalogReference: { appId: STORES_APP_ID, catalogItemId: productId, ...(options ? { options } : {}) },
  quantity,
});

/**
 * `token` elevated by the admin key (`<access token>,<admin API key>`): a server acting on that shopper's
 * cart, the only caller that may add custom lines (its own price) or catalog override fields.
 */
export const elevated = (token: string) => `${token},${TEST_ADMIN_API_KEY}`;

/** A custom line: the caller's own name and price, no catalog. */
export const customLine = (name: string, price: string, quantity = 1) => ({
  productName: { original: name },
  price,
  quantity,
  itemType: { preset: 'PHYSICAL' },
});

export const applicationCode = (answer: Answer): string | undefined =>
  answer.body?.details?.applicationError?.code;

const PASSWORD = 'a long enough password 1';

/** Signs a new member up from `visitor`'s session: their member token carries that visitor's id. */
export async function signUpFrom(platform: TestPlatform, visitor: string, email: string): Promise<string> {
  const registered = await register(platform, visitor, email, PASSWORD);
  if (registered.body.state !== 'SUCCESS')
    throw new Error(`sign-up answered ${JSON.stringify(registered.body)}`);
  return (await memberTokens(platform, registered.body.sessionToken)).access_token;
}

/** Signs an existing member in from `visitor`'s session (see `signUpFrom`). */
export async function signInFrom(platform: TestPlatform, visitor: string, email: string): Promise<string> {
  const signedIn = await login(platform, visitor, email, PASSWORD);
  if (signedIn.body.state !== 'SUCCESS') throw new Error(`login answered ${JSON.stringify(signedIn.body)}`);
  return (await memberTokens(platform, signedIn.body.sessionToken)).access_token;
}
