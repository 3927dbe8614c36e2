import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { CollectionV2 } from '../../types/catalog.ts';
import type { OffsetPage, OffsetQuery } from '../../types/paging.ts';
import { type OffsetListMetadata, pageOfList } from '../offset-list.ts';
import { COLLECTIONS_V2, catalogTrace, segment } from './domains.ts';

const trace = (method: string) => catalogTrace(`v2.CollectionReadApi.${method}`, 'collection');

/** Store collections, v2 (`/v2/collections`): reads only. */
export const collections = {
  /** `GET /v2/collections/{id}`. */
  getCollection:
    (transport: Transport) =>
    async (id: string): Promise<CollectionV2> => {
      const answer = await transport.request<{ collection: CollectionV2 }>({
        method: 'GET',
        path: `/v2/collections/${segment(id)}`,
        mapping: COLLECTIONS_V2,
        params: { id },
        trace: trace('GetCollection'),
      });
      return answer.collection;
    },

  /** `GET /v2/collections/slug/{slug}`. */
  getCollectionBySlug:
    (transport: Transport) =>
    async (slug: string): Promise<CollectionV2> => {
      const answer = await transport.request<{ collection: CollectionV2 }>({
        method: 'GET',
        path: `/v2/collections/slug/${segment(slug)}`,
        mapping: COLLECTIONS_V2,
        params: { slug },
        trace: trace('GetCollectionBySlug'),
      });
      return answer.collection;
    },

  /**
   * `GET /v2/collections/query` with the query as `.r`, or `POST` to the same path when the query
   * string grows past 4000 characters. No paging is added: the platform defaults it.
   */
  queryCollections:
    (transport: Transport) =>
    async (query?: OffsetQuery): Promise<OffsetPage<CollectionV2>> => {
      const answer = await transport.request<{ collections?: CollectionV2[]; metadata?: OffsetListMetadata }>(
        {
          method: 'GET',
          path: '/v2/collections/query',
          mapping: COLLECTIONS_V2,
          params: { query: query && Object.keys(query).length > 0 ? query : undefined },
          postFallback: true,
          trace: trace('QueryCollections'),
        },
      );
      return pageOfList(answer.collections, answer.metadata);
    },
} satisfies ModuleDefinition;
