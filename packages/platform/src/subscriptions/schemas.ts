import Type from 'typebox';
import { Id, Nullable, OneOf, OpenObject, Text } from '../http/input.ts';

/** The hosted `subscriptionContracts` calls' inputs, and Cartwheel's own changes of a contract. */

export const ContractPath = Type.Object({ subscriptionContractId: Id() });

/**
 * A query as the hosted client sends it (GET with `.r`, or POST past its URL threshold): the hosted
 * fields `_id` and `buyerInfo.contactId` with any operator and either sort order, Cartwheel's own
 * `status` and (staff) `buyerInfo.memberId`; a cursor carries the query on.
 */
export const QueryContractsRequest = Type.Object({
  query: Type.Optional(
    Nullable(
      Type.Object({
        filter: Type.Optional(
          Nullable(
            OpenObject(
              'compiled field by field by subscriptions/service.ts, which names a field it does not filter on',
              { maxProperties: 10 },
            ),
          ),
        ),
        sort: Type.Optional(
          Type.Array(
            Type.Object({
              fieldName: Text(512),
              order: Type.Optional(OneOf(['ASC', 'DESC'])),
            }),
            { maxItems: 5 },
          ),
        ),
        cursorPaging: Type.Optional(
          Nullable(
            Type.Object({
              limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100 }))),
              // the cursor this query gave: it carries the query's filter, sort and where the page starts
              cursor: Type.Optional(Nullable(Text(16000))),
            }),
          ),
        ),
      }),
    ),
  ),
});

export const ChangeContractBody = Type.Object({});
