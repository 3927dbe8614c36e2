import type { HttpApp } from '../http/app.ts';
import type { Services } from '../platform.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { MAILBOX_MAX_PAGE } from './mailer.ts';

interface MailboxQuery {
  limit?: string | number;
  to?: string;
  kind?: string;
}

/** `GET /api/cartwheel/mailbox`: the developer mailbox, admins only (messages hold codes and links). */
export function emailRoutes(app: HttpApp, services: Pick<Services, 'mailer'>): void {
  app.get<{ Querystring: MailboxQuery }>('/api/cartwheel/mailbox', async (request) => {
    const { limit, to, kind } = request.query ?? {};
    const count = limit === undefined ? undefined : Number(limit);
    if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > MAILBOX_MAX_PAGE)) {
      throw invalidArgument([
        violation('limit', `must be a whole number from 1 to ${MAILBOX_MAX_PAGE}`, 'MAX'),
      ]);
    }
    const messages = await services.mailer.recent({
      ...(count !== undefined ? { limit: count } : {}),
      ...(typeof to === 'string' ? { to } : {}),
      ...(typeof kind === 'string' ? { kind } : {}),
    });
    return { messages };
  });
}
