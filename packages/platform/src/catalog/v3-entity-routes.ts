import type { HttpApp } from '../http/app.ts';
import { Empty } from '../http/responses-identity.ts';
import type { Operation } from '../shared/access.ts';
import { PRODUCT_TEXT } from './limits.ts';
import { CATALOG_OPERATIONS } from './operations-access.ts';
import type { CatalogEntitiesV3 } from './v3-entities.ts';
import {
  BrandInput,
  CustomizationInput,
  type EntityFieldsInput,
  entitySchemas,
  getOrCreateSchemas,
  InfoSectionInput,
  RibbonInput,
} from './v3-entity-schemas.ts';
import { json, readRoute } from './v3-read-route.ts';
import { entityAnswers } from './v3-responses.ts';

const INPUTS = {
  brand: BrandInput,
  ribbon: RibbonInput,
  infoSection: InfoSectionInput,
  customization: CustomizationInput,
} as const;

type Body = Record<string, unknown> & { fields?: EntityFieldsInput; returnEntity?: boolean };
const text = (value: unknown) => JSON.stringify(value);

/**
 * One kind's v3 calls at the hosted paths (`/stores/v3/brands...`, `/stores/v3/bulk/brands...`):
 * get, create, update, delete, query (GET and POST), count, bulk create, update and delete, and the
 * get-or-create calls of brands and ribbons.
 */
export function catalogEntityRoutes(app: HttpApp, entities: CatalogEntitiesV3): void {
  const { spec } = entities;
  const { one, many, idName } = spec;
  const schemas = entitySchemas(INPUTS[spec.kind], one, many, idName, spec.requestedFields);
  const answers = entityAnswers(one, many, spec.bulkItemKey);
  const operation = (name: string): Operation => CATALOG_OPERATIONS[name as keyof typeof CATALOG_OPERATIONS];
  const op = (verb: string) => operation(`${verb}${spec.operation.one}V3`);
  const ops = (verb: string) => operation(`${verb}${spec.operation.many}V3`);
  const base = `/stores/v3/${spec.path}`;
  const bulk = `/stores/v3/bulk/${spec.path}`;
  const idOf = (params: unknown) => (params as Record<string, string>)[idName] as string;

  readRoute(app, `${base}/query`, ops('query'), schemas.query, answers.page, async (input) =>
    text(await entities.query(input as Parameters<CatalogEntitiesV3['query']>[0])),
  );
  app.post(
    `${base}/count`,
    { config: ops('count'), schema: { body: schemas.count, response: { 200: answers.count } } },
    async (request, reply) =>
      json(reply, text(await entities.count((request.body as { filter?: unknown }).filter))),
  );
  app.get(
    `${base}/:${idName}`,
    {
      config: op('get'),
      schema: { params: schemas.path, querystring: schemas.fieldsQuery, response: { 200: answers.one } },
    },
    async (request, reply) =>
      json(reply, text(await entities.get(idOf(request.params), (request.query as Body).fields))),
  );
  app.post(
    base,
    { config: op('create'), schema: { body: schemas.create, response: { 200: answers.one } } },
    async (request, reply) => {
      const body = request.body as Body;
      return json(reply, text(await entities.create(body[one] as Record<string, unknown>, body.fields)));
    },
  );
  app.patch(
    `${base}/:${idName}`,
    {
      config: op('update'),
      schema: { params: schemas.path, body: schemas.update, response: { 200: answers.one } },
    },
    async (request, reply) => {
      const body = request.body as Body;
      const input = body[one] as Record<string, unknown>;
      return json(reply, text(await entities.update(idOf(request.params), input, body.fields)));
    },
  );
  app.delete(
    `${base}/:${idName}`,
    { config: op('delete'), schema: { params: schemas.path, response: { 200: Empty } } },
    async (request) => {
      await entities.delete(idOf(request.params));
      return {};
    },
  );
  app.post(
    `${bulk}/create`,
    { config: ops('bulkCreate'), schema: { body: schemas.bulkCreate, response: { 200: answers.bulk } } },
    async (request, reply) => {
      const body = request.body as Body;
      const items = body[many] as Record<string, unknown>[];
      return json(reply, text(await entities.bulkCreate(items, body.returnEntity, body.fields)));
    },
  );
  app.post(
    `${bulk}/update`,
    { config: ops('bulkUpdate'), schema: { body: schemas.bulkUpdate, response: { 200: answers.bulk } } },
    async (request, reply) => {
      const body = request.body as Body;
      const items = body[many] as Record<string, unknown>[];
      return json(reply, text(await entities.bulkUpdate(items, body.returnEntity, body.fields)));
    },
  );
  if (spec.bulkDelete) {
    app.post(
      `${bulk}/delete`,
      { config: ops('bulkDelete'), schema: { body: schemas.bulkDelete, response: { 200: answers.bulk } } },
      async (request, reply) => {
        const ids = (request.body as Record<string, string[]>)[`${idName}s`] as string[];
        return json(reply, text(await entities.bulkDelete(ids)));
      },
    );
  }
  if (spec.getOrCreate) {
    const nameKey = `${one}Name`;
    const maxLength = spec.kind === 'ribbon' ? PRODUCT_TEXT.ribbon : PRODUCT_TEXT.brand;
    const { GetOrCreate, BulkGetOrCreate } = getOrCreateSchemas(nameKey, spec.requestedFields, maxLength);
    app.post(
      `${base}/get-or-create`,
      { config: op('getOrCreate'), schema: { body: GetOrCreate, response: { 200: answers.one } } },
      async (request, reply) => {
        const body = request.body as Body;
        return json(reply, text(await entities.getOrCreate(body[nameKey] as string, body.fields)));
      },
    );
    app.post(
      `${bulk}/get-or-create`,
      {
        config: operation(`bulkGetOrCreate${spec.operation.many}V3`),
        schema: { body: BulkGetOrCreate, response: { 200: answers.bulk } },
      },
      async (request, reply) => {
        const body = request.body as Body;
        return json(
          reply,
          text(await entities.bulkGetOrCreate(body[`${nameKey}s`] as string[], body.fields)),
        );
      },
    );
  }
}
