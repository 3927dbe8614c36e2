import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifySerializerCompiler } from 'fastify';

/**
 * Route schemas compile when a route is first used, not when the platform starts. Fastify's default
 * compiles every route's input checks (Ajv) and answer serializers (fast-json-stringify) at start:
 * measured at about 1.2 s of a 2 s start on this machine's 2 cores, for routes a process may never
 * serve. A process that starts fast restarts fast behind a load balancer, and the test suite starts
 * hundreds. The first call of a route pays its own compile (milliseconds), once per process; a schema
 * that cannot compile fails that call, so the response-declarations test compiles every route's.
 */
const compileSerializer = SerializerSelector()();

/** A route's answer, as Fastify hands it to a serializer compiler (`httpStatus` is always named). */
export type SerializerRoute = Parameters<typeof compileSerializer>[0];

/** Fastify's own answer serializer for the route, compiled at its first answer. */
export const serializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  let serialize: ((doc: unknown) => string) | undefined;
  return (doc) => {
    serialize ??= compileSerializer(route as SerializerRoute);
    return serialize(doc);
  };
};

export { compileSerializer };
