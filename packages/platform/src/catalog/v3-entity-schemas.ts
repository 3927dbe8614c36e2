import Type, { type Static, type TSchema } from 'typebox';
import { Id, Ids, Ignored, NotSupportedYet, Nullable, OneOf, PathIdCopy, Text } from '../http/input.ts';
import { PRODUCT_TEXT } from './limits.ts';
import { QueryFilter } from './schemas.ts';
import { RichContentInput } from './v3-rich-content.ts';
import { CursorQuery, V3_READ_BACK } from './v3-schemas.ts';

/**
 * The inputs of the v3 brands, ribbons, info sections and customizations calls, as the hosted
 * `brandsV3`, `ribbonsV3`, `infoSectionsV3` and `customizationsV3` modules send them (v3-entities.ts).
 */

const computed = () => Type.Optional(Ignored(V3_READ_BACK));

/** What every entity carries that the platform keeps itself. */
const common = {
  id: PathIdCopy(),
  revision: Type.Optional(Nullable(Text(20))),
  createdDate: computed(),
  updatedDate: computed(),
};

export const BrandInput = Type.Object({
  ...common,
  name: Type.Optional(Text(PRODUCT_TEXT.brand)),
  assignedProductsCount: computed(),
});

export const RibbonInput = Type.Object({
  ...common,
  name: Type.Optional(Text(PRODUCT_TEXT.ribbon)),
  assignedProductCount: computed(),
});

export const InfoSectionInput = Type.Object({
  ...common,
  uniqueName: Type.Optional(Text(100)),
  title: Type.Optional(Text(50)),
  /** Kept as the text it is: Cartwheel shows it as written; ignored beside a `description`. */
  plainDescription: Type.Optional(Nullable(Text(16_000))),
  /** The rich-content document (v3-rich-content.ts), kept as given; its text is the plain description. */
  description: Type.Optional(Nullable(RichContentInput)),
  assignedProductsCount: computed(),
});

/** A decimal amount added to the price (`"2.50"`). */
const AddedPrice = Type.Optional(Nullable(Text(20)));

export const ChoiceInput = Type.Object({
  id: Type.Optional(Id()),
  choiceType: Type.Optional(OneOf(['CHOICE_TEXT', 'ONE_COLOR'])),
  name: Type.Optional(Text(50)),
  colorCode: Type.Optional(Text(20)),
  defaultAddedPrice: AddedPrice,
  key: computed(),
  displayImage: NotSupportedYet(),
  primaryChoiceIds: NotSupportedYet(),
});
export type CustomizationChoiceInput = Static<typeof ChoiceInput>;

const MAX_CHOICES = 1000;

export const CustomizationInput = Type.Object({
  ...common,
  name: Type.Optional(Text(50)),
  customizationType: Type.Optional(OneOf(['PRODUCT_OPTION', 'MODIFIER'])),
  customizationRenderType: Type.Optional(OneOf(['FREE_TEXT', 'TEXT_CHOICES', 'SWATCH_CHOICES'])),
  freeTextInput: Type.Optional(
    Type.Object({
      minCharCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 500 })),
      maxCharCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 500 })),
      defaultAddedPrice: AddedPrice,
      title: Type.Optional(Text(100)),
      key: computed(),
    }),
  ),
  choicesSettings: Type.Optional(
    Type.Object({ choices: Type.Optional(Type.Array(ChoiceInput, { maxItems: MAX_CHOICES })) }),
  ),
  key: computed(),
  assignedProductsCount: computed(),
});

export type BrandInput = Static<typeof BrandInput>;
export type RibbonInput = Static<typeof RibbonInput>;
export type InfoSectionInput = Static<typeof InfoSectionInput>;
export type CustomizationInput = Static<typeof CustomizationInput>;

/** `fields`: a list in a body, one value or several in a query string. */
const EntityFields = (values: readonly string[]) =>
  Type.Optional(Type.Union([Type.Array(OneOf(values), { maxItems: 10 }), OneOf(values)]));
export type EntityFieldsInput = string | string[] | undefined;

/** Why a bulk update's `fieldMask` is taken and not read. */
export const FIELD_MASK = 'an update writes the fields it names';

/** Entities one bulk call writes (the hosted limit). */
export const MAX_BULK_ENTITIES = 100;

/** Every call's inputs of one kind, from its entity schema, its wire keys and what reads may add. */
export function entitySchemas<S extends TSchema>(
  entity: S,
  one: string,
  many: string,
  idName: string,
  fields: readonly string[],
) {
  const Fields = EntityFields(fields);
  return {
    path: Type.Object({ [idName]: Id() }),
    fieldsQuery: Type.Object({ fields: Fields }),
    create: Type.Object({ [one]: entity, fields: Fields }),
    update: Type.Object({ [one]: entity, fields: Fields }),
    query: Type.Object({ query: Type.Optional(Nullable(CursorQuery)), fields: Fields }),
    count: Type.Object({ filter: Type.Optional(Nullable(QueryFilter)) }),
    bulkCreate: Type.Object({
      [many]: Type.Array(entity, { minItems: 1, maxItems: MAX_BULK_ENTITIES }),
      returnEntity: Type.Optional(Type.Boolean()),
      fields: Fields,
    }),
    bulkUpdate: Type.Object({
      [many]: Type.Array(
        Type.Object({
          [one]: entity,
          fieldMask: Type.Optional(Ignored(FIELD_MASK)),
        }),
        { minItems: 1, maxItems: MAX_BULK_ENTITIES },
      ),
      returnEntity: Type.Optional(Type.Boolean()),
      fields: Fields,
    }),
    bulkDelete: Type.Object({ [`${idName}s`]: Ids(MAX_BULK_ENTITIES) }),
  };
}

/** Brands' and ribbons' get-or-create by name, one (`brandName`) and many (`brandNames`). */
export function getOrCreateSchemas(nameKey: string, fields: readonly string[], maxLength: number) {
  const Name = Type.String({ minLength: 1, maxLength });
  const Fields = EntityFields(fields);
  return {
    GetOrCreate: Type.Object({ [nameKey]: Name, fields: Fields }),
    BulkGetOrCreate: Type.Object({
      [`${nameKey}s`]: Type.Array(Name, { minItems: 1, maxItems: MAX_BULK_ENTITIES }),
      fields: Fields,
    }),
  };
}

/** A customization's choice calls (`add-choices`, `set-choices`, ...; v3-customization-choices.ts). */
export function customizationChoiceSchemas(fields: readonly string[]) {
  const Fields = EntityFields(fields);
  const Choices = (maxItems: number) => Type.Array(ChoiceInput, { minItems: 1, maxItems });
  const ChoiceIds = (maxItems: number) => Type.Array(Id(), { minItems: 1, maxItems });
  return {
    path: Type.Object({ customizationId: Id() }),
    add: Type.Object({ customizationId: PathIdCopy(), choices: Choices(MAX_CHOICES), fields: Fields }),
    set: Type.Object({ customizationId: PathIdCopy(), choices: Choices(MAX_CHOICES), fields: Fields }),
    remove: Type.Object({
      customizationId: PathIdCopy(),
      choiceIds: ChoiceIds(100),
      revision: Type.Optional(Text(20)),
      fields: Fields,
    }),
    update: Type.Object({
      customizationId: PathIdCopy(),
      revision: Text(20),
      choices: Type.Array(Type.Object({ choice: ChoiceInput }), { minItems: 1, maxItems: 100 }),
      fields: Fields,
    }),
    reorder: Type.Object({
      customizationId: PathIdCopy(),
      revision: Text(20),
      choiceIds: ChoiceIds(MAX_CHOICES),
      fields: Fields,
    }),
    bulkAdd: Type.Object({
      customizationsChoices: Type.Array(Type.Object({ customizationId: Id(), choices: Choices(100) }), {
        minItems: 1,
        maxItems: MAX_CHOICES,
      }),
      returnEntity: Type.Optional(Type.Boolean()),
      fields: Fields,
    }),
  };
}
