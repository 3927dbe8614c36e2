import fs from 'node:fs';
import autocannon from 'autocannon';
import { type LoadFigure, loadTiming, measureInAlternation } from './support/alternate.ts';
import { type RunningServer, startPlatformProcess, tempDir } from './support/processes.ts';
import { visitorToken } from './support/recording.ts';
import { ensureProducts } from './throughput.ts';

export interface GraphQLResult {
  connections: number;
  durationSeconds: number;
  /** GraphQL's requests a second ("platform") beside REST's ("baseline"); `ratio` is GraphQL over REST. */
  productsWithVariants: LoadFigure;
  /** Products and variants each answer carried, GraphQL's and REST's: the two pages must be the same. */
  pages: { graphql: string; rest: string };
  notes: string[];
}

const CONNECTIONS = 32;
const PAGE = { paging: { limit: 20, offset: 0 }, sort: [{ fieldName: 'price', order: 'ASC' }] };

/** A product card's fields and its variants: what a storefront's listing asks for. */
const QUERY = `query Listing($request: JSON) {
  products(request: $request) {
    products {
      id name slug ribbon
      priceData { currency price discountedPrice formatted { price discountedPrice } }
      media { mainMedia { image { url width height } } }
      stock { inStock inventoryStatus }
      variants { id choices variant { priceData { price discountedPrice } visible } stock { inStock quantity } }
    }
    metadata { count total }
  }
}`;

/**
 * A visitor's page of 20 products with their variants (issue 33), through GraphQL beside the same
 * page through REST (`POST /stores-reader/v1/products/query`, includeVariants), against one platform
 * in the same run, in alternation: GraphQL's parse cache, its resolvers and the variants' data
 * loader against REST's kept answer text. Goal: GraphQL within 1.5x of REST (ratio >= 67%).
 */
export async function measureGraphQL(options: { quick: boolean }): Promise<GraphQLResult> {
  const timing = loadTiming(options.quick);
  const notes: string[] = [];
  const dataDir = tempDir('cartwheel-bench-graphql-');
  let platform: RunningServer | undefined;
  try {
    platform = await startPlatformProcess({ dataDir, seedDemo: true });
    const url = platform.url;
    await ensureProducts(url, 20, notes);
    const token = await visitorToken(url);
    const headers = { authorization: token, 'content-type': 'application/json' };
    const graphqlBody = JSON.stringify({ query: QUERY, variables: { request: { query: PAGE } } });
    const restBody = JSON.stringify({ query: PAGE, includeVariants: true });
    const send = async (path: string, body: string) => {
      const response = await fetch(url + path, { method: 'POST', headers, body });
      return { status: response.status, body: (await response.json()) as any };
    };
    const graphqlAnswer = await send('/graphql/alpha', graphqlBody);
    const restAnswer = await send('/stores-reader/v1/products/query', restBody);
    const shape = (products: any[] | undefined) =>
      (products ?? []).map((product) => `${product.id}:${product.variants?.length ?? 0}`).join(',');
    const pages = {
      graphql: shape(graphqlAnswer.body?.data?.products?.products),
      rest: shape(restAnswer.body?.products),
    };
    if (graphqlAnswer.body?.errors)
      notes.push(`GraphQL answered errors: ${JSON.stringify(graphqlAnswer.body.errors)}`);
    if (pages.graphql !== pages.rest || pages.rest === '')
      notes.push('GraphQL and REST did not answer the same page of products: the ratio is void');

    const productsWithVariants = await measureInAlternation(
      (side, duration) =>
        autocannon({
          url: url + (side === 'platform' ? '/graphql/alpha' : '/stores-reader/v1/products/query'),
          method: 'POST',
          connections: CONNECTIONS,
          duration,
          headers,
          body: side === 'platform' ? graphqlBody : restBody,
        }),
      timing,
      graphqlAnswer.status === 200 && restAnswer.status === 200 ? 200 : graphqlAnswer.status,
    );
    return {
      connections: CONNECTIONS,
      durationSeconds: timing.durationSeconds,
      productsWithVariants,
      pages,
      notes,
    };
  } finally {
    await platform?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
