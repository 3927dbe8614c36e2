import Type from 'typebox';
import {
  CatalogReferenceInput,
  Id,
  Ids,
  NotSupportedYet,
  Nullable,
  OneOf,
  OpenObject,
  PathIdCopy,
  Text,
  URL_MAX_LENGTH,
} from '../http/input.ts';

/** The hosted `backInStockNotifications` and `backInStockSettings` calls' inputs. */

export const RequestPath = Type.Object({ id: Id() });

/** The item as the shopper saw it: what the email names (`BackInStockItemDetails`). */
const ItemDetails = Type.Object({
  name: Text(500),
  price: Text(100),
  // the hosted client sends its image as the wire's Image; Cartwheel's email shows no picture
  image: Type.Optional(
    Nullable(
      Type.Object({
        id: Type.Optional(Text(500)),
        url: Type.Optional(Text(URL_MAX_LENGTH)),
        height: Type.Optional(Type.Number()),
        width: Type.Optional(Type.Number()),
        altText: Type.Optional(Nullable(Text(500))),
        filename: Type.Optional(Nullable(Text(500))),
      }),
    ),
  ),
});

export const CreateRequestBody = Type.Object({
  request: Type.Object({
    catalogReference: CatalogReferenceInput,
    email: Text(320),
    itemUrl: Type.Optional(Nullable(Text(URL_MAX_LENGTH))),
  }),
  itemDetails: ItemDetails,
});

const Sort = Type.Array(
  Type.Object({
    fieldName: Text(100),
    order: Type.Optional(OneOf(['ASC', 'DESC'])),
  }),
  { maxItems: 3 },
);

/** The hosted query: a filter the service reads field by field, a sort, and cursor or offset paging. */
export const QueryRequestsInput = Type.Object({
  query: Type.Optional(
    Type.Object({
      filter: Type.Optional(
        Nullable(
          OpenObject(
            'compiled field by field by back-in-stock/service.ts, which names a field it does not filter on',
            { maxProperties: 10 },
          ),
        ),
      ),
      sort: Type.Optional(Sort),
      cursorPaging: Type.Optional(
        Type.Object({
          limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100 }))),
          // the cursor this query gave: it carries the query's filter, sort and where the page starts
          cursor: Type.Optional(Nullable(Text(16000))),
        }),
      ),
      paging: Type.Optional(
        Type.Object({
          limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100 }))),
          offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
        }),
      ),
    }),
  ),
});

export const CountByCatalogReferencesInput = Type.Object({
  catalogReferences: Type.Array(CatalogReferenceInput, { minItems: 1, maxItems: 100 }),
});

export const MarkAsSentBody = Type.Object({ id: PathIdCopy() });

export const ReportItemsBackInStockBody = Type.Object({
  catalogReference: Type.Optional(CatalogReferenceInput),
  requestIds: Type.Optional(Ids(100)),
  itemDetails: ItemDetails,
  // Cartwheel's email is its own template, with no automation to hand parameters to
  extraAutomationTemplateParameters: NotSupportedYet(),
});

export const GetSettingsBody = Type.Object({});
export const CollectingBody = Type.Object({ appId: Text(100) });
