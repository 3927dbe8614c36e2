import Type from 'typebox';
import { Choice, CursorPagingAnswer, Empty, Open } from '../http/responses-identity.ts';

/** What the hosted `backInStockNotifications` and `backInStockSettings` calls answer. */

const CatalogReference = Type.Object({
  catalogItemId: Type.String(),
  appId: Type.String(),
  options: Type.Optional(Type.Union([Open({}), Type.Null()])),
});

const Request = Type.Object({
  id: Type.String(),
  catalogReference: CatalogReference,
  email: Type.String(),
  contactId: Type.Optional(Type.String()),
  status: Choice(['RECEIVED', 'PROCESSING', 'NOTIFICATION_SENT', 'FAILED']),
  autoNotified: Type.Optional(Type.Boolean()),
  createdDate: Type.String(),
  itemUrl: Type.Optional(Type.String()),
  /** Cartwheel's: why the last notification failed, while FAILED. */
  failureReason: Type.Optional(Type.String()),
});

export const RequestAnswer = Type.Object({ request: Request });
export const RequestsPageAnswer = Type.Object({
  requests: Type.Array(Request),
  metadata: CursorPagingAnswer,
});
export const CountsAnswer = Type.Object({
  countsPerCatalogReference: Type.Array(
    Type.Object({ catalogReference: CatalogReference, count: Type.Number() }),
  ),
});
export const SettingsAnswer = Type.Object({
  settings: Type.Object({
    collectionStates: Type.Array(Type.Object({ appId: Type.String(), collectingRequests: Type.Boolean() })),
  }),
});
export { Empty };
