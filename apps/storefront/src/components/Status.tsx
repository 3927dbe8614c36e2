import type { ReactNode } from 'react';
import { Link } from 'react-router';

export function Loading({ label }: { label: string }) {
  return (
    <div className="status" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

/** An error a shopper understands: what failed, and a way to try again. */
export function ErrorMessage({ what, error, retry }: { what: string; error: unknown; retry?: () => void }) {
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  return (
    <div className="status status--error" role="alert">
      <p>
        We couldn't load {what}. {offline ? 'You seem to be offline.' : 'Please try again in a moment.'}
      </p>
      {retry ? (
        <button type="button" className="button button--secondary" onClick={retry}>
          Try again
        </button>
      ) : null}
      {import.meta.env.DEV && error instanceof Error ? (
        <pre className="status__detail">{error.message}</pre>
      ) : null}
    </div>
  );
}

export function NotFound({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="not-found">
      <h1>{title}</h1>
      {children}
      <p>
        <Link to="/" className="button">
          Back to the home page
        </Link>
      </p>
    </section>
  );
}
