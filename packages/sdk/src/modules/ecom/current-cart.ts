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
import { CURRENT_CART, currentCartTrace } from './domains.ts';

/**
 * The current visitor's or member's own cart (point 7, "Cart"). Names, arguments and answers are the
 * hosted platform's own client's: `getCurrentCart` and `updateCurrentCart` answer the cart itself, the
 * other changes answer `{cart}`, so code written against the hosted client reads the same fields here.
 */
export const currentCart = {
  /** `GET /v1/carts/current`: the cart, or a 404 before anything was added to it. */
  getCurrentCart: (transport: Transport) => async (): Promise<Cart> => {
    const answer = await transport.request<CartResponse>({
      method: 'GET',
      path: '/v1/carts/current',
      mapping: CURRENT_CART,
      trace: currentCartTrace('GetCurrentCart'),
    });
    return answer.cart;
  },

  /** `PATCH /v1/carts/current` {cartInfo, couponCode, merchantDiscounts, lineItems, customLineItems}. */
  updateCurrentCart:
    (transport: Transport) =>
    async (options: UpdateCartRequest = {}): Promise<Cart> => {
      const answer = await transport.request<CartResponse>({
        method: 'PATCH',
        path: '/v1/carts/current',
        mapping: CURRENT_CART,
        body: {
          cartInfo: options.cartInfo,
          couponCode: options.couponCode,
          merchantDiscounts: options.merchantDiscounts,
          lineItems: options.lineItems,
          customLineItems: options.customLineItems,
        },
        trace: currentCartTrace('UpdateCurrentCart'),
      });
      return answer.cart;
    },

  /** `POST /v1/carts/current/add-to-cart` {lineItems, customLineItems}: creates the cart if there is none. */
  addToCurrentCart:
    (transport: Transport) =>
    (options: AddToCartRequest = {}): Promise<CartResponse> =>
      cartChange(transport, '/add-to-cart', 'AddToCurrentCart', {
        lineItems: options.lineItems,
        customLineItems: options.customLineItems,
        businessLocationId: options.businessLocationId,
      }),

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
      transport.request<CreateCheckoutFromCartResponse>({
        method: 'POST',
        path: '/v1/carts/current/create-checkout',
        mapping: CURRENT_CART,
        body: {
          channelType: options.channelType,
          shippingAddress: options.shippingAddress,
          billingAddress: options.billingAddress,
          selectedShippingOption: options.selectedShippingOption,
          email: options.email,
        },
        trace: currentCartTrace('CreateCheckoutFromCurrentCart'),
      }),

  /** `POST /v1/carts/current/estimate-totals`: the cart with every total a checkout would show. */
  estimateCurrentCartTotals:
    (transport: Transport) =>
    (options: EstimateTotalsRequest = {}): Promise<EstimateTotalsResponse> =>
      transport.request<EstimateTotalsResponse>({
        method: 'POST',
        path: '/v1/carts/current/estimate-totals',
        mapping: CURRENT_CART,
        body: {
          selectedShippingOption: options.selectedShippingOption,
          shippingAddress: options.shippingAddress,
          billingAddress: options.billingAddress,
          selectedMemberships: options.selectedMemberships,
          calculateTax: options.calculateTax,
          calculateShipping: options.calculateShipping,
          calculateAdditionalFees: options.calculateAdditionalFees,
        },
        trace: currentCartTrace('EstimateCurrentCartTotals'),
      }),

  /** `DELETE /v1/carts/current`: the answer is not read. */
  deleteCurrentCart: (transport: Transport) => async (): Promise<void> => {
    await transport.request({
      method: 'DELETE',
      path: '/v1/carts/current',
      mapping: CURRENT_CART,
      trace: currentCartTrace('DeleteCurrentCart'),
    });
  },
} satisfies ModuleDefinition;

/** `POST /v1/carts/current<action>`, answered with `{cart}`. */
function cartChange(
  transport: Transport,
  action: string,
  traceName: string,
  body: Record<string, unknown>,
): Promise<CartResponse> {
  return transport.request<CartResponse>({
    method: 'POST',
    path: `/v1/carts/current${action}`,
    mapping: CURRENT_CART,
    body,
    trace: currentCartTrace(traceName),
  });
}
