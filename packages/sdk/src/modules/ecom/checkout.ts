import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { LineItemQuantityUpdate } from '../../types/ecom-cart.ts';
import type {
  AddToCheckoutOptions,
  Checkout,
  CheckoutResponse,
  CheckoutUpdate,
  CheckoutUrlResponse,
  CreateCheckoutOptions,
  CreateOrderFromCheckoutOptions,
  CreateOrderFromCheckoutResponse,
  MarkCheckoutAsCompletedOptions,
  UpdateCheckoutOptions,
} from '../../types/ecom-checkout.ts';
import { segment } from '../stores/domains.ts';
import { addressesOnWire, CHECKOUT_ADDRESSES } from './addresses.ts';
import { CHECKOUTS, ecomService, pick } from './domains.ts';

const call = ecomService(CHECKOUTS, 'checkout.v1.CheckoutService', 'checkout');

/** `GET /v1/checkouts<under>/{id}<action>?id={id}`: the hosted client repeats the path id in the query. */
const checkoutRead = <T>(
  transport: Transport,
  under: string,
  id: string,
  action: string,
  traceName: string,
) => call<T>(transport, 'GET', `/v1/checkouts${under}/${segment(id)}${action}`, traceName, undefined, { id });

/** `POST /v1/checkouts/{id}<action>` {id, ...}: the hosted client repeats the path id first in the body. */
const checkoutChange = <T = CheckoutResponse>(
  transport: Transport,
  id: string,
  action: string,
  traceName: string,
  fields: Record<string, unknown> = {},
): Promise<T> =>
  call<T>(transport, 'POST', `/v1/checkouts/${segment(id)}${action}`, traceName, { id, ...fields });

/**
 * Checkouts (point 3): the buyer's details, addresses, delivery and coupon on the way to an order.
 * Names, arguments and answers are the hosted client's: `getCheckout`, `createCheckout` and
 * `updateCheckout` answer the checkout itself; line and coupon changes answer `{checkout}`;
 * `createOrder` answers `{orderId, ...}`. Addresses go out as the hosted client sends them.
 */
export const checkout = {
  /** `GET /v1/checkouts/{id}?id={id}`. */
  getCheckout:
    (transport: Transport) =>
    async (id: string): Promise<Checkout> =>
      (await checkoutRead<CheckoutResponse>(transport, '', id, '', 'GetCheckout')).checkout,

  /** `GET /v1/checkouts/by-cart-id/{id}?id={id}`: the checkout last created from a cart, as `{checkout}`. */
  getCheckoutByCartId:
    (transport: Transport) =>
    (id: string): Promise<CheckoutResponse> =>
      checkoutRead(transport, '/by-cart-id', id, '', 'GetCheckoutByCartId'),

  /** `POST /v1/checkouts` {checkoutInfo, couponCode, lineItems, customLineItems, channelType, ...}. */
  createCheckout:
    (transport: Transport) =>
    async (options: CreateCheckoutOptions): Promise<Checkout> =>
      (
        await call<CheckoutResponse>(transport, 'POST', '/v1/checkouts', 'CreateCheckout', {
          checkoutInfo: addressesOnWire(options?.checkoutInfo, CHECKOUT_ADDRESSES),
          ...pick(options, [
            'couponCode',
            'lineItems',
            'customLineItems',
            'channelType',
            'giftCardCode',
            'overrideCheckoutUrl',
            'giftCardRedeemAmount',
          ]),
        })
      ).checkout,

  /**
   * `PATCH /v1/checkouts/{id}` {checkout: {..., id}, couponCode, ...}: buyer info, billing and shipping
   * addresses, the selected carrier option; a coupon or lines beside it. Re-prices the checkout.
   */
  updateCheckout:
    (transport: Transport) =>
    async (id: string, fields: CheckoutUpdate, options?: UpdateCheckoutOptions): Promise<Checkout> =>
      (
        await call<CheckoutResponse>(transport, 'PATCH', `/v1/checkouts/${segment(id)}`, 'UpdateCheckout', {
          checkout: addressesOnWire({ ...fields, id }, CHECKOUT_ADDRESSES),
          ...pick(options, [
            'couponCode',
            'giftCardCode',
            'overrideCheckoutUrl',
            'lineItems',
            'customLineItems',
            'giftCardRedeemAmount',
          ]),
        })
      ).checkout,

  /** `POST /v1/checkouts/{id}/add-to-checkout` {id, lineItems, customLineItems}. */
  addToCheckout:
    (transport: Transport) =>
    (id: string, options?: AddToCheckoutOptions): Promise<CheckoutResponse> =>
      checkoutChange(
        transport,
        id,
        '/add-to-checkout',
        'AddToCheckout',
        pick(options, ['lineItems', 'customLineItems']),
      ),

  /** `POST /v1/checkouts/{id}/remove-line-items` {id, lineItemIds}. */
  removeLineItems:
    (transport: Transport) =>
    (id: string, lineItemIds: string[]): Promise<CheckoutResponse> =>
      checkoutChange(transport, id, '/remove-line-items', 'RemoveLineItems', { lineItemIds }),

  /** `POST /v1/checkouts/{id}/update-line-items-quantity` {id, lineItems: [{id, quantity}]}. */
  updateLineItemsQuantity:
    (transport: Transport) =>
    (id: string, lineItems: LineItemQuantityUpdate[]): Promise<CheckoutResponse> =>
      checkoutChange(transport, id, '/update-line-items-quantity', 'UpdateLineItemsQuantity', { lineItems }),

  /** `POST /v1/checkouts/{id}/remove-coupon` {id}. */
  removeCoupon:
    (transport: Transport) =>
    (id: string): Promise<CheckoutResponse> =>
      checkoutChange(transport, id, '/remove-coupon', 'RemoveCoupon'),

  /**
   * `POST /v1/checkouts/{id}/create-order` {id, savePaymentMethod, delayCapture}: answers the order's
   * id; a total above 0 also answers the payment to collect (`paymentGatewayOrderId`).
   */
  createOrder:
    (transport: Transport) =>
    (id: string, options?: CreateOrderFromCheckoutOptions): Promise<CreateOrderFromCheckoutResponse> =>
      checkoutChange(
        transport,
        id,
        '/create-order',
        'CreateOrder',
        pick(options, ['savePaymentMethod', 'delayCapture']),
      ),

  /** `GET /v1/checkouts/{id}/checkout-url?id={id}`: `{checkoutUrl}`, the page where the buyer pays. */
  getCheckoutUrl:
    (transport: Transport) =>
    (id: string): Promise<CheckoutUrlResponse> =>
      checkoutRead(transport, '', id, '/checkout-url', 'GetCheckoutURL'),

  /** `POST /v1/checkouts/{id}/mark-as-completed` {id, orderId}: the answer is not read. */
  markCheckoutAsCompleted:
    (transport: Transport) =>
    async (id: string, options?: MarkCheckoutAsCompletedOptions): Promise<void> => {
      await checkoutChange(
        transport,
        id,
        '/mark-as-completed',
        'MarkCheckoutAsCompleted',
        pick(options, ['orderId']),
      );
    },
} satisfies ModuleDefinition;
