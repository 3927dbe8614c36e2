import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type {
  AddToCartRequest,
  Cart,
  CartResponse,
  CreateCheckoutFromCartRequest,
  CreateCheckoutFromCartResponse,
  EstimateTotalsRequest,
  EstimateTotalsResponse,
  LineItemQuantityUpdate,
  UpdateCartRequest,
} from '../../types/ecom-cart.ts';
import { addressesOnWire } from './addresses.ts';
import { CURRENT_CART, ecomService, pick } from './domains.ts';

const call = ecomService(CURRENT_CART, 'cart.v1.CurrentCartService', 'cart');
const TWO_ADDRESSES = ['shippingAddress', 'billingAddress'];

/** `POST /v1/carts/current<action>`, answered with `{cart}`. */
const cartChange = (transport: Transport, action: string, traceName: string, body: Record<string, unknown>) =>
  call<CartResponse>(transport, 'POST', `/v1/carts/current${action}`, traceName, body);

/**
 * The current visitor's or member's own cart (point 7, "Cart"). Names, arguments and answers are the
 * hosted platform's own client's: `getCurrentCart` and `updateCurrentCart` answer the cart itself, the
 * other changes answer `{cart}`, so code written against the hosted client reads the same fields here.
 * Addresses go out as the hosted client sends them.
 */
export const currentCart = {
  /** `GET /v1/carts/current`: the cart, or a 404 before anything was added to it. */
  getCurrentCart: (transport: Transport) => async (): Promise<Cart> =>
    (await call<CartResponse>(transport, 'GET', '/v1/carts/current', 'GetCurrentCart')).cart,

  /** `PATCH /v1/carts/current` {cartInfo, couponCode, merchantDiscounts, lineItems, customLineItems}. */
  updateCurrentCart:
    (transport: Transport) =>
    async (options: UpdateCartRequest = {}): Promise<Cart> =>
      (
        await call<CartResponse>(
          transport,
          'PATCH',
          '/v1/carts/current',
          'UpdateCurrentCart',
          addressesOnWire(
            pick(options, ['cartInfo', 'couponCode', 'merchantDiscounts', 'lineItems', 'customLineItems']),
            ['cartInfo.contactInfo.address'],
          ),
        )
      ).cart,

  /** `POST /v1/carts/current/add-to-cart` {lineItems, customLineItems}: creates the cart if there is none. */
  addToCurrentCart:
    (transport: Transport) =>
    (options: AddToCartRequest = {}): Promise<CartResponse> =>
      cartChange(
        transport,
        '/add-to-cart',
        'AddToCurrentCart',
        pick(options, ['lineItems', 'customLineItems', 'businessLocationId']),
      ),

  /** `POST /v1/carts/current/remove-line-items` {lineItemIds}. */
  removeLineItemsFromCurrentCart:
    (transport: Transport) =>
    (lineItemIds: string[]): Promise<CartResponse> =>
      cartChange(transport, '/remove-line-items', 'RemoveLineItemsFromCurrentCart', { lineItemIds }),

  /** `POST /v1/carts/current/update-line-items-quantity` {lineItems: [{id, quantity}]}. */
  updateCurrentCartLineItemQuantity:
    (transport: Transport) =>
    (lineItems: LineItemQuantityUpdate[]): Promise<CartResponse> =>
      cartChange(transport, '/update-line-items-quantity', 'UpdateCurrentCartLineItemQuantity', {
        lineItems,
      }),

  /** `POST /v1/carts/current/remove-coupon` {}. */
  removeCouponFromCurrentCart: (transport: Transport) => (): Promise<CartResponse> =>
    cartChange(transport, '/remove-coupon', 'RemoveCouponFromCurrentCart', {}),

  /**
   * `POST /v1/carts/current/create-checkout` {channelType, shippingAddress, billingAddress,
   * selectedShippingOption, email}: answers the checkout's id, not the checkout.
   */
  createCheckoutFromCurrentCart:
    (transport: Transport) =>
    (options: CreateCheckoutFromCartRequest = {}): Promise<CreateCheckoutFromCartResponse> =>
      call(
        transport,
        'POST',
        '/v1/carts/current/create-checkout',
        'CreateCheckoutFromCurrentCart',
        addressesOnWire(
          pick(options, [
            'channelType',
            'shippingAddress',
            'billingAddress',
            'selectedShippingOption',
            'email',
          ]),
          TWO_ADDRESSES,
        ),
      ),

  /** `POST /v1/carts/current/estimate-totals`: the cart with every total a checkout would show. */
  estimateCurrentCartTotals:
    (transport: Transport) =>
    (options: EstimateTotalsRequest = {}): Promise<EstimateTotalsResponse> =>
      call(
        transport,
        'POST',
        '/v1/carts/current/estimate-totals',
        'EstimateCurrentCartTotals',
        addressesOnWire(
          pick(options, [
            'selectedShippingOption',
            'shippingAddress',
            'billingAddress',
            'selectedMemberships',
            'calculateTax',
            'calculateShipping',
            'calculateAdditionalFees',
          ]),
          TWO_ADDRESSES,
        ),
      ),

  /** `DELETE /v1/carts/current`: the answer is not read. */
  deleteCurrentCart: (transport: Transport) => async (): Promise<void> => {
    await call(transport, 'DELETE', '/v1/carts/current', 'DeleteCurrentCart');
  },
} satisfies ModuleDefinition;
