import { newId } from '../shared/ids.ts';
import type { QueryFields, SortSpec } from './query.ts';
import type { CatalogEntityKind } from './tables.ts';
import type { EntityValues } from './v3-entity-rows.ts';
import type {
  BrandInput,
  CustomizationChoiceInput,
  CustomizationInput,
  InfoSectionInput,
  RibbonInput,
} from './v3-entity-schemas.ts';
import { checkRichContent, plainDescriptionOf } from './v3-rich-content.ts';
import type { Violations } from './validation.ts';

/**
 * What each kind of v3 catalog entity is: its wire names, what its queries filter and sort on (the
 * columns of `catalog_entities e`), and how a create or an update makes its values (`apply`; an
 * update names only what it changes). v3-entities.ts serves every kind through these.
 */
export interface EntityKind {
  kind: CatalogEntityKind;
  /** The wire's key of one entity (`brand`, `infoSection`) and of a page (`brands`). */
  one: string;
  many: string;
  /** The path's segment (`info-sections`) and its id's name (`infoSectionId`). */
  path: string;
  idName: string;
  /** How its operations are named (`getBrandV3`, `queryBrandsV3`): the hosted methods'. */
  operation: { one: string; many: string };
  /** What `fields` may ask for. */
  requestedFields: readonly string[];
  /** The requested field that adds the products count. */
  countRequest: string;
  fields: QueryFields;
  sort: SortSpec;
  /** Whether the hosted module has get-or-create calls by name. */
  getOrCreate: boolean;
  /** Whether it has a bulk delete (customizations have none). */
  bulkDelete: boolean;
  /** Where a bulk result carries the entity: `item`, but customizations' under `customization`. */
  bulkItemKey: string;
  apply(
    v: Violations,
    input: Record<string, unknown>,
    previous: EntityValues | undefined,
    at: string,
  ): EntityValues;
}

const dates: QueryFields = {
  id: { column: 'e.id', kind: 'string' },
  createdDate: { column: 'e.created_date', kind: 'date' },
  updatedDate: { column: 'e.updated_date', kind: 'date' },
};
const dateSort: SortSpec = { createdDate: 'e.created_date', updatedDate: 'e.updated_date' };

const nothing = (name: string): EntityValues => ({
  name,
  uniqueKey: null,
  uniqueName: null,
  type: null,
  renderType: null,
  doc: {},
});

/** A brand's or ribbon's name: required on create, never only spaces; unique within its kind. */
function applyName(
  v: Violations,
  input: { name?: string },
  previous: EntityValues | undefined,
  at: string,
): EntityValues {
  const values = previous ? { ...previous } : nothing('');
  if (!previous || input.name !== undefined) {
    const name = v.requiredText(input.name, `${at}.name`);
    if (name !== undefined) {
      values.name = name.trim();
      values.uniqueKey = values.name;
    }
  }
  return values;
}

const NAMED_FIELDS: QueryFields = {
  ...dates,
  name: { column: 'e.name', kind: 'string', lowerColumn: 'e.name_lower' },
};
const NAMED_SORT: SortSpec = { ...dateSort, name: 'e.name_lower' };

export const BRANDS: EntityKind = {
  kind: 'brand',
  one: 'brand',
  many: 'brands',
  path: 'brands',
  idName: 'brandId',
  operation: { one: 'Brand', many: 'Brands' },
  requestedFields: ['ASSIGNED_PRODUCTS_COUNT'],
  countRequest: 'ASSIGNED_PRODUCTS_COUNT',
  fields: NAMED_FIELDS,
  sort: NAMED_SORT,
  getOrCreate: true,
  bulkDelete: true,
  bulkItemKey: 'item',
  apply: (v, input, previous, at) => applyName(v, input as BrandInput, previous, at),
};

export const RIBBONS: EntityKind = {
  ...BRANDS,
  kind: 'ribbon',
  one: 'ribbon',
  many: 'ribbons',
  path: 'ribbons',
  idName: 'ribbonId',
  operation: { one: 'Ribbon', many: 'Ribbons' },
  requestedFields: ['ASSIGNED_PRODUCT_COUNT'],
  countRequest: 'ASSIGNED_PRODUCT_COUNT',
  apply: (v, input, previous, at) => applyName(v, input as RibbonInput, previous, at),
};

export const INFO_SECTIONS: EntityKind = {
  kind: 'infoSection',
  one: 'infoSection',
  many: 'infoSections',
  path: 'info-sections',
  idName: 'infoSectionId',
  operation: { one: 'InfoSection', many: 'InfoSections' },
  requestedFields: ['ASSIGNED_PRODUCTS_COUNT'],
  countRequest: 'ASSIGNED_PRODUCTS_COUNT',
  fields: {
    ...dates,
    title: { column: 'e.name', kind: 'string', lowerColumn: 'e.name_lower' },
    uniqueName: { column: 'e.unique_name', kind: 'string' },
  },
  sort: { ...dateSort, title: 'e.name_lower', uniqueName: 'e.unique_name' },
  getOrCreate: false,
  bulkDelete: true,
  bulkItemKey: 'item',
  apply(v, raw, previous, at) {
    const input = raw as InfoSectionInput;
    const values = previous ? { ...previous, doc: { ...previous.doc } } : nothing('');
    if (!previous || input.uniqueName !== undefined) {
      const uniqueName = v.requiredText(input.uniqueName, `${at}.uniqueName`);
      if (uniqueName !== undefined) {
        values.uniqueName = uniqueName.trim();
        values.uniqueKey = values.uniqueName;
      }
    }
    if (!previous || input.title !== undefined) {
      const title = v.requiredText(input.title, `${at}.title`);
      if (title !== undefined) values.name = title.trim();
    }
    if (input.description) {
      // the hosted rule: a description given makes the plain one, which is then ignored
      if (checkRichContent(v, input.description, `${at}.description`)) {
        values.doc.description = input.description;
        values.doc.plainDescription = plainDescriptionOf(input.description);
      }
    } else if (input.description === null || input.plainDescription !== undefined) {
      // a plain description alone: the document is its text, made when read
      delete values.doc.description;
      if (input.plainDescription !== undefined) values.doc.plainDescription = input.plainDescription ?? '';
    }
    return values;
  },
};

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const AMOUNT = /^\d{1,9}(\.\d{1,3})?$/;

export const CUSTOMIZATIONS: EntityKind = {
  kind: 'customization',
  one: 'customization',
  many: 'customizations',
  path: 'customizations',
  idName: 'customizationId',
  operation: { one: 'Customization', many: 'Customizations' },
  requestedFields: ['ASSIGNED_PRODUCTS_COUNT', 'CHOICE_DISPLAY_IMAGE'],
  countRequest: 'ASSIGNED_PRODUCTS_COUNT',
  fields: {
    ...dates,
    name: { column: 'e.name', kind: 'string', lowerColumn: 'e.name_lower' },
    customizationType: { column: 'e.type', kind: 'enum', values: ['PRODUCT_OPTION', 'MODIFIER'] },
    customizationRenderType: {
      column: 'e.render_type',
      kind: 'enum',
      values: ['FREE_TEXT', 'TEXT_CHOICES', 'SWATCH_CHOICES'],
    },
  },
  sort: { ...dateSort, id: 'e.id', name: 'e.name_lower' },
  getOrCreate: false,
  bulkDelete: false,
  bulkItemKey: 'customization',
  apply(v, raw, previous, at) {
    const input = raw as CustomizationInput;
    const values = previous ? { ...previous, doc: { ...previous.doc } } : nothing('');
    if (!previous || input.name !== undefined) {
      const name = v.requiredText(input.name, `${at}.name`);
      if (name !== undefined) values.name = name.trim();
    }
    // type and render type are set once (the hosted `@immutable`)
    for (const [key, column] of [
      ['customizationType', 'type'],
      ['customizationRenderType', 'renderType'],
    ] as const) {
      const given = input[key];
      if (!previous && given === undefined) v.add(`${at}.${key}`, 'is required', 'REQUIRED_FIELD');
      else if (previous && given !== undefined && given !== previous[column])
        v.add(`${at}.${key}`, 'cannot change once the customization is made', 'VALIDATION');
      else if (given !== undefined) values[column] = given;
    }
    const render = values.renderType;
    if (render === 'FREE_TEXT') {
      if (input.choicesSettings !== undefined)
        v.add(`${at}.choicesSettings`, 'a FREE_TEXT customization has no choices', 'VALIDATION');
      if (input.freeTextInput !== undefined || !previous) {
        const free = input.freeTextInput;
        const title = v.requiredText(free?.title, `${at}.freeTextInput.title`);
        const min = free?.minCharCount ?? 0;
        const max = free?.maxCharCount ?? 500;
        if (min > max)
          v.add(`${at}.freeTextInput.minCharCount`, 'must be at most maxCharCount', 'VALIDATION');
        const added = addedPrice(v, free?.defaultAddedPrice, `${at}.freeTextInput.defaultAddedPrice`);
        values.doc.freeTextInput = {
          minCharCount: min,
          maxCharCount: max,
          title: title?.trim() ?? '',
          key: title?.trim() ?? '',
          ...(added !== undefined ? { defaultAddedPrice: added } : {}),
        };
      }
    } else if (render) {
      if (input.freeTextInput !== undefined)
        v.add(`${at}.freeTextInput`, `a ${render} customization has choices, not free text`, 'VALIDATION');
      if (input.choicesSettings !== undefined || !previous) {
        const before =
          (previous?.doc.choicesSettings as { choices?: StoredChoice[] } | undefined)?.choices ?? [];
        values.doc.choicesSettings = {
          choices: choicesOf(
            v,
            input.choicesSettings?.choices ?? [],
            render,
            before,
            `${at}.choicesSettings.choices`,
          ),
        };
      }
    }
    return values;
  },
};

/** A customization's choice as its row keeps it. */
export interface StoredChoice {
  id: string;
  choiceType: string;
  key: string;
  name: string;
  colorCode?: string;
  defaultAddedPrice?: string;
}

/** A choice list: at least one, names distinct, each of the render type's choice type; ids kept by name. */
function choicesOf(
  v: Violations,
  inputs: CustomizationChoiceInput[],
  render: string,
  before: StoredChoice[],
  at: string,
): StoredChoice[] {
  if (inputs.length === 0) v.add(at, 'needs at least one choice', 'MIN_SIZE');
  const swatch = render === 'SWATCH_CHOICES';
  const type = swatch ? 'ONE_COLOR' : 'CHOICE_TEXT';
  const names = new Set<string>();
  return inputs.flatMap((input, index) => {
    const path = `${at}[${index}]`;
    const name = v.requiredText(input.name, `${path}.name`)?.trim();
    if (input.choiceType !== undefined && input.choiceType !== type)
      v.add(`${path}.choiceType`, `must be ${type} in a ${render} customization`, 'VALIDATION');
    if (swatch && !COLOR.test(input.colorCode ?? ''))
      v.add(`${path}.colorCode`, 'a swatch choice needs a color as #rrggbb', 'FORMAT');
    const added = addedPrice(v, input.defaultAddedPrice, `${path}.defaultAddedPrice`);
    if (name === undefined) return [];
    if (names.has(name.toLowerCase())) v.add(`${path}.name`, 'names another choice too', 'VALIDATION');
    names.add(name.toLowerCase());
    const kept = before.find((choice) => (input.id ? choice.id === input.id : choice.name === name));
    return [
      {
        id: kept?.id ?? input.id ?? newId(),
        choiceType: type,
        key: name,
        name,
        ...(swatch ? { colorCode: input.colorCode ?? '' } : {}),
        ...(added !== undefined ? { defaultAddedPrice: added } : {}),
      },
    ];
  });
}

function addedPrice(v: Violations, text: string | null | undefined, path: string): string | undefined {
  if (text === undefined || text === null || text === '') return undefined;
  if (!AMOUNT.test(text.trim())) {
    v.add(path, 'must be a decimal amount of zero or more, like "2.50"', 'FORMAT');
    return undefined;
  }
  return String(Number(text));
}

export const ENTITY_KINDS = [BRANDS, RIBBONS, INFO_SECTIONS, CUSTOMIZATIONS] as const;
