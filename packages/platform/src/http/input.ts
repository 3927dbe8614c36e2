import { type FieldViolation, type RuleName, STORES_APP_ID } from '@cartwheel/sdk';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import Type, { type TSchema } from 'typebox';
import { invalidArgument, violation } from '../shared/errors.ts';

/**
 * The input contract at the edge. Each route declares its body, query and path parameters once, as
 * TypeBox schemas: that declaration is both the check Fastify runs before the handler (compiled by Ajv)
 * and, through the TypeBox type provider, the TypeScript type of the handler's input. A request that
 * does not fit answers 400 with the specification's field violations (point 5's rule kinds).
 *
 * No key a caller sends is dropped in silence: every object schema is closed when it is compiled
 * (`closed`), so a key it does not name is refused with a field violation. What the hosted client sends
 * and Cartwheel ignores (path-id copies) is named in the schema; a key of the hosted wire Cartwheel
 * does not keep yet is named too, as `NotSupportedYet()`, and refused saying so. An object whose keys
 * are data (a filter, a choice per option name) declares what its values are; one whose contents a
 * service checks itself says why (`CheckedByService`).
 */

/** Bodies are JSON and keep their types; a query string and path hold text, so those are coerced. */
const bodyAjv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false });
// 'array': a repeated query parameter is an array, refused where one value belongs
const textAjv = new Ajv({ allErrors: false, strict: false, coerceTypes: 'array', useDefaults: false });

/**
 * Every violation at once, for small admin forms (a merchant fixes them all in one go). Never for a
 * schema an anonymous caller reaches: with a large body, listing every failure is work an attacker
 * chooses (Ajv's own warning about `allErrors`).
 */
const reportAllAjv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
const reportAll = new WeakSet<object>();

/** Marks a small, admin-only body schema whose every violation is reported, not only the first. */
export function reportingEveryViolation<T extends TSchema>(schema: T): T {
  reportAll.add(schema);
  return schema;
}

/** Compiles a route's check of one part of its input (Ajv, over the closed schema). */
export const compileValidator: FastifySchemaCompiler<TSchema> = ({ schema, httpPart, url }) => {
  const ajv = httpPart !== 'body' ? textAjv : reportAll.has(schema) ? reportAllAjv : bodyAjv;
  // the hosted client repeats a call's path ids in its body and query (`{id}` of `/orders/:id/cancel`)
  const pathCopies = httpPart === 'body' || httpPart === 'querystring' ? pathParameters(url) : [];
  return ajv.compile(closed(schema, pathCopies)) as ValidateFunction;
};

/**
 * The app's validator compiler: `compileValidator`, run when the route's part is first checked rather
 * than when the platform starts (see compilers.ts). Fastify reads a failed check's `errors` from the
 * function it was handed, so they are copied onto it.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = (route) => {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown): boolean => {
    compiled ??= compileValidator(route) as ValidateFunction;
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = undefined as ErrorObject[] | null | undefined;
  return validate;
};

/** The names of a route's path parameters (`/orders/:orderId/fulfillments/:id` → orderId, id). */
export const pathParameters = (url: string): string[] =>
  [...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] as string);

/** One closed copy per declared schema and path: a schema several routes share is compiled once. */
const closedCopies = new WeakMap<object, Map<string, object>>();

/**
 * `schema` with every object that says nothing of the keys it does not name closed to them
 * (`additionalProperties: false`), so Ajv refuses an unknown key instead of letting it through to be
 * dropped; `pathCopies` (the route's path parameters) are taken and ignored at its top. An object
 * that declares `additionalProperties` (a map, or an `OpenObject`) keeps its declaration.
 */
export function closed(schema: object, pathCopies: readonly string[] = []): object {
  const copies = closedCopies.get(schema) ?? new Map<string, object>();
  closedCopies.set(schema, copies);
  const key = pathCopies.join('/');
  let copy = copies.get(key);
  if (!copy) {
    const top = closeObjects(schema);
    const properties = top.properties as Record<string, unknown> | undefined;
    if (properties)
      for (const name of pathCopies)
        properties[name] ??= Ignored(`the hosted client's copy of the path's ${name}`);
    copy = top as object;
    copies.set(key, copy);
  }
  return copy;
}

function closeObjects(node: unknown): any {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = closeObjects(value);
  const type = copy.type;
  const isObject = type === 'object' || (Array.isArray(type) && type.includes('object'));
  if (isObject && copy.additionalProperties === undefined && copy.patternProperties === undefined)
    copy.additionalProperties = false;
  return copy;
}

/**
 * Fastify's validation failure (`error.validation`) as the wire's field violations; `part` (`body`,
 * `querystring`, `params`) names a failure of the whole part.
 */
export function violationsOf(errors: readonly Partial<ErrorObject>[], part = 'body'): FieldViolation[] {
  const union = errors.some((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const chosen = union || errors.length <= 1 ? [mostSpecific(errors)].filter((e) => e !== undefined) : errors;
  if (chosen.length === 0) return [violation(part, 'is not valid', 'VALIDATION')];
  return chosen.map((error) => {
    const described = describe(error);
    return described.field ? described : { ...described, field: part === 'querystring' ? 'query' : part };
  });
}

/**
 * Ajv stops at the first failure, but a union (`anyOf`) reports each branch's failure before its own;
 * the deepest of them names the field a person would fix.
 */
function mostSpecific(errors: readonly Partial<ErrorObject>[]): Partial<ErrorObject> | undefined {
  let best: Partial<ErrorObject> | undefined;
  for (const error of errors) {
    if (!best || depth(error) > depth(best)) best = error;
  }
  return best;
}

const depth = (error: Partial<ErrorObject>) =>
  (error.instancePath ?? '').split('/').length + (error.keyword === 'required' ? 1 : 0);

function describe(error: Partial<ErrorObject>): FieldViolation {
  const params = (error.params ?? {}) as Record<string, any>;
  let field = fieldOf(error.instancePath ?? '');
  const rule = (r: RuleName, description: string) => violation(field, description, r);
  switch (error.keyword) {
    case 'required':
      field = join(field, String(params.missingProperty));
      return rule('REQUIRED_FIELD', 'is required');
    case 'type':
      return rule('FORMAT', `must be ${article(String(params.type))}`);
    case 'maxLength':
      return rule('MAX_LENGTH', `must be at most ${params.limit} characters`);
    case 'minLength':
      return params.limit === 1
        ? rule('REQUIRED_FIELD', 'must not be empty')
        : rule('MIN_LENGTH', `must be at least ${params.limit} characters`);
    case 'maxItems':
      return rule('MAX_SIZE', `must hold at most ${params.limit} items`);
    case 'minItems':
      return rule('MIN_SIZE', `must hold at least ${params.limit} items`);
    case 'maxProperties':
      return rule('MAX_SIZE', `must hold at most ${params.limit} fields`);
    case 'minProperties':
      return rule('MIN_SIZE', `must hold at least ${params.limit} fields`);
    case 'enum':
      return rule('INVALID_ENUM_VALUE', `must be one of ${(params.allowedValues as unknown[]).join(', ')}`);
    case 'const':
      return rule('INVALID_ENUM_VALUE', `must be ${String(params.allowedValue)}`);
    case 'maximum':
    case 'exclusiveMaximum':
      return rule('MAX', `must be ${params.comparison} ${params.limit}`);
    case 'minimum':
    case 'exclusiveMinimum':
      return rule('MIN', `must be ${params.comparison} ${params.limit}`);
    case 'pattern':
    case 'format':
    case 'multipleOf':
      return rule('FORMAT', 'is not in the expected format');
    case 'additionalProperties':
      field = join(field, String(params.additionalProperty));
      return rule('FIELD_NOT_ALLOWED', `is not a field this call takes: ${field}`);
    case 'not':
      // the one `not` the schemas write: a field of the hosted wire Cartwheel does not keep yet
      return rule('FIELD_NOT_ALLOWED', `is not supported yet: ${field}`);
    case 'propertyNames':
      return rule('FIELD_NOT_ALLOWED', 'names a field this call does not take');
    case 'anyOf':
    case 'oneOf':
      return rule('FORMAT', 'is not of a form this call takes');
    default:
      return rule('VALIDATION', error.message ?? 'is not valid');
  }
}

/** `/query/filter/$and/0/name` → `query.filter.$and[0].name`, as the wire names fields. */
export function fieldOf(instancePath: string): string {
  let field = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    field = /^\d+$/.test(segment) ? `${field}[${segment}]` : join(field, segment);
  }
  return field;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

const article = (type: string) =>
  ({
    string: 'a string',
    number: 'a number',
    integer: 'a whole number',
    boolean: 'true or false',
    object: 'an object',
    array: 'an array',
    null: 'null',
  })[type] ?? type;

// ---- bodies no handler should have to walk ----

/** The deepest a JSON body may nest: the wire's deepest (a catalog filter) needs a fraction of it. */
export const MAX_BODY_DEPTH = 64;

/**
 * How deeply JSON text nests its objects and arrays, read from the text itself (brackets inside
 * strings do not count), stopping once past `limit`. JSON.parse takes any depth, but whatever walks
 * the result recursively later (a stringify, a clone) would overflow its stack.
 */
export function jsonDepthExceeds(text: string, limit = MAX_BODY_DEPTH): boolean {
  if (text.length <= limit * 2) return false; // too short to open that many brackets
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
  return false;
}

// ---- text that never reaches the database ----

/** A NUL character, or half of a surrogate pair: neither is text PostgreSQL (or a person) can store. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the NUL character is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first string (key or value) in `value` that is not storable text, or a `__proto__` key, as a
 * field path; undefined when there is none. Walks with a stack of its own, so no depth of nesting can
 * overflow the call stack; the path is spelled only for what it finds.
 */
export function unstorableField(value: unknown, prefix = ''): string | undefined {
  interface Place {
    value: unknown;
    parent: Place | undefined;
    key: string | number | undefined;
  }
  const pathOf = (place: Place): string => {
    const keys: Array<string | number> = [];
    for (let at: Place | undefined = place; at?.key !== undefined; at = at.parent) keys.push(at.key);
    let path = prefix;
    for (const key of keys.reverse()) path = typeof key === 'number' ? `${path}[${key}]` : join(path, key);
    return path || 'value';
  };
  const stack: Place[] = [{ value, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const place = stack.pop() as Place;
    const item = place.value;
    if (typeof item === 'string') {
      if (!isStorableText(item)) return pathOf(place);
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--) {
        stack.push({ value: item[index], parent: place, key: index });
      }
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index] as [string, unknown];
        const at: Place = { value: child, parent: place, key };
        if (!isStorableText(key) || key === '__proto__') return pathOf(at);
        stack.push(at);
      }
    }
  }
  return undefined;
}

/**
 * Refuses a request part holding a NUL or an unpaired surrogate, naming the field; and a `__proto__`
 * key, so that no merge of the input can reach an object's prototype.
 */
export function refuseUnstorableText(value: unknown, prefix = ''): void {
  const field = unstorableField(value, prefix);
  if (field !== undefined) {
    throw invalidArgument([
      field.endsWith('__proto__')
        ? violation(field, 'is not a field name a request may use', 'FIELD_NOT_ALLOWED')
        : violation(field, 'must not contain NUL characters or unpaired surrogates', 'FORMAT'),
    ]);
  }
}

// ---- the shapes routes declare, in the store's own words ----

/** The longest id Cartwheel accepts in a path or a body (its own are UUIDs). */
export const ID_MAX_LENGTH = 200;

/** An entity id as the wire writes it: a path segment or a field. */
export const Id = (options: { description?: string } = {}) =>
  Type.String({ minLength: 1, maxLength: ID_MAX_LENGTH, ...options });

/** Text of at most `maxLength` characters. */
export const Text = (maxLength: number) => Type.String({ maxLength });

/** A list of ids, at most `maxItems` of them. */
export const Ids = (maxItems: number) => Type.Array(Id(), { maxItems });

/** One of the listed values (point 5's INVALID_ENUM_VALUE when it is not). */
export const OneOf = <const T extends string[]>(values: readonly [...T]) => Type.Enum(values as [...T]);

/** `{ id }`: the path of a call on one entity. */
export const IdParams = Type.Object({ id: Id() });

/**
 * An object the schema lets any key and value into, saying why (`openBecause`): one a service checks
 * key by key itself (a filter compiled to SQL), or an app's own data kept as given.
 * test/input-keys.test.ts refuses a schema that takes any value without such a reason.
 */
export const OpenObject = (
  openBecause: string,
  options: { minProperties?: number; maxProperties?: number } = {},
) => Type.Record(Type.String(), Type.Unknown(), { ...options, openBecause });

/** A field the hosted client sends that Cartwheel neither keeps nor needs, taken in any form. */
export const Ignored = (ignoredBecause: string) => Type.Unknown({ ignoredBecause });

/**
 * `id` inside the entity an update sends: the hosted client's copy of the path's id (its paths read
 * `/v1/products/{product.id}`), ignored in favour of the path.
 */
export const PathIdCopy = () => Type.Optional(Ignored("the hosted client's copy of the path's id"));

/**
 * A field of the hosted wire's shape that Cartwheel does not keep yet: refused with a violation that
 * says so, rather than taken and dropped.
 */
export const NotSupportedYet = () => Type.Optional(Type.Never());

/** A field the hosted client may also send as `null`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The longest URL Cartwheel takes in a field (redirects, pictures). */
export const URL_MAX_LENGTH = 2048;

/**
 * An address as buyers send it (point 3's Address) to carts, checkouts and the hosted checkout page:
 * one set of bounds, so what a cart accepts a checkout made from it accepts too. The hosted client
 * writes `addressLine1` where the contract says `addressLine`; both are taken.
 */
export const BuyerAddress = Type.Object({
  country: Type.Optional(Nullable(Text(200))),
  subdivision: Type.Optional(Nullable(Text(200))),
  city: Type.Optional(Nullable(Text(200))),
  postalCode: Type.Optional(Nullable(Text(200))),
  addressLine: Type.Optional(Nullable(Text(500))),
  addressLine1: Type.Optional(Nullable(Text(500))),
  addressLine2: Type.Optional(Nullable(Text(500))),
  formattedAddress: Type.Optional(Nullable(Text(1000))),
  countryFullname: Type.Optional(Nullable(Text(200))),
  subdivisionFullname: Type.Optional(Nullable(Text(200))),
  streetAddress: Type.Optional(
    Type.Object({
      number: Type.Optional(Text(200)),
      name: Type.Optional(Text(200)),
      apt: Type.Optional(Text(200)),
    }),
  ),
  geocode: Type.Optional(
    Type.Object({
      latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
      longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
    }),
  ),
});

/**
 * Which catalog item a cart or checkout line is (wire contract: the stores app id, the product id, and
 * `{ variantId }` or `{ options: { Size: 'M' } }` for which of its variants). One schema for both, so
 * what a cart refuses a checkout refuses too, with the same field violation.
 */
export const CatalogReferenceInput = Type.Object({
  appId: Type.Literal(STORES_APP_ID),
  catalogItemId: Id(),
  options: Type.Optional(
    Nullable(
      Type.Object(
        {
          variantId: Type.Optional(Id()),
          // bought by subscription: one of the product's v3 `subscriptionDetails.subscriptions`
          subscriptionOptionId: Type.Optional(Id()),
          // an object of any option names whose values are all text
          options: Type.Optional(
            Type.Unsafe<Record<string, string>>({
              type: 'object',
              additionalProperties: Text(200),
              maxProperties: 20,
            }),
          ),
          // what the shopper wrote, by free-text modifier key (v3) or custom text field title (v1)
          customTextFields: Type.Optional(
            Type.Unsafe<Record<string, string>>({
              type: 'object',
              additionalProperties: Text(500),
              maxProperties: 20,
            }),
          ),
        },
        { maxProperties: 10 },
      ),
    ),
  ),
});

/** A line's description lines as the wire writes them (a cart's, a recorded order's): text or a color. */
export const DescriptionLines = Type.Array(
  Type.Object({
    name: Type.Optional(Type.Object({ original: Text(500), translated: Type.Optional(Nullable(Text(500))) })),
    plainText: Type.Optional(
      Type.Object({ original: Text(500), translated: Type.Optional(Nullable(Text(500))) }),
    ),
    colorInfo: Type.Optional(Type.Object({ original: Text(200), code: Type.Optional(Nullable(Text(50))) })),
    lineType: Type.Optional(Nullable(Text(50))),
  }),
  { maxItems: 20 },
);
