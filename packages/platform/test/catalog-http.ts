import { encodeStructuredParam } from '@cartwheel/sdk/wire';
import { TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

export interface Answer {
  status: number;
  body: any;
}

/** One call at a public path, as any client would make it; `auth` is the raw Authorization value. */
export async function call(
  platform: TestPlatform,
  method: string,
  path: string,
  body?: unknown,
  auth?: string,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (auth) headers.Authorization = auth;
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A GET carrying its request as the `.r` structured parameter. */
export function getStructured(platform: TestPlatform, path: string, request: unknown, auth?: string) {
  return call(platform, 'GET', `${path}?.r=${encodeStructuredParam(request)}`, undefined, auth);
}

export const admin = (platform: TestPlatform) => ({
  get: (path: string) => call(platform, 'GET', path, undefined, platform.adminApiKey),
  post: (path: string, body: unknown = {}) => call(platform, 'POST', path, body, platform.adminApiKey),
  patch: (path: string, body: unknown) => call(platform, 'PATCH', path, body, platform.adminApiKey),
  delete: (path: string) => call(platform, 'DELETE', path, undefined, platform.adminApiKey),
});

export async function visitorToken(platform: TestPlatform): Promise<string> {
  const { body } = await call(platform, 'POST', '/oauth2/token', {
    clientId: TEST_CLIENT_ID,
    grantType: 'anonymous',
  });
  return body.access_token as string;
}

/** Creates a product as an admin and returns it (with variants and merchant data). */
export async function createProduct(platform: TestPlatform, product: Record<string, unknown>): Promise<any> {
  const answer = await admin(platform).post('/stores/v1/products', { product });
  if (answer.status !== 200)
    throw new Error(`create failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.product;
}

/** A physical product sold in sizes S and M, each its own variant. */
export function createSizedProduct(platform: TestPlatform, name: string, price: number): Promise<any> {
  return createProduct(platform, {
    name,
    productType: 'physical',
    priceData: { price },
    manageVariants: true,
    productOptions: [
      {
        name: 'Size',
        choices: [
          { value: 'S', description: 'S' },
          { value: 'M', description: 'M' },
        ],
      },
    ],
  });
}

export function queryProducts(platform: TestPlatform, request: unknown, auth?: string) {
  return call(platform, 'POST', '/stores-reader/v1/products/query-platformized', request, auth);
}

export const fieldsOf = (answer: Answer): string[] =>
  (answer.body?.details?.validationError?.fieldViolations ?? []).map((v: { field: string }) => v.field);
