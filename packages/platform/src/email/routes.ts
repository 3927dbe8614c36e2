import Type from 'typebox';
import type { HttpApp } from '../http/app.ts';
import { Text } from '../http/input.ts';
import type { Mailer } from './mailer.ts';
import { MAILBOX_MAX_PAGE } from './mailer.ts';
import { EMAIL_OPERATIONS } from './operations-access.ts';
import { MailboxAnswer } from './responses.ts';

const MailboxQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAILBOX_MAX_PAGE })),
  to: Type.Optional(Text(320)),
  kind: Type.Optional(Text(64)),
});

/**
 * `GET /api/cartwheel/mailbox`: the developer mailbox, for the admin key and the store's owner only
 * (its messages hold codes and links into members' accounts, beyond any staff role's permissions).
 */
export function emailRoutes(app: HttpApp, services: { mailer: Pick<Mailer, 'recent'> }): void {
  app.get(
    '/api/cartwheel/mailbox',
    {
      schema: { querystring: MailboxQuery, response: { 200: MailboxAnswer } },
      config: EMAIL_OPERATIONS.listMailbox,
    },
    async (request) => {
      const { limit, to, kind } = request.query;
      const messages = await services.mailer.recent({
        ...(limit !== undefined ? { limit } : {}),
        ...(to !== undefined ? { to } : {}),
        ...(kind !== undefined ? { kind } : {}),
      });
      return { messages };
    },
  );
}
