import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiKeyStrategy,
  ApplicationError,
  createTransport,
  everyHost,
  HOSTED_API_HOST,
  HttpError,
  type RequestSpec,
  SystemError,
  toPublicPath,
  ValidationError,
} from '../src/index.ts';
import { decodeStructuredParam } from '../src/wire/index.ts';
import { type LoopbackServer, startLoopbackServer } from './support/loopback-server.ts';

const server: LoopbackServer = await startLoopbackServer();
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.respond = () => ({ body: {} });
});

const CART_MAPPING = everyHost(['/v1/carts', '/ecom/v1/carts']);
const trace = { package: '@cartwheel/sdk', method: 'ecom.CurrentCart.GetCurrentCart', entity: 'cart' };
const request = <T>(spec: Partial<RequestSpec>) =>
  createTransport({ host: server.url, auth: ApiKeyStrategy({ apiKey: 'admin-key' }) }).request<T>({
    method: 'GET',
    path: '/v1/carts/current',
    mapping: CART_MAPPING,
    trace,
    ...spec,
  });

describe('the transport', () => {
  it('rewrites the service path to the public path through the domain mapping', async () => {
    await request({});
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/ecom/v1/carts/current' });
  });

  it('uses the hosted API host its own table and falls back to the table for every host', () => {
    const mapping = { [HOSTED_API_HOST]: [['/v1/products', '/stores/v1/products'] as const], '*': [] };
    expect(toPublicPath(mapping, HOSTED_API_HOST, '/v1/products/p1')).toBe('/stores/v1/products/p1');
    expect(toPublicPath(mapping, 'localhost:4000', '/v1/products/p1')).toBe('/v1/products/p1');
    expect(toPublicPath(everyHost(['/v1/carts', '/ecom/v1/carts']), 'x', '/v1/cartsy')).toBe('/v1/cartsy');
  });

  it('picks the longest matching prefix of the host it talks to', async () => {
    const mapping = {
      [HOSTED_API_HOST]: [['/v1/products', '/stores/v1/products'] as const],
      '*': [['/v1', '/generic/v1'] as const, ['/v1/products', '/local/v1/products'] as const],
    };
    await request({ path: '/v1/products/p1', mapping });
    expect(server.requests[0]?.path).toBe('/local/v1/products/p1');
  });

  it('sends the access token raw in Authorization and a tracing header naming package, method and entity', async () => {
    await request({});
    const headers = server.requests[0]!.headers;
    expect(headers.authorization).toBe('admin-key');
    expect(headers['x-cartwheel-client']).toBe(
      'environment=cartwheel-sdk,package-name=@cartwheel/sdk,method-fqn=ecom.CurrentCart.GetCurrentCart,entity=cart',
    );
  });

  it('sends dates as ISO strings and turns the date fields of answers into Dates', async () => {
    server.respond = () => ({
      body: {
        cart: {
          id: 'c1',
          createdDate: '2026-11-22T10:00:00.000Z',
          lineItems: [{ id: 'l1', updatedDate: '2026-11-22T11:30:00Z', name: '2026-11-22' }],
        },
      },
    });
    const answer = await request<any>({ method: 'POST', body: { at: new Date('2026-01-02T03:04:05.000Z') } });
    expect(server.requests[0]?.body).toEqual({ at: '2026-01-02T03:04:05.000Z' });
    expect(answer.cart.createdDate).toEqual(new Date('2026-11-22T10:00:00.000Z'));
    expect(answer.cart.lineItems[0].updatedDate).toBeInstanceOf(Date);
    expect(answer.cart.lineItems[0].name).toBe('2026-11-22');
  });

  it('sends structured GET parameters as one base64url .r parameter', async () => {
    const query = {
      filter: { name: 'Mug' },
      paging: { limit: 20, offset: 20 },
      sort: [{ fieldName: 'price', order: 'ASC' }],
    };
    await request({ params: { query } });
    const sent = server.requests[0]!;
    expect([...sent.query.keys()]).toEqual(['.r']);
    expect(decodeStructuredParam(sent.query.get('.r')!)).toEqual({ query });
  });

  it('sends scalar GET parameters as plain query parameters', async () => {
    await request({
      params: { includeMerchantSpecificData: true, fieldsets: ['FULL', 'PUBLIC'], missing: undefined },
    });
    const sent = server.requests[0]!;
    expect(sent.query.get('includeMerchantSpecificData')).toBe('true');
    expect(sent.query.getAll('fieldsets')).toEqual(['FULL', 'PUBLIC']);
    expect(sent.query.has('missing')).toBe(false);
  });

  it("puts a DELETE's parameters in its query string, with no body, leaving null and undefined out", async () => {
    await request({
      method: 'DELETE',
      path: '/v1/carts/c1',
      params: { id: 'c1', owner: null, missing: undefined },
    });
    const sent = server.requests[0]!;
    expect(sent.method).toBe('DELETE');
    expect([...sent.query]).toEqual([['id', 'c1']]);
    expect(sent.body).toBeUndefined();
    expect(sent.headers['content-type']).toBeUndefined();
  });

  it('switches a GET whose query string passes 4000 characters to its POST fallback with the same JSON body', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `product-${i}-${'x'.repeat(20)}`);
    const params = { query: { filter: { id: { $in: ids } } } };
    await request({ params, postFallback: true });
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/ecom/v1/carts/current',
      body: params,
    });
    expect([...server.requests[0]!.query.keys()]).toEqual([]);
  });

  it('keeps a short structured GET as a GET even when it has a POST fallback', async () => {
    await request({ params: { query: { filter: { id: 'a' } } }, postFallback: true });
    expect(server.requests[0]?.method).toBe('GET');
  });
});

describe('errors (point 8)', () => {
  const fail = async (
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
    statusText?: string,
  ) => {
    server.respond = () => ({ status, body, headers, ...(statusText ? { statusText } : {}) });
    return request({}).then(
      () => {
        throw new Error('expected the call to fail');
      },
      (error: unknown) => error as HttpError,
    );
  };

  it('raises every non-2xx with status, server message, details and request id', async () => {
    const error = await fail(
      404,
      {
        message: 'cart not found',
        details: { applicationError: { code: 'NOT_FOUND', description: 'no cart' } },
      },
      { 'x-request-id': 'req-1' },
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, serverMessage: 'cart not found', requestId: 'req-1' });
    expect(error.details?.applicationError?.code).toBe('NOT_FOUND');
  });

  it('turns field violations into a ValidationError whose message starts INVALID_ARGUMENT and lists them sorted', async () => {
    const error = await fail(400, {
      message: 'bad request',
      details: {
        validationError: {
          fieldViolations: [
            { field: 'product.priceData.price', description: 'must be at least 0', violatedRule: 'MIN' },
            { field: 'product.name', description: 'is required', violatedRule: 'REQUIRED_FIELD' },
          ],
        },
      },
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe(
      'INVALID_ARGUMENT: "product.name" is required, "product.priceData.price" must be at least 0',
    );
    expect((error as ValidationError).fieldViolations.map((v) => v.field)).toEqual([
      'product.name',
      'product.priceData.price',
    ]);
  });

  it('turns an application error into an ApplicationError with message, description, code and data', async () => {
    const error = await fail(428, {
      message: 'order cannot be paid',
      details: {
        applicationError: { code: 'ORDER_NOT_FOUND', description: 'no such order', data: { orderId: 'o1' } },
      },
    });
    expect(error).toBeInstanceOf(ApplicationError);
    expect(error).toMatchObject({
      message: 'order cannot be paid: no such order',
      code: 'ORDER_NOT_FOUND',
      description: 'no such order',
      data: { orderId: 'o1' },
    });
  });

  it('gives any other 4xx an ApplicationError whose code is the status and description the status text', async () => {
    const error = await fail(403, { message: '' }, {}, 'Forbidden');
    expect(error).toBeInstanceOf(ApplicationError);
    expect(error).toMatchObject({ code: '403', description: 'Forbidden', status: 403 });
  });

  it("gives anything else 'System error occurred' with the request id", async () => {
    const withId = await fail(500, { message: 'boom' }, { 'x-request-id': 'req-9' });
    expect(withId).toBeInstanceOf(SystemError);
    expect(withId.message).toBe('System error occurred, request-id: req-9');
    const withoutId = await fail(502, undefined);
    expect(withoutId.message).toBe('System error occurred');
    expect(withoutId).not.toBeInstanceOf(ApplicationError);
  });
});
