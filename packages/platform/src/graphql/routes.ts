import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type DocumentNode, GraphQLError, type GraphQLFormattedError } from 'graphql';
import mercurius from 'mercurius';
import Type, { type Static } from 'typebox';
import { databaseRefusal } from '../db/errors.ts';
import type { HttpApp } from '../http/app.ts';
import { handleError, wireError } from '../http/errors.ts';
import { Nullable, OpenObject, violationsOf } from '../http/input.ts';
import { AnyValue } from '../http/responses-identity.ts';
import { DomainError } from '../shared/errors.ts';
import type { GraphQLServices } from './fields.ts';
import { checkShape, GRAPHQL_LIMITS, graphqlRefusal } from './guards.ts';
import { KeptAnswers, readsOnlyProducts } from './kept-answers.ts';
import { GRAPHQL_OPERATIONS } from './operations-access.ts';
import { buildSchema, type ContextServices, type GraphQLContext, graphqlContext } from './schema.ts';

/** Why a request's variables take any key: the query declares them, and GraphQL checks each. */
export const VARIABLES_BY_THE_QUERY =
  "the query's variables: GraphQL checks each against the type the query declares";

/** Parsed and validated documents kept by their text (mercurius's `cache`), a few hundred. */
const QUERY_CACHE_SIZE = 512;

const GraphQLRequest = Type.Object({
  query: Type.String({ maxLength: GRAPHQL_LIMITS.queryLength }),
  variables: Type.Optional(Nullable(OpenObject(VARIABLES_BY_THE_QUERY))),
  operationName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
});
type GraphQLRequest = Static<typeof GraphQLRequest>;

/** One request, or a list of them answered in one list (a batch), as GraphQL clients send them. */
const GraphQLBody = Type.Union([
  GraphQLRequest,
  Type.Array(GraphQLRequest, { minItems: 1, maxItems: GRAPHQL_LIMITS.batch }),
]);

const GraphQLErrorAnswer = Type.Object({
  message: Type.String(),
  locations: Type.Optional(Type.Array(Type.Object({ line: Type.Number(), column: Type.Number() }))),
  path: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number()]))),
  extensions: Type.Optional(Type.Object({ code: Type.String(), details: Type.Optional(AnyValue) })),
});
const GraphQLAnswer = Type.Object({
  data: Type.Optional(AnyValue),
  errors: Type.Optional(Type.Array(GraphQLErrorAnswer)),
});
/** The answer: `{data, errors}`, or a list of them for a batch. Sent as text (see `execute`). */
const GraphQLAnswers = Type.Union([GraphQLAnswer, Type.Array(GraphQLAnswer)]);

/**
 * `POST /graphql/{apiVersion}` with `{query, variables}`, as the hosted client's `client.graphql` sends
 * it, on mercurius (see docs/architecture.md, "GraphQL"). Every refusal is in GraphQL's form
 * (`{errors: [{message, extensions: {code, details}}]}`, `code` the specification's error kind and
 * `details` the REST error's): a query's own faults answer 200 as GraphQL over HTTP says, so a client
 * reads them as it reads any answer; a body that is no GraphQL request answers its HTTP status.
 */
export async function graphqlRoutes(
  app: HttpApp,
  services: GraphQLServices & Omit<ContextServices, 'kept'>,
): Promise<void> {
  const kept = new KeptAnswers();
  const schema = buildSchema(services, kept);
  await app.register(async (scope) => {
    await scope.register(mercurius, {
      schema,
      routes: false,
      // a query's parsed and validated document is kept by its text, a few hundred of them
      cache: QUERY_CACHE_SIZE,
      jit: 1,
      graphql: { parseOptions: { maxTokens: GRAPHQL_LIMITS.tokens } },
      // a field's refusal keeps its REST details; a query's own fault is still answered 200 (see above)
      errorFormatter: (execution, context) => ({
        statusCode: 200,
        response: {
          data: execution.data ?? null,
          errors: (execution.errors ?? []).map((error) =>
            formatted(error, (context as unknown as { log: FastifyBaseLogger }).log),
          ),
        },
      }),
    });
    const asksForSchema = new WeakMap<DocumentNode, boolean>();
    // the texts of queries that ask only for product reads (see `execute`), as many as documents are kept
    const productQueries = new Set<string>();
    // the shape is measured once a document is parsed, before the schema's validation rules walk it
    scope.graphql.addHook('preValidation', async (_schema, document, context) => {
      asksForSchema.set(document, checkShape(document).introspects);
      if (readsOnlyProducts(document)) {
        if (productQueries.size >= QUERY_CACHE_SIZE)
          productQueries.delete(productQueries.values().next().value!);
        productQueries.add((context as unknown as { source: string }).source);
      }
    });
    // who may read the schema is the caller's, asked on every request (documents are kept across callers)
    scope.graphql.addHook('preExecution', async (_schema, document, context) => {
      if (asksForSchema.get(document) && !(await (context as unknown as GraphQLContext).mayIntrospect())) {
        throw graphqlRefusal(
          'PERMISSION_DENIED',
          'INTROSPECTION_NOT_ALLOWED',
          "the schema's introspection is for staff, the admin API key and apps' API keys",
        );
      }
    });

    const contextOf = (request: FastifyRequest, source: string) => ({
      ...graphqlContext({ ...services, kept }, request.caller, request.headers.authorization),
      log: request.log,
      source,
    });

    const answerOf = async (request: FastifyRequest, one: GraphQLRequest) => {
      const context = contextOf(request, one.query);
      try {
        const result = await scope.graphql(
          one.query,
          context as unknown as Parameters<typeof scope.graphql>[1],
          one.variables ?? undefined,
          one.operationName ?? undefined,
        );
        return {
          ...(result.data !== undefined ? { data: result.data } : {}),
          ...(result.errors?.length ? { errors: result.errors } : {}),
        };
      } catch (error) {
        const errors = (error as { errors?: unknown[] }).errors;
        const list = Array.isArray(errors) ? errors : [error];
        return { errors: list.map((e) => formatted(e, request.log)) };
      }
    };

    /**
     * One request's answer as JSON text. A query asking only for product reads, from a caller the
     * catalog answers as it answers every visitor (not the admin), is a function of those reads: its
     * text is kept with them (`CatalogService.keptForVisitors`: as long, emptied by the same writes), as
     * REST keeps the reads' own text. An answer with errors is not kept.
     */
    const execute = async (request: FastifyRequest, one: GraphQLRequest): Promise<string> => {
      const kind = request.caller.kind;
      if (
        (kind === 'visitor' || kind === 'member' || kind === 'anonymous') &&
        productQueries.has(one.query)
      ) {
        let clean = false;
        return services.catalog.keptForVisitors(
          JSON.stringify([one.query, one.operationName ?? null, one.variables ?? null]),
          async () => {
            const answer = await answerOf(request, one);
            clean = answer.errors === undefined;
            return JSON.stringify(answer);
          },
          () => clean,
        );
      }
      return JSON.stringify(await answerOf(request, one));
    };

    scope.post(
      '/graphql/:apiVersion',
      {
        schema: {
          params: Type.Object({ apiVersion: Type.String({ maxLength: 50 }) }),
          body: GraphQLBody,
          response: { 200: GraphQLAnswers },
        },
        config: GRAPHQL_OPERATIONS.execute,
        errorHandler: refuseInGraphQLForm,
      },
      async (request, reply) => {
        const body = request.body as GraphQLRequest | GraphQLRequest[];
        const answer = Array.isArray(body)
          ? `[${(await Promise.all(body.map((one) => execute(request, one)))).join(',')}]`
          : await execute(request, body);
        // the answer is what its query asked: sent as JSON text, not through the answers' serializer
        return reply.type('application/json; charset=utf-8').send(answer);
      },
    );
  });
}

/** A GraphQL error in the wire's terms: the specification's kind as `code`, the REST details beside. */
function formatted(error: unknown, log: FastifyBaseLogger): GraphQLFormattedError {
  const graphql = error instanceof GraphQLError ? error : undefined;
  const original = graphql ? graphql.originalError : error;
  const place = graphql
    ? {
        ...(graphql.locations ? { locations: graphql.locations } : {}),
        ...(graphql.path ? { path: graphql.path } : {}),
      }
    : {};
  const domain =
    original instanceof DomainError
      ? original
      : original instanceof Error
        ? databaseRefusal(original)
        : undefined;
  if (domain) {
    const { body } = wireError(domain);
    return { message: domain.message, ...place, extensions: { code: domain.kind, details: body.details } };
  }
  if (graphql && (!original || original instanceof GraphQLError)) {
    const own = (original ?? graphql) as GraphQLError;
    if (own.extensions?.code) return { message: own.message, ...place, extensions: own.extensions };
    const parse = own.message.startsWith('Syntax Error');
    const tokens = own.message.includes('tokens. Parsing aborted');
    const code = tokens ? 'TOO_MANY_TOKENS' : parse ? 'GRAPHQL_PARSE_FAILED' : 'GRAPHQL_VALIDATION_FAILED';
    return {
      message: own.message,
      ...place,
      extensions: {
        code: 'INVALID_ARGUMENT',
        details: { applicationError: { code, description: own.message } },
      },
    };
  }
  log.error({ err: original }, 'unhandled error in a GraphQL field');
  return { message: 'internal error', ...place, extensions: { code: 'INTERNAL' } };
}

/**
 * The route's refusals before any query runs (a body that is no GraphQL request, a query past its
 * length, a batch past its size) in GraphQL's form, with the status and the body the wire gives them.
 */
function refuseInGraphQLForm(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const domain =
    error instanceof DomainError
      ? error
      : error.validation
        ? new DomainError(
            'INVALID_ARGUMENT',
            'INVALID_ARGUMENT',
            violationsOf(error.validation, error.validationContext),
          )
        : undefined;
  if (!domain) return handleError(error, request, reply);
  const { status, body } = wireError(domain);
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send(
      // the wire's error body beside GraphQL's: a REST client's error classes read it as any refusal
      JSON.stringify({
        ...body,
        errors: [{ message: domain.message, extensions: { code: domain.kind, details: body.details } }],
      }),
    );
}
