import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { HttpApp } from '../http/app.ts';
import type { Operation } from '../shared/access.ts';
import type { Viewer } from './storage.ts';

/** Who reads: an admin sees hidden products' entries too. */
export const viewer = (request: FastifyRequest): Viewer => ({ admin: request.principal.kind === 'admin' });

/** The v3 answers are JSON text their services rendered: sent as they are. */
export const json = (reply: FastifyReply, text: string) =>
  reply.type('application/json; charset=utf-8').send(text);

/** A v3 read the hosted client sends as GET (the request in `.r` or the query) and as POST past its URL limit. */
export function readRoute<S extends TSchema>(
  app: HttpApp,
  path: string,
  operation: Operation,
  schema: S,
  answerSchema: TSchema,
  answer: (input: Static<S>, request: FastifyRequest) => Promise<string>,
  methods: ReadonlyArray<'GET' | 'POST'> = ['GET', 'POST'],
): void {
  if (methods.includes('GET')) {
    app.get(
      path,
      { config: operation, schema: { querystring: schema, response: { 200: answerSchema } } },
      async (request, reply) => json(reply, await answer(request.query as Static<S>, request)),
    );
  }
  if (methods.includes('POST')) {
    app.post(
      path,
      { config: operation, schema: { body: schema, response: { 200: answerSchema } } },
      async (request, reply) => json(reply, await answer((request.body ?? {}) as Static<S>, request)),
    );
  }
}
