import { afterAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { ApiKeyStrategy, createClient, type GraphQLAnswer, ValidationError } from '../src/index.ts';
import { type LoopbackServer, startLoopbackServer } from './support/loopback-server.ts';

const server: LoopbackServer = await startLoopbackServer();
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.respond = () => ({ body: { data: { products: { products: [] } } } });
});

const client = () =>
  createClient({ host: server.url, auth: ApiKeyStrategy({ apiKey: 'admin-key' }), modules: {} });

describe("the client's graphql call (the hosted client's client.graphql)", () => {
  it('posts {query, variables} to /graphql/{apiVersion} with the auth header, alpha by default', async () => {
    await client().graphql('query P($r: JSON) { products(request: $r) { products { id } } }', {
      r: { query: {} },
    });
    await client().graphql('{ currentCart { id } }', undefined, { apiVersion: 'v1' });
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/graphql/alpha',
      body: {
        query: 'query P($r: JSON) { products(request: $r) { products { id } } }',
        variables: { r: { query: {} } },
      },
    });
    expect(server.requests[0]!.headers.authorization).toBe('admin-key');
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(server.requests[1]).toMatchObject({
      path: '/graphql/v1',
      body: { query: '{ currentCart { id } }' },
    });
  });

  it('answers {data, errors} as sent, typed by the caller, dates left as the query chose them', async () => {
    server.respond = () => ({
      body: {
        data: { order: null, product: { id: 'p1', createdDate: '2026-01-01T00:00:00.000Z' } },
        errors: [{ message: 'order o1 not found', path: ['order'], extensions: { code: 'NOT_FOUND' } }],
      },
    });
    const answer = await client().graphql<{ product: { id: string; createdDate: string }; order: null }>(
      '{ product(id: "p1") { id createdDate } order(id: "o1") { id } }',
    );
    expectTypeOf(answer).toEqualTypeOf<
      GraphQLAnswer<{ product: { id: string; createdDate: string }; order: null }>
    >();
    expect(answer.data.product.createdDate).toBe('2026-01-01T00:00:00.000Z');
    expect(answer.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('answers data {} when nothing ran, and throws the wire errors of a request that is no GraphQL request', async () => {
    server.respond = () => ({
      body: { errors: [{ message: 'Syntax Error', extensions: { code: 'INVALID_ARGUMENT' } }] },
    });
    expect(await client().graphql('{')).toEqual({
      data: {},
      errors: [{ message: 'Syntax Error', extensions: { code: 'INVALID_ARGUMENT' } }],
    });
    server.respond = () => ({
      status: 400,
      body: {
        message: 'INVALID_ARGUMENT',
        details: { validationError: { fieldViolations: [{ field: 'query', description: 'is too long' }] } },
        errors: [{ message: 'INVALID_ARGUMENT', extensions: { code: 'INVALID_ARGUMENT' } }],
      },
    });
    await expect(client().graphql('{ x }')).rejects.toBeInstanceOf(ValidationError);
  });
});
