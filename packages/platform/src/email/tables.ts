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
  /** STORED (no SMTP configured), SENT, or FAILED. */
  status: 'STORED' | 'SENT' | 'FAILED';
  error: string | null;
  created_at: string;
  sent_at: string | null;
}
