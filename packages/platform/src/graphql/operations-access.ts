import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * The GraphQL endpoint's own operation: anyone may send a query, and each field it asks for is checked
 * against its own operation's entry (the catalog's, the cart's, ...), the one the REST route of that
 * operation reads (graphql/schema.ts). A caller learns no more through GraphQL than through REST.
 */
export const GRAPHQL_OPERATIONS = operationTable('graphql', {
  execute: CALLERS.anyone,
});
