import type { Kysely, Transaction } from 'kysely';
import pino, { type Logger } from 'pino';
import type { Tables } from '../db/tables.ts';
import { newId } from '../shared/ids.ts';
import type { Workers } from '../workers/runtime.ts';
import type { EmailOutboxRow } from './tables.ts';

export interface OutgoingEmail {
  /** What the message is for, e.g. `EMAIL_VERIFICATION_CODE`. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the text, for mail readers that show it. */
  html?: string;
}

/** A message as the developer mailbox shows it. */
export interface MailboxMessage {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  status: EmailOutboxRow['status'];
  createdDate: string;
  sentDate: string | null;
}

/** Hands a stored message to a mail server; absent when no `SMTP_URL` is configured. */
export type Delivery = (message: OutgoingEmail) => Promise<void>;

export const MAILBOX_MAX_PAGE = 200;
/** How often a process with a mail server looks for queued messages to deliver. */
const DELIVERY_EVERY_MS = 1000;
/** Queued messages one look delivers, oldest first. */
const DELIVERY_BATCH = 20;

/**
 * The platform's one way to send email: every message goes to the outbox table first, then to the
 * mail server when there is one. Without one it is only stored and logged, and the back office's
 * developer mailbox shows it. `send` stores and delivers at once; `queue` writes a message in the
 * transaction of what it tells of (an order placed), so it is sent exactly when that commits, by the
 * delivery every process with a mail server runs (`deliverOn`).
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
      .values(outboxRow(id, message, 'STORED'))
      .execute();
    if (!this.options.deliver) {
      this.log.info(
        { id, to: message.to, subject: message.subject, text: message.text },
        'email stored, not sent (no SMTP_URL)',
      );
      return id;
    }
    await this.deliver(id, message);
    return id;
  }

  /**
   * Stores `message` and hands it to the mail server now, for a caller that keeps its own retries (a
   * back-in-stock request): a refusal or a server that cannot be reached throws, the message kept
   * FAILED in the outbox. Without a mail server it is only stored, as `send` stores it.
   */
  async sendNow(message: OutgoingEmail): Promise<void> {
    const id = newId();
    const status = this.options.deliver ? 'SENDING' : 'STORED';
    await this.db
      .insertInto('email_outbox')
      .values(outboxRow(id, message, status))
      .execute();
    if (this.options.deliver) await this.deliver(id, message, { rethrow: true });
  }

  /**
   * Writes `message` to the outbox inside `trx`: kept exactly when the change it tells of is, and
   * delivered after that commits (within a second, by whichever process with a mail server looks
   * first). Without a mail server it is only stored, as `send` stores it.
   */
  async queue(trx: Transaction<Tables>, message: OutgoingEmail): Promise<void> {
    const status = this.options.deliver ? 'QUEUED' : 'STORED';
    await trx
      .insertInto('email_outbox')
      .values(outboxRow(newId(), message, status))
      .execute();
  }

  /**
   * Queues `message` for the event `eventId` tells of, once: a subscriber of the event bus (which
   * hands it an event at least once) queues a message twice only as one row. Answers whether this
   * call queued it.
   */
  async queueForEvent(eventId: string, message: OutgoingEmail): Promise<boolean> {
    const status = this.options.deliver ? 'QUEUED' : 'STORED';
    const result = await this.db
      .insertInto('email_outbox')
      .values({ ...outboxRow(newId(), message, status), event_id: eventId })
      .onConflict((conflict) => conflict.column('event_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Delivers queued messages every second, as a job of the process's runtime (only with a mail server).
   * Each message is taken by one process (an update that only one can make), so every process may run
   * it and none sends a message twice.
   */
  deliverOn(workers: Workers): void {
    if (!this.options.deliver) return;
    workers.add({
      name: 'email-delivery',
      everyMs: DELIVERY_EVERY_MS,
      run: async () => {
        await this.deliverQueued();
      },
    });
  }

  /** Delivers the oldest queued messages; answers how many this process took. */
  async deliverQueued(): Promise<number> {
    const queued = await this.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('status', '=', 'QUEUED')
      .orderBy('created_at')
      .limit(DELIVERY_BATCH)
      .execute();
    let taken = 0;
    for (const row of queued) {
      const claimed = await this.db
        .updateTable('email_outbox')
        .set({ status: 'SENDING' })
        .where('id', '=', row.id)
        .where('status', '=', 'QUEUED')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) continue; // another process took it
      taken++;
      await this.deliver(row.id, {
        kind: row.kind,
        to: row.to_address,
        subject: row.subject,
        text: row.body_text,
        ...(row.body_html !== null ? { html: row.body_html } : {}),
      });
    }
    return taken;
  }

  /**
   * Hands a stored message to the mail server and marks it SENT, or FAILED for someone to look at
   * (and, with `rethrow`, for the caller to try again its own way).
   */
  private async deliver(id: string, message: OutgoingEmail, options = { rethrow: false }): Promise<void> {
    try {
      await this.options.deliver!(message);
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
      if (options.rethrow) throw error;
    }
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
      html: row.body_html,
      status: row.status,
      createdDate: row.created_at,
      sentDate: row.sent_at,
    }));
  }
}

/** A message's outbox row; the address as the mailbox looks it up (trimmed, lower case). */
function outboxRow(id: string, message: OutgoingEmail, status: EmailOutboxRow['status']): EmailOutboxRow {
  return {
    id,
    kind: message.kind,
    to_address: message.to.trim().toLowerCase(),
    subject: message.subject,
    body_text: message.text,
    body_html: message.html ?? null,
    status,
    error: null,
    created_at: new Date().toISOString(),
    sent_at: null,
  };
}
