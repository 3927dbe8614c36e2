import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { BrandV3, ChoiceV3, CustomizationV3, InfoSectionV3, RibbonV3 } from '../../types/catalog-v3.ts';
import type { CursorPagingMetadata, CursorQuery } from '../../types/paging.ts';
import type { BulkItemResult, BulkResult, CursorPage } from './catalog-v3.ts';
import { CATALOG_V3, catalogTrace, segment } from './domains.ts';

/**
 * What v3 products point at: brands, ribbons, info sections and customizations, the calls of the
 * hosted `brandsV3`, `ribbonsV3`, `infoSectionsV3` and `customizationsV3` modules. Each kind has the
 * same calls at its own path, so one set of calls (`entityCalls`) serves the four under their hosted
 * names. Updates name the `revision` they read (a stale one fails with 409 `REVISION_MISMATCH`).
 */

/** What a read may add: the products count (`ASSIGNED_PRODUCTS_COUNT`, ribbons' `ASSIGNED_PRODUCT_COUNT`). */
export interface EntityV3Options {
  fields?: string[];
}

interface EntityWire {
  /** The wire's key of one (`infoSection`) and of many (`infoSections`). */
  one: string;
  many: string;
  /** The path's segment (`info-sections`). */
  path: string;
  /** How the trace names the entity and the hosted service. */
  entity: 'brand' | 'ribbon' | 'info_section' | 'customization';
  service: string;
  /** Ribbons are queried by POST only; the others by GET, POST past the URL limit. */
  queryByPost?: boolean;
}

const page = (value: CursorQuery | undefined) => (value && Object.keys(value).length > 0 ? value : undefined);

function entityCalls<T extends { id?: string | null }, Bulk = BulkResult<T>>(wire: EntityWire) {
  const trace = (method: string) => catalogTrace(`v3.${wire.service}.${method}`, wire.entity);
  const base = `/v3/${wire.path}`;
  const bulk = `/v3/bulk/${wire.path}`;
  return {
    get:
      (transport: Transport) =>
      async (id: string, options: EntityV3Options = {}): Promise<T> => {
        const answer = await transport.request<Record<string, T>>({
          method: 'GET',
          path: `${base}/${segment(id)}`,
          mapping: CATALOG_V3,
          params: { fields: options.fields },
          trace: trace('Get'),
        });
        return answer[wire.one] as T;
      },
    create:
      (transport: Transport) =>
      async (entity: T, options: EntityV3Options = {}): Promise<T> => {
        const answer = await transport.request<Record<string, T>>({
          method: 'POST',
          path: base,
          mapping: CATALOG_V3,
          body: { [wire.one]: entity, fields: options.fields },
          trace: trace('Create'),
        });
        return answer[wire.one] as T;
      },
    update:
      (transport: Transport) =>
      async (
        id: string,
        entity: T & { revision?: string | null },
        options: EntityV3Options = {},
      ): Promise<T> => {
        const answer = await transport.request<Record<string, T>>({
          method: 'PATCH',
          path: `${base}/${segment(id)}`,
          mapping: CATALOG_V3,
          body: { [wire.one]: { ...entity, id }, fields: options.fields },
          trace: trace('Update'),
        });
        return answer[wire.one] as T;
      },
    delete:
      (transport: Transport) =>
      async (id: string): Promise<void> => {
        await transport.request({
          method: 'DELETE',
          path: `${base}/${segment(id)}`,
          mapping: CATALOG_V3,
          trace: trace('Delete'),
        });
      },
    /** For the next page send only `{cursorPaging: {cursor}}`: the cursor carries the query. */
    query:
      (transport: Transport) =>
      async (cursorQuery?: CursorQuery, options: EntityV3Options = {}): Promise<CursorPage<T>> => {
        const input = { query: page(cursorQuery), fields: options.fields };
        const answer = await transport.request<
          Record<string, unknown> & { pagingMetadata: CursorPagingMetadata }
        >(
          wire.queryByPost
            ? {
                method: 'POST',
                path: `${base}/query`,
                mapping: CATALOG_V3,
                body: input,
                trace: trace('Query'),
              }
            : {
                method: 'GET',
                path: `${base}/query`,
                mapping: CATALOG_V3,
                params: input,
                postFallback: true,
                trace: trace('Query'),
              },
        );
        return { items: (answer[wire.many] as T[] | undefined) ?? [], pagingMetadata: answer.pagingMetadata };
      },
    count:
      (transport: Transport) =>
      async (filter?: Record<string, unknown>): Promise<{ count: number }> =>
        transport.request({
          method: 'POST',
          path: `${base}/count`,
          mapping: CATALOG_V3,
          body: { filter },
          trace: trace('Count'),
        }),
    bulkCreate:
      (transport: Transport) =>
      async (entities: T[], options: EntityV3Options & { returnEntity?: boolean } = {}): Promise<Bulk> =>
        transport.request({
          method: 'POST',
          path: `${bulk}/create`,
          mapping: CATALOG_V3,
          body: { [wire.many]: entities, returnEntity: options.returnEntity, fields: options.fields },
          trace: trace('BulkCreate'),
        }),
    /** Each with its id and the revision read; a result per entity. */
    bulkUpdate:
      (transport: Transport) =>
      async (entities: T[], options: EntityV3Options & { returnEntity?: boolean } = {}): Promise<Bulk> =>
        transport.request({
          method: 'POST',
          path: `${bulk}/update`,
          mapping: CATALOG_V3,
          body: {
            [wire.many]: entities.map((entity) => ({ [wire.one]: entity })),
            returnEntity: options.returnEntity,
            fields: options.fields,
          },
          trace: trace('BulkUpdate'),
        }),
    bulkDelete:
      (transport: Transport) =>
      async (ids: string[]): Promise<BulkResult<never>> =>
        transport.request({
          method: 'POST',
          path: `${bulk}/delete`,
          mapping: CATALOG_V3,
          body: { [`${wire.one}Ids`]: ids },
          trace: trace('BulkDelete'),
        }),
    /** The entity of this name, made when there is none (brands and ribbons). */
    getOrCreate:
      (transport: Transport) =>
      async (name: string, options: EntityV3Options = {}): Promise<T> => {
        const answer = await transport.request<Record<string, T>>({
          method: 'POST',
          path: `${base}/get-or-create`,
          mapping: CATALOG_V3,
          body: { [`${wire.one}Name`]: name, fields: options.fields },
          trace: trace('GetOrCreate'),
        });
        return answer[wire.one] as T;
      },
  };
}

const brands = entityCalls<BrandV3>({
  one: 'brand',
  many: 'brands',
  path: 'brands',
  entity: 'brand',
  service: 'BrandService',
});
export const brandsV3 = {
  getBrand: brands.get,
  createBrand: brands.create,
  updateBrand: brands.update,
  deleteBrand: brands.delete,
  queryBrands: brands.query,
  countBrands: brands.count,
  bulkCreateBrands: brands.bulkCreate,
  bulkUpdateBrands: brands.bulkUpdate,
  bulkDeleteBrands: brands.bulkDelete,
  getOrCreateBrand: brands.getOrCreate,
} satisfies ModuleDefinition;

const ribbons = entityCalls<RibbonV3>({
  one: 'ribbon',
  many: 'ribbons',
  path: 'ribbons',
  entity: 'ribbon',
  service: 'RibbonService',
  queryByPost: true,
});
export const ribbonsV3 = {
  getRibbon: ribbons.get,
  createRibbon: ribbons.create,
  updateRibbon: ribbons.update,
  deleteRibbon: ribbons.delete,
  queryRibbons: ribbons.query,
  countRibbons: ribbons.count,
  bulkCreateRibbons: ribbons.bulkCreate,
  bulkUpdateRibbons: ribbons.bulkUpdate,
  bulkDeleteRibbons: ribbons.bulkDelete,
  getOrCreateRibbon: ribbons.getOrCreate,
} satisfies ModuleDefinition;

const infoSections = entityCalls<InfoSectionV3>({
  one: 'infoSection',
  many: 'infoSections',
  path: 'info-sections',
  entity: 'info_section',
  service: 'InfoSectionsService',
});
export const infoSectionsV3 = {
  getInfoSection: infoSections.get,
  createInfoSection: infoSections.create,
  updateInfoSection: infoSections.update,
  deleteInfoSection: infoSections.delete,
  queryInfoSections: infoSections.query,
  countInfoSections: infoSections.count,
  bulkCreateInfoSections: infoSections.bulkCreate,
  bulkUpdateInfoSections: infoSections.bulkUpdate,
  bulkDeleteInfoSections: infoSections.bulkDelete,
} satisfies ModuleDefinition;

/** A bulk customizations answer: each result carries its customization under `customization`, as the hosted one. */
export interface CustomizationsBulkResult {
  results: Array<Omit<BulkItemResult<never>, 'item'> & { customization?: CustomizationV3 }>;
  bulkActionMetadata: BulkResult<never>['bulkActionMetadata'];
}

const customizations = entityCalls<CustomizationV3, CustomizationsBulkResult>({
  one: 'customization',
  many: 'customizations',
  path: 'customizations',
  entity: 'customization',
  service: 'CustomizationService',
});
/** One customization's choice call (`add-choices`, ...): the customization as it now is. */
const choiceCall =
  (verb: string, method: string) =>
  (transport: Transport) =>
  async (customizationId: string, body: Record<string, unknown>): Promise<CustomizationV3> => {
    const answer = await transport.request<{ customization: CustomizationV3 }>({
      method: 'POST',
      path: `/v3/customizations/${segment(customizationId)}/${verb}`,
      mapping: CATALOG_V3,
      body: { ...body, customizationId },
      trace: catalogTrace(`v3.CustomizationService.${method}`, 'customization'),
    });
    return answer.customization;
  };

const addChoices = choiceCall('add-choices', 'AddCustomizationChoices');
const setChoices = choiceCall('set-choices', 'SetCustomizationChoices');
const removeChoices = choiceCall('remove-choices', 'RemoveCustomizationChoices');
const updateChoices = choiceCall('update-choices', 'UpdateCustomizationChoices');
const reorderChoices = choiceCall('reorder-choices', 'ReorderCustomizationChoices');

/** The hosted module's choice calls, with its arguments: new choices get ids, others keep theirs. */
const customizationChoices = {
  addCustomizationChoices:
    (transport: Transport) =>
    (customizationId: string, choices: ChoiceV3[], options: EntityV3Options = {}) =>
      addChoices(transport)(customizationId, { choices, fields: options.fields }),
  setCustomizationChoices:
    (transport: Transport) =>
    (customizationId: string, choices: ChoiceV3[], options: EntityV3Options = {}) =>
      setChoices(transport)(customizationId, { choices, fields: options.fields }),
  /** `revision`, when given, must be the customization's (409 `REVISION_MISMATCH`). */
  removeCustomizationChoices:
    (transport: Transport) =>
    (customizationId: string, choiceIds: string[], options: EntityV3Options & { revision?: string } = {}) =>
      removeChoices(transport)(customizationId, { choiceIds, ...options }),
  /** Each `choice` names an existing choice by `id` and the fields it changes. */
  updateCustomizationChoices:
    (transport: Transport) =>
    (
      customizationId: string,
      revision: string,
      options: EntityV3Options & { choices: Array<{ choice: ChoiceV3 }> },
    ) =>
      updateChoices(transport)(customizationId, { revision, ...options }),
  /** `choiceIds` name every choice once, in the new order (else `CHOICE_IDS_MISMATCH`). */
  reorderCustomizationChoices:
    (transport: Transport) =>
    (customizationId: string, revision: string, options: EntityV3Options & { choiceIds: string[] }) =>
      reorderChoices(transport)(customizationId, { revision, ...options }),
  bulkAddCustomizationChoices:
    (transport: Transport) =>
    async (
      customizationsChoices: Array<{ customizationId: string; choices: ChoiceV3[] }>,
      options: EntityV3Options & { returnEntity?: boolean } = {},
    ): Promise<CustomizationsBulkResult> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/customizations/add-choices',
        mapping: CATALOG_V3,
        body: { customizationsChoices, ...options },
        trace: catalogTrace('v3.CustomizationService.BulkAddCustomizationChoices', 'customization'),
      }),
};

export const customizationsV3 = {
  getCustomization: customizations.get,
  createCustomization: customizations.create,
  updateCustomization: customizations.update,
  deleteCustomization: customizations.delete,
  queryCustomizations: customizations.query,
  countCustomizations: customizations.count,
  bulkCreateCustomizations: customizations.bulkCreate,
  bulkUpdateCustomizations: customizations.bulkUpdate,
  ...customizationChoices,
} satisfies ModuleDefinition;
