import Type from 'typebox';
import { Id, Nullable, OneOf } from '../http/input.ts';

/** The hosted `subscriptionContracts` calls' inputs, and Cartwheel's own changes of a contract. */

const STATUS = OneOf(['ACTIVE', 'PAUSED', 'CANCELED', 'ENDED', 'PAYMENT_FAILED']);
const Eq = <T extends ReturnType<typeof Id> | typeof STATUS>(value: T) =>
  Type.Union([value, Type.Object({ $eq: value })]);

export const ContractPath = Type.Object({ subscriptionContractId: Id() });

/** A query as the hosted client sends it (GET with `.r`, or POST past its URL threshold). */
export const QueryContractsRequest = Type.Object({
  query: Type.Optional(
    Nullable(
      Type.Object({
        // the query filters on status and (staff) the buyer: anything else is refused rather than ignored
        filter: Type.Optional(
          Nullable(
            Type.Object({
              id: Type.Optional(Eq(Id())),
              status: Type.Optional(Eq(STATUS)),
              'buyerInfo.memberId': Type.Optional(Eq(Id())),
            }),
          ),
        ),
        cursorPaging: Type.Optional(
          Nullable(
            Type.Object({
              limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100 }))),
              // the cursor this query gave: the id the next page starts after
              cursor: Type.Optional(Nullable(Id())),
            }),
          ),
        ),
      }),
    ),
  ),
});

export const ChangeContractBody = Type.Object({});
