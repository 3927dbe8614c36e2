import { Field } from '@cartwheel/design';
import { useMailboxMessages } from '@cartwheel/react';
import { HttpError, type MailboxMessage } from '@cartwheel/sdk';
import { type FormEvent, Fragment, type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAdminSession } from '../admin-key.ts';
import { StaffGate, StaffSignIn } from '../components/StaffGate.tsx';

const KIND_NAMES: Record<string, string> = {
  EMAIL_VERIFICATION_CODE: 'Verification code',
  PASSWORD_RESET: 'Password reset',
  ACCOUNT_ACTIVATION: 'Account invitation',
};

const STATUS_NAMES: Record<MailboxMessage['status'], string> = {
  STORED: 'Kept here (no mail server)',
  SENT: 'Sent',
  FAILED: 'Sending failed',
};

/**
 * `/admin/mailbox`: the developer mailbox. Every email the platform sent, or would have sent had a
 * mail server been configured, newest first, so codes and links can be used without a real inbox.
 * Read with the admin key, or by the store's owner signed in as staff (the platform lets no other
 * staff read it: its codes and links open members' accounts).
 */
export function MailboxPage() {
  const { apiKey, staff, signOut } = useAdminSession();
  const [search, setSearch] = useSearchParams();
  const to = search.get('to') ?? '';
  const [refused, setRefused] = useState<string>();

  useEffect(() => {
    document.title = 'Mailbox · Cartwheel back office';
  }, []);

  return (
    <>
      <h1>Mailbox</h1>
      <p className="muted">
        The emails the platform sent lately: verification codes, password reset links and invitations. Without
        a mail server (<code>SMTP_URL</code>) they are only kept here.
      </p>
      {apiKey ? (
        <MailboxMessages
          to={to}
          onFilter={(next) => setSearch(next ? { to: next } : {})}
          onRefused={() => {
            setRefused('The platform did not accept this admin API key.');
            signOut();
          }}
        />
      ) : staff ? (
        <StaffGate>
          {/* a staff member who is not the owner reads why, and stays signed in */}
          <MailboxMessages to={to} onFilter={(next) => setSearch(next ? { to: next } : {})} />
        </StaffGate>
      ) : (
        <StaffSignIn refused={refused} />
      )}
    </>
  );
}

/**
 * The latest 50 messages (to one recipient when filtered), read with the client of whoever signed in;
 * `onRefused` hears a key the platform refused.
 */
function MailboxMessages(props: { to: string; onFilter(next: string): void; onRefused?(): void }) {
  const messages = useMailboxMessages({ limit: 50, ...(props.to ? { to: props.to } : {}) });
  const keyRefused =
    messages.error instanceof HttpError && (messages.error.status === 401 || messages.error.status === 403);
  const { onRefused } = props;
  useEffect(() => {
    if (keyRefused) onRefused?.();
  }, [keyRefused, onRefused]);
  return (
    <>
      <RecipientFilter value={props.to} onChange={props.onFilter} onRefresh={() => void messages.refetch()} />
      <Messages
        messages={messages.data}
        problem={messages.error ? messages.error.message : undefined}
        filtered={Boolean(props.to)}
      />
    </>
  );
}

function RecipientFilter({
  value,
  onChange,
  onRefresh,
}: {
  value: string;
  onChange(next: string): void;
  onRefresh(): void;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  function submit(event: FormEvent) {
    event.preventDefault();
    onChange(draft.trim());
  }
  return (
    <form className="toolbar" onSubmit={submit}>
      <Field
        compact
        label="Recipient"
        type="email"
        placeholder="all recipients"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
      />
      <button className="button" type="submit">
        Filter
      </button>
      <button className="button button--quiet" type="button" onClick={onRefresh}>
        Refresh
      </button>
    </form>
  );
}

function Messages({
  messages,
  problem,
  filtered,
}: {
  messages: MailboxMessage[] | undefined;
  problem: string | undefined;
  filtered: boolean;
}) {
  if (problem) {
    return (
      <p className="form-alert" role="alert">
        {problem}
      </p>
    );
  }
  if (!messages) return <p role="status">Loading messages…</p>;
  if (messages.length === 0) {
    return <p>{filtered ? 'No messages to this recipient.' : 'No messages yet.'}</p>;
  }
  return (
    <ol className="messages" aria-label="Messages">
      {messages.map((message) => (
        <li key={message.id} className="message">
          <article aria-label={message.subject}>
            <header className="message__head">
              <h2 className="message__subject">{message.subject}</h2>
              <span className="badge">{KIND_NAMES[message.kind] ?? message.kind}</span>
            </header>
            <dl className="message__meta">
              <dt>To</dt>
              <dd>{message.to}</dd>
              <dt>Time</dt>
              <dd>
                <time dateTime={message.createdDate}>{new Date(message.createdDate).toLocaleString()}</time>
              </dd>
              <dt>Status</dt>
              <dd>{STATUS_NAMES[message.status] ?? message.status}</dd>
            </dl>
            <div className="message__body">
              <MessageBody text={message.text} />
            </div>
          </article>
        </li>
      ))}
    </ol>
  );
}

/** Links and six-digit codes found in a message body. */
const PIECES = /(https?:\/\/[^\s<>"]+)|\b(\d{6})\b/g;

/** The body as written, with its links clickable and its codes large, each with a copy button. */
export function MessageBody({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(PIECES)) {
    const start = match.index ?? 0;
    if (start > last) parts.push(<Fragment key={`text-${last}`}>{text.slice(last, start)}</Fragment>);
    const [, link, code] = match;
    if (link) {
      parts.push(
        <a key={start} href={link} className="message__link">
          {link}
        </a>,
      );
    } else if (code) {
      parts.push(<VerificationCode key={start} code={code} />);
    }
    last = start + match[0].length;
  }
  if (last < text.length) parts.push(<Fragment key={`text-${last}`}>{text.slice(last)}</Fragment>);
  return <p className="message__text">{parts}</p>;
}

function VerificationCode({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }
  return (
    <span className="code">
      <code className="code__value" data-testid="verification-code">
        {code}
      </code>
      <button className="button button--small" type="button" onClick={copy} aria-label={`Copy code ${code}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
