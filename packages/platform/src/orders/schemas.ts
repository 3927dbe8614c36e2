import Type from 'typebox';
import { Id, OneOf, OpenObject, Text } from '../http/input.ts';
import { MAX_ORDERS_PAGE } from './service.ts';

/** The buyer's and the admin's order reads, as the hosted client sends them. */

export const OrderIdParams = Type.Object({ id: Id() });

/** The filter is checked field by field by the service (`compileFilter`); here only its size. */
const Filter = OpenObject(
  'compiled field by field by orders/search.ts, which names a field it does not filter on',
  {
    maxProperties: 50,
  },
);

export const SearchOrdersBody = Type.Object({
  search: Type.Optional(
    Type.Object({
      filter: Type.Optional(Filter),
      sort: Type.Optional(
        Type.Array(
          Type.Object({ fieldName: Type.Optional(Text(100)), order: Type.Optional(OneOf(['ASC', 'DESC'])) }),
          { maxItems: 3 },
        ),
      ),
      cursorPaging: Type.Optional(
        Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ORDERS_PAGE })),
          cursor: Type.Optional(Type.Union([Text(4096), Type.Null()])),
        }),
      ),
    }),
  ),
});

/** `createOrder`: the order is checked field by field by the service (`recordedOrder`); here only its shape. */
export const CreateOrderBody = Type.Object({
  order: Type.Record(Type.String(), Type.Unknown(), { maxProperties: 100 }),
  settings: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
});
