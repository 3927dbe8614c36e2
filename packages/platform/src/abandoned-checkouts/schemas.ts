import Type from 'typebox';
import { Id, Nullable, OneOf } from '../http/input.ts';

/** The hosted `abandonedCheckouts` calls' inputs. */

const STATUS = OneOf(['ABANDONED', 'RECOVERED']);

export const AbandonedCheckoutPath = Type.Object({ abandonedCheckoutId: Id() });

export const QueryAbandonedCheckoutsBody = Type.Object({
  query: Type.Optional(
    Type.Object({
      // the query filters on status: anything else is refused rather than ignored
      filter: Type.Optional(
        Type.Object({ status: Type.Optional(Type.Union([STATUS, Type.Object({ $eq: STATUS })])) }),
      ),
      cursorPaging: Type.Optional(
        Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          // the cursor this query gave: the id the next page starts after
          cursor: Type.Optional(Nullable(Id())),
        }),
      ),
    }),
  ),
});
