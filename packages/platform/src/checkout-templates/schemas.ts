import Type from 'typebox';
import { CatalogLineInput, CustomLineInput } from '../carts/schemas.ts';
import { Id, Nullable, OneOf, PathIdCopy, Text } from '../http/input.ts';
import { MAX_LINES } from '../pricing/line-limits.ts';

/** The hosted `checkoutTemplates` calls' inputs; the lines are the cart's own line inputs. */

const STATUS = OneOf(['ACTIVE', 'INACTIVE']);
const Flag = Type.Optional(Type.Boolean());
const AppReference = (field: string) =>
  Type.Optional(Type.Object({ appId: Text(200), [field]: Type.Optional(Text(200)) }));

const TemplateFields = {
  status: Type.Optional(STATUS),
  customization: Type.Optional(
    Type.Object({
      webClient: Type.Optional(
        Type.Object({ disabledContinueShoppingButton: Flag, disabledPolicyAgreementCheckbox: Flag }),
      ),
      lockedGiftCard: Flag,
      lockedCoupon: Flag,
      disabledManualPayment: Flag,
    }),
  ),
  lineItems: Type.Optional(Type.Array(CatalogLineInput, { maxItems: MAX_LINES })),
  customLineItems: Type.Optional(Type.Array(CustomLineInput, { maxItems: MAX_LINES })),
  couponCode: Type.Optional(Nullable(Text(100))),
  customContentReference: AppReference('componentId'),
  externalReference: AppReference('resourceId'),
};

export const CreateCheckoutTemplateBody = Type.Object({
  checkoutTemplate: Type.Object({ ...TemplateFields, id: PathIdCopy() }),
});
export const UpdateCheckoutTemplateBody = Type.Object({
  checkoutTemplate: Type.Object({ ...TemplateFields, id: PathIdCopy() }),
});

export const TemplatePath = Type.Object({ id: Id() });
export const UsePath = Type.Object({ checkoutTemplateId: Id() });
/** The hosted client sends the path's id again and the site's id: the site is this store. */
export const UseBody = Type.Object({
  checkoutTemplateId: PathIdCopy(),
  siteId: Type.Optional(Text(200)),
});
export const UseQuery = Type.Object({
  checkoutTemplateId: PathIdCopy(),
  siteId: Type.Optional(Text(200)),
});

export const QueryCheckoutTemplatesBody = Type.Object({
  query: Type.Optional(
    Type.Object({
      // the hosted query filters on status (and id): anything else is refused rather than ignored
      filter: Type.Optional(
        Type.Object({
          status: Type.Optional(Type.Union([STATUS, Type.Object({ $eq: STATUS })])),
        }),
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
