/** Every message the platform sends, kept: the developer mailbox reads it, SMTP delivery updates it. */
export interface EmailTables {
  email_outbox: EmailOutboxRow;
}

export interface EmailOutboxRow {
  id: string;
  /** What the message is for (`EMAIL_VERIFICATION_CODE`, `PASSWORD_RESET`, ...): the mailbox filters on it. */
  kind: string;
  to_address: string;
  subject: string;
  body_text: string;
  /** The HTML part, when the message has one (the text part is for mail readers without HTML). */
  body_html: string | null;
  /**
   * STORED (no SMTP configured), QUEUED (written in a transaction, to be delivered once committed),
   * SENDING (a process took it for delivery), SENT, or FAILED.
   */
  status: 'STORED' | 'QUEUED' | 'SENDING' | 'SENT' | 'FAILED';
  error: string | null;
  created_at: string;
  sent_at: string | null;
  /** The event a subscriber of the bus sent it for (unique): null for the others. */
  event_id?: string | null;
}
