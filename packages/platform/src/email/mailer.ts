import type { Kysely } from 'kysely';
import pino, { type Logger } from 'pino';
import type { Tables } from '../db/tables.ts';
import { newId } from '../shared/ids.ts';
import type { EmailOutboxRow } from './tables.ts';

export interface OutgoingEmail {
  /** What the message is for, e.g. `EMAIL_VERIFICATION_CODE`. */
  kind: string;
  to: string;
  subject: string;
  text: string;
}

/** A message as the developer mailbox shows it. */
export interface MailboxMessage {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  status: EmailOutboxRow['status'];
  createdDate: string;
  sentDate: string | null;
}

/** Hands a stored message to a mail server; absent when no `SMTP_URL` is configured. */
export type Delivery = (message: OutgoingEmail) => Promise<void>;

export const MAILBOX_MAX_PAGE = 200;

/**
 * The platform's one way to send email: every message goes to the outbox table first, then to the
 * mail server when there is one. Without one it is only stored and logged, and the back office's
 * developer mailbox shows it.
 */
export class Mailer {
  private readonly log: Logger;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly options: { logLevel: string; deliver?: Delivery | undefined },
  ) {
    this.log = pino({ level: options.logLevel, name: 'email' });
  }

  async send(message: OutgoingEmail): Promise<string> {
    const id = newId();
    await this.db
      .insertInto('email_outbox')
      .values({
        id,
        kind: message.kind,
        to_address: message.to,
        subject: message.subject,
        body_text: message.text,
        status: 'STORED',
        error: null,
        created_at: new Date().toISOString(),
        sent_at: null,
      })
      .execute();
    if (!this.options.deliver) {
      this.log.info(
        { id, to: message.to, subject: message.subject, text: message.text },
        'email stored, not sent (no SMTP_URL)',
      );
      return id;
    }
    try {
      await this.options.deliver(message);
      await this.db
        .updateTable('email_outbox')
        .set({ status: 'SENT', sent_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    } catch (error) {
      // the flow that asked goes on: the message stays in the outbox, marked, for someone to look at
      this.log.error({ id, to: message.to, err: error }, 'email delivery failed');
      await this.db
        .updateTable('email_outbox')
        .set({ status: 'FAILED', error: String(error instanceof Error ? error.message : error) })
        .where('id', '=', id)
        .execute();
    }
    return id;
  }

  /** The latest messages first, optionally only those to one address or of one kind. */
  async recent(filter: { limit?: number; to?: string; kind?: string } = {}): Promise<MailboxMessage[]> {
    const limit = Math.max(1, Math.min(MAILBOX_MAX_PAGE, Math.trunc(filter.limit ?? 50) || 50));
    let query = this.db.selectFrom('email_outbox').selectAll();
    if (filter.to) query = query.where('to_address', '=', filter.to.trim().toLowerCase());
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      to: row.to_address,
      subject: row.subject,
      text: row.body_text,
      status: row.status,
      createdDate: row.created_at,
      sentDate: row.sent_at,
    }));
  }
}
