import type {
  AddActivitiesResponse,
  AddPaymentsResponse,
  AggregateOrdersResponse,
  BulkCreateFulfillmentsResponse,
  BulkUpdateOrdersResponse,
  BulkUpdateOrderTagsResponse,
  BulkUpdatePaymentStatusesResponse,
  CalculateRefundResponse,
  CartResponse,
  CheckoutResponse,
  CheckoutUrlResponse,
  CreateCheckoutFromCartResponse,
  CreateFulfillmentResponse,
  CreateOrderFromCheckoutResponse,
  EstimateTotalsResponse,
  GetOrderRefundabilityResponse,
  ListFulfillmentsForMultipleOrdersResponse,
  ListFulfillmentsForSingleOrderResponse,
  Order,
  OrdersTransactionsResponse,
  OrderTransactionsResponse,
  OrderView,
  PaymentCollectabilityStatusResponse,
  PreparePaymentCollectionResponse,
  RefundPaymentsResponse,
  SearchOrdersResponse,
} from '@cartwheel/sdk';
import type { Static, TSchema } from 'typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type * as billing from '../src/billing/responses.ts';
import type * as carts from '../src/carts/responses.ts';
import type * as checkouts from '../src/checkouts/responses.ts';
import type * as fulfillments from '../src/fulfillments/responses.ts';
import type * as orderViews from '../src/order-views/responses.ts';
import type * as orders from '../src/orders/responses.ts';
import type * as payments from '../src/payments/responses.ts';

/**
 * One contract per wire shape (issue 37): each response schema against the SDK type its answer is read
 * as, at compile time (`npm run typecheck` fails when they drift). Both sides are seen as the wire sees
 * them: dates and names of fixed lists as text.
 */
type Wire<T> = T extends Date
  ? string
  : T extends string
    ? string
    : T extends readonly (infer Item)[]
      ? Wire<Item>[]
      : T extends object
        ? { [Key in keyof T]: Wire<T[Key]> }
        : T;

/** The dotted paths of `Sdk`'s fields that `Schema` does not name (`never` when it names them all). */
type Unnamed<Sdk, Schema, Path extends string = ''> = unknown extends Schema
  ? never // a value the schema leaves open (any JSON) holds whatever the SDK names
  : Sdk extends readonly (infer Item)[]
    ? Schema extends readonly (infer Declared)[]
      ? Unnamed<Item, Declared, `${Path}[]`>
      : never
    : Sdk extends object
      ? {
          [Key in keyof Sdk & string]-?: Key extends keyof NonNullable<Schema>
            ? Unnamed<NonNullable<Sdk[Key]>, NonNullable<Schema>[Key], `${Path}.${Key}`>
            : `${Path}.${Key}`;
        }[keyof Sdk & string]
      : never;

/**
 * The dotted paths where a value the schema declares cannot be what the SDK reads there. A value the
 * schema leaves open (any JSON) clashes with nothing; fields the SDK does not read are not compared.
 */
type Clash<Answered, Read, Path extends string = ''> = unknown extends Answered
  ? never
  : [Answered] extends [Read]
    ? never
    : Answered extends readonly (infer Item)[]
      ? Read extends readonly (infer Expected)[]
        ? Clash<Item, Expected, `${Path}[]`>
        : Path
      : Answered extends object
        ? NonNullable<Read> extends object
          ? {
              [Key in keyof NonNullable<Read> & string]-?: Key extends keyof Answered
                ? Clash<
                    Exclude<Answered[Key], undefined>,
                    Exclude<NonNullable<Read>[Key], undefined>,
                    `${Path}.${Key}`
                  >
                : never;
            }[keyof NonNullable<Read> & string]
          : Path
        : Path;

/** `true` when a schema names every field of the SDK's type, each of a type the SDK reads; else where not. */
type Agrees<Sdk, Schema extends TSchema> = [Unnamed<Wire<Sdk>, Wire<Static<Schema>>>] extends [never]
  ? [Clash<Wire<Static<Schema>>, Wire<Sdk>>] extends [never]
    ? true
    : { clash: Clash<Wire<Static<Schema>>, Wire<Sdk>> }
  : { unnamed: Unnamed<Wire<Sdk>, Wire<Static<Schema>>> };

describe('response schemas and the SDK types agree', () => {
  it('carts and checkouts', () => {
    expectTypeOf<Agrees<CartResponse, typeof carts.CartAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<EstimateTotalsResponse, typeof carts.EstimateTotalsAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<CreateCheckoutFromCartResponse, typeof carts.CreateCheckoutAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<Agrees<CheckoutResponse, typeof checkouts.CheckoutAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<CreateOrderFromCheckoutResponse, typeof checkouts.CreateOrderAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<Agrees<CheckoutUrlResponse, typeof checkouts.CheckoutUrlAnswer>>().toEqualTypeOf<true>();
  });

  it('orders, their views and fulfillments', () => {
    expectTypeOf<Agrees<{ order: Order }, typeof orders.OrderAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<SearchOrdersResponse, typeof orders.SearchOrdersAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<BulkUpdateOrdersResponse, typeof orders.BulkUpdateOrdersAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<BulkUpdateOrderTagsResponse, typeof orders.BulkUpdateOrderTagsAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<Agrees<AddActivitiesResponse, typeof orders.AddActivitiesAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<AggregateOrdersResponse, typeof orders.AggregateOrdersAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<Agrees<{ views: OrderView[] }, typeof orderViews.OrderViewsAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<{ view: OrderView }, typeof orderViews.OrderViewAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<ListFulfillmentsForSingleOrderResponse, typeof fulfillments.OrderFulfillmentsAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<ListFulfillmentsForMultipleOrdersResponse, typeof fulfillments.OrdersFulfillmentsAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<CreateFulfillmentResponse, typeof fulfillments.CreateFulfillmentAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<BulkCreateFulfillmentsResponse, typeof fulfillments.BulkCreateFulfillmentsAnswer>
    >().toEqualTypeOf<true>();
  });

  it('payments and billing', () => {
    expectTypeOf<
      Agrees<OrderTransactionsResponse, typeof payments.OrderTransactionsAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<OrdersTransactionsResponse, typeof payments.OrdersTransactionsAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<OrderTransactionsResponse, typeof billing.OrderTransactionsAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<PreparePaymentCollectionResponse, typeof billing.PrepareCollectionAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<PaymentCollectabilityStatusResponse, typeof billing.CollectabilityAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<Agrees<AddPaymentsResponse, typeof billing.AddPaymentsAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<RefundPaymentsResponse, typeof billing.RefundPaymentsAnswer>>().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<GetOrderRefundabilityResponse, typeof billing.RefundabilityAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<CalculateRefundResponse, typeof billing.CalculateRefundAnswer>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Agrees<BulkUpdatePaymentStatusesResponse, typeof billing.BulkUpdatePaymentStatusesAnswer>
    >().toEqualTypeOf<true>();
  });
});
