import Type from 'typebox';
import { Id, OneOf, Text, URL_MAX_LENGTH } from '../http/input.ts';

/** The webhook calls' inputs: types and sizes; where a URL points and which types exist are the service's to check. */

/** An event type's name (`wix.ecom.v1.order_created`): the longest the platform sends is well within. */
const EventTypes = Type.Array(Text(200), { maxItems: 100 });

export const CreateWebhookBody = Type.Object({
  webhook: Type.Object({
    url: Text(URL_MAX_LENGTH),
    eventTypes: EventTypes,
    /** `JWT` (default): the hosted platform's signed body; `STANDARD`: Standard Webhooks headers. */
    signature: Type.Optional(OneOf(['JWT', 'STANDARD'])),
  }),
});

export const UpdateWebhookBody = Type.Object({
  webhook: Type.Object({
    url: Type.Optional(Text(URL_MAX_LENGTH)),
    eventTypes: Type.Optional(EventTypes),
    status: Type.Optional(OneOf(['ACTIVE', 'PAUSED'])),
  }),
});

export const DeliveriesQuery = Type.Object({
  status: Type.Optional(OneOf(['PENDING', 'DELIVERED', 'DEAD'])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

export const DeliveryParams = Type.Object({ id: Id(), deliveryId: Id() });

/** Every delivery since an instant (ISO date-time), sent again. */
export const ReplayBody = Type.Object({ since: Text(40) });
