import Type from 'typebox';
import { DateText, OrNull } from '../http/responses.ts';

/** The saved views' answers (the SDK's `OrderView`, modules/cartwheel/order-admin.ts). */

export const OrderView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** The orders table's address parameters (`q`, `tag`, `from`, ...): whichever the back office keeps. */
  params: Type.Record(Type.String(), Type.String()),
  savedBy: OrNull(Type.String()),
  createdDate: DateText,
  updatedDate: DateText,
});

export const OrderViewsAnswer = Type.Object({ views: Type.Array(OrderView) });

export const OrderViewAnswer = Type.Object({ view: OrderView });
