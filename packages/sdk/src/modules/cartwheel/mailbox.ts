import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import { CARTWHEEL_API } from './domains.ts';

/** An email the platform sent, or kept because no mail server is set (platform email/mailer.ts). */
export interface MailboxMessage {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  status: 'STORED' | 'SENT' | 'FAILED';
  createdDate: string;
  sentDate: string | null;
}

export interface MailboxQuery {
  /** At most this many, newest first. */
  limit?: number;
  /** Only the messages to this address. */
  to?: string;
  /** Only the messages of this kind (`EMAIL_VERIFICATION_CODE`, `PASSWORD_RESET`, ...). */
  kind?: string;
}

/**
 * The developer mailbox, a Cartwheel call for the admin API key only (messages hold codes and links):
 * `GET /api/cartwheel/mailbox?limit=&to=&kind=`.
 */
export const cartwheelMailbox = {
  listMessages:
    (transport: Transport) =>
    (query: MailboxQuery = {}): Promise<{ messages: MailboxMessage[] }> =>
      transport.request({
        method: 'GET',
        path: '/mailbox',
        mapping: CARTWHEEL_API,
        params: { limit: query.limit, to: query.to, kind: query.kind },
        trace: {
          package: '@cartwheel/sdk',
          method: 'cartwheel.mailbox.v1.Mailbox.ListMessages',
          entity: 'message',
        },
      }),
} satisfies ModuleDefinition;
