import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { Variant } from '../../types/catalog.ts';
import type { OffsetPage, OffsetQuery } from '../../types/paging.ts';
import { type OffsetListMetadata, pageOfList } from '../offset-list.ts';
import { CATALOG_READS, catalogTrace, segment } from './domains.ts';

const trace = (method: string) => catalogTrace(`v1.CatalogReadApi.${method}`, 'variant');

/** Variants of every product, each with its product's id (`/v1/variants`, reader). */
export const storeVariants = {
  /** `POST /v1/variants/query` (reader) with `{query}`. */
  queryStoreVariants:
    (transport: Transport) =>
    async (query?: OffsetQuery): Promise<OffsetPage<Variant>> => {
      const answer = await transport.request<{ variants?: Variant[]; metadata?: OffsetListMetadata }>({
        method: 'POST',
        path: '/v1/variants/query',
        mapping: CATALOG_READS,
        body: { query },
        trace: trace('QueryStoreVariants'),
      });
      return pageOfList(answer.variants, answer.metadata);
    },

  /** `GET /v1/variants/{id}` (reader). */
  getStoreVariant:
    (transport: Transport) =>
    async (id: string): Promise<Variant> => {
      const answer = await transport.request<{ variant: Variant }>({
        method: 'GET',
        path: `/v1/variants/${segment(id)}`,
        mapping: CATALOG_READS,
        params: { id },
        trace: trace('GetStoreVariant'),
      });
      return answer.variant;
    },
} satisfies ModuleDefinition;
