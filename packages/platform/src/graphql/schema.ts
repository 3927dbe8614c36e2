import type { ProductVariant } from '@cartwheel/sdk';
import {
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  GraphQLID,
  type GraphQLInputType,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from 'graphql';
import type { TSchema } from 'typebox';
import { CATALOG_OPERATIONS } from '../catalog/operations-access.ts';
import { ProductAnswer } from '../catalog/responses.ts';
import type { CatalogService } from '../catalog/service.ts';
import { compileValidator, violationsOf } from '../http/input.ts';
import { invalidArgument } from '../shared/errors.ts';
import type { Access, Caller, Principal } from '../shared/principal.ts';
import type { StaffService } from '../staff/service.ts';
import { type Argument, type GraphQLServices, type RootField, rootFields } from './fields.ts';
import type { KeptAnswers } from './kept-answers.ts';
import { BatchLoader } from './loader.ts';
import { JsonScalar, OutputTypes } from './output-types.ts';

/** What every resolver of one request is handed (mercurius's context, with these added). */
export interface GraphQLContext {
  authorization: string | undefined;
  /** The principal an operation's access check presents the caller as; throws its refusal. */
  principalFor(access: Access): Promise<Principal>;
  /** Whether the caller may read the schema itself (staff, the admin key, an app's key). */
  mayIntrospect(): Promise<boolean>;
  /** `Product.variants` of every product the request lists, read together. */
  variants: BatchLoader<string, ProductVariant[]>;
}

/** What a request's context needs beyond the fields' services: the access check, and who is staff. */
export interface ContextServices {
  catalog: Pick<CatalogService, 'variantsJson'>;
  /** The parsed catalog texts the fields share (kept-answers.ts). */
  kept: KeptAnswers;
  staff: Pick<StaffService, 'authorityOf'>;
  authorize(access: Access, caller: Caller): Promise<Principal>;
}

/** One request's context: its caller's principal per access (checked once each), and its loaders. */
export function graphqlContext(
  services: ContextServices,
  caller: Caller,
  authorization: string | undefined,
): GraphQLContext {
  const principals = new Map<string, Promise<Principal>>();
  const principalFor = (access: Access) => {
    const key = typeof access === 'string' ? access : `${access.callers}:${access.requires}`;
    let principal = principals.get(key);
    if (!principal) {
      principal = services.authorize(access, caller);
      principals.set(key, principal);
    }
    return principal;
  };
  return {
    authorization,
    principalFor,
    mayIntrospect: async () =>
      caller.kind === 'admin' ||
      caller.kind === 'apiKey' ||
      (caller.kind === 'member' && (await services.staff.authorityOf(caller.memberId)) !== undefined),
    variants: new BatchLoader(async (ids) => {
      // the products came from the catalog's reads, which anyone may make: their viewer is the same
      const principal = await principalFor(CATALOG_OPERATIONS.queryProducts.access);
      const admin = principal.kind === 'admin';
      const text = await services.catalog.variantsJson(ids, { admin });
      return new Map(Object.entries(services.kept.parse(text, !admin) as Record<string, ProductVariant[]>));
    }),
  };
}

type Checker = (value: unknown, argument: string) => void;

/**
 * A structured argument's check: the REST body's schema, compiled as the REST route compiles it, at
 * its first use (compiling every field's at start was a third of a second of every process's start).
 */
function checkerOf(schema: TSchema): Checker {
  let compiled: ReturnType<typeof compileValidator> | undefined;
  return (value, argument) => {
    compiled ??= compileValidator({ schema, httpPart: 'body', url: '', method: 'POST' });
    const validate = compiled;
    if (validate(value)) return;
    const violations = violationsOf(
      (validate as unknown as { errors: Parameters<typeof violationsOf>[0] }).errors ?? [],
      argument,
    );
    throw invalidArgument(
      violations.map((found) => ({
        ...found,
        field: found.field === argument ? argument : `${argument}.${found.field}`,
      })),
    );
  };
}

function argumentType(argument: Argument): GraphQLInputType {
  const type = argument.kind === 'id' ? GraphQLID : argument.kind === 'text' ? GraphQLString : JsonScalar;
  return argument.required ? new GraphQLNonNull(type) : type;
}

/**
 * The platform's GraphQL schema: a root field per operation `fields.ts` lists, each checking its
 * operation's access (the entry REST reads) before its service is called, its structured arguments
 * checked by the REST body's schema, and its type made from the REST answer's schema.
 */
export function buildSchema(services: GraphQLServices, kept: KeptAnswers): GraphQLSchema {
  const types = new OutputTypes();
  const { query, mutation } = rootFields(services, kept);
  const rootType = (name: string, fields: Record<string, RootField>) => {
    const config: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
    // the entities first, so a shared schema (Product) takes its own name, not its page's
    const ordered = Object.entries(fields).sort(([, a], [, b]) => Number(!a.unwrap) - Number(!b.unwrap));
    for (const [fieldName, field] of ordered) config[fieldName] = rootFieldConfig(field, types);
    return new GraphQLObjectType({
      name,
      fields: Object.fromEntries(Object.keys(fields).map((key) => [key, config[key]!])),
    });
  };
  const schema = new GraphQLSchema({
    query: rootType('Query', query),
    mutation: rootType('Mutation', mutation),
  });

  // a product read from a page carries no variants: they are loaded for the whole page at once
  const product = types.of(ProductAnswer.properties.product, 'Product') as GraphQLObjectType;
  const variants = product.getFields().variants;
  if (!variants) throw new Error('the Product answer names no variants');
  variants.resolve = (parent: { id?: string; variants?: ProductVariant[] }, _args, context: GraphQLContext) =>
    parent.variants ?? (parent.id ? context.variants.load(parent.id).then((found) => found ?? []) : []);
  return schema;
}

function rootFieldConfig(field: RootField, types: OutputTypes) {
  const answer = field.unwrap
    ? ((field.answer as unknown as { properties: Record<string, TSchema> }).properties[
        field.unwrap
      ] as TSchema)
    : field.answer;
  const args: GraphQLFieldConfigArgumentMap = {};
  const checks: Array<[string, Checker]> = [];
  for (const [name, argument] of Object.entries(field.args)) {
    args[name] = { type: argumentType(argument) };
    if (argument.kind === 'input') checks.push([name, checkerOf(argument.schema)]);
  }
  return {
    type: types.of(answer as Record<string, unknown>, field.typeName),
    description: `${field.description} Operation ${field.operation.operation}.`,
    args,
    resolve: async (_root: unknown, values: Record<string, unknown>, context: GraphQLContext) => {
      // who may call is the operation's, checked before its input is read (as REST does)
      const principal = await context.principalFor(field.operation.access);
      for (const [name, check] of checks) {
        if (values[name] !== undefined && values[name] !== null) check(values[name], name);
      }
      return field.resolve(values, { principal, authorization: context.authorization });
    },
  };
}
