import { type FormEvent, Fragment, type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { adminGet, KeyRefusedError, useAdminSession } from '../admin-key.ts';
import { AdminKeyForm } from '../components/AdminKeyForm.tsx';

/** A message as `GET /api/cartwheel/mailbox` answers it (platform email/mailer.ts). */
interface MailboxMessage {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  status: 'STORED' | 'SENT' | 'FAILED';
  createdDate: string;
  sentDate: string | null;
}

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

type Load =
  | { state: 'loading' }
  | { state: 'loaded'; messages: MailboxMessage[] }
  | { state: 'failed'; message: string };

/**
 * `/admin/mailbox`: the developer mailbox. Every email the platform sent, or would have sent had a
 * mail server been configured, newest first, so codes and links can be used without a real inbox.
 */
export function MailboxPage() {
  const { apiKey, signOut } = useAdminSession();
  const [search, setSearch] = useSearchParams();
  const to = search.get('to') ?? '';
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [refused, setRefused] = useState<string>();

  useEffect(() => {
    document.title = 'Mailbox · Cartwheel back office';
  }, []);

  const refresh = useCallback(async () => {
    if (!apiKey) return;
    setLoad({ state: 'loading' });
    try {
      const query = new URLSearchParams({ limit: '50', ...(to ? { to } : {}) });
      const { messages } = await adminGet<{ messages: MailboxMessage[] }>(
        `/api/cartwheel/mailbox?${query}`,
        apiKey,
      );
      setLoad({ state: 'loaded', messages });
    } catch (error) {
      if (error instanceof KeyRefusedError) {
        setRefused(error.message);
        signOut();
        return;
      }
      setLoad({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }, [apiKey, to, signOut]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <>
      <h1>Mailbox</h1>
      <p className="muted">
        The emails the platform sent lately: verification codes, password reset links and invitations. Without
        a mail server (<code>SMTP_URL</code>) they are only kept here.
      </p>
      {!apiKey ? (
        <AdminKeyForm refused={refused} />
      ) : (
        <>
          <RecipientFilter
            value={to}
            onChange={(next) => setSearch(next ? { to: next } : {})}
            onRefresh={() => void refresh()}
          />
          <Messages load={load} filtered={Boolean(to)} />
        </>
      )}
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
  const id = useId();
  useEffect(() => setDraft(value), [value]);
  function submit(event: FormEvent) {
    event.preventDefault();
    onChange(draft.trim());
  }
  return (
    <form className="toolbar" onSubmit={submit}>
      <label htmlFor={id}>Recipient</label>
      <input
        id={id}
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

function Messages({ load, filtered }: { load: Load; filtered: boolean }) {
  if (load.state === 'loading') return <p role="status">Loading messages…</p>;
  if (load.state === 'failed') {
    return (
      <p className="alert" role="alert">
        {load.message}
      </p>
    );
  }
  if (load.messages.length === 0) {
    return <p>{filtered ? 'No messages to this recipient.' : 'No messages yet.'}</p>;
  }
  return (
    <ol className="messages" aria-label="Messages">
      {load.messages.map((message) => (
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
