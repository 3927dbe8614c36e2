import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import type { Problem } from '../problems.ts';

/**
 * A labelled input. `invalid` marks it as the one a problem (shown above the form) is about; `error` is
 * a message of its own, announced and tied to it with aria-describedby.
 */
export function Field({
  label,
  hint,
  error,
  invalid,
  ...input
}: {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  invalid?: boolean | undefined;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error || invalid ? 'field field--invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        aria-invalid={error || invalid ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function SubmitButton({
  busy,
  children,
  busyText,
}: {
  busy: boolean;
  children: ReactNode;
  busyText: string;
}) {
  return (
    <button className="button button--primary" type="submit" disabled={busy} aria-busy={busy}>
      {busy ? busyText : children}
    </button>
  );
}

/** Where each problem's next step leads, given the page's links (they keep the authorization request). */
export interface ProblemLinks {
  login?: string;
  signup?: string;
  forgotPassword?: string;
  newLink?: string;
  onResend?: () => void;
}

/** A problem, said out loud to screen readers, with the step that helps. */
export function ProblemMessage({
  problem,
  links = {},
}: {
  problem: Problem | undefined;
  links?: ProblemLinks;
}) {
  if (!problem) return null;
  return (
    <div className="notice notice--error" role="alert">
      <p>{problem.message}</p>
      {problem.action === 'forgot-password' && links.forgotPassword ? (
        <Link to={links.forgotPassword}>Reset your password</Link>
      ) : null}
      {problem.action === 'signup' && links.signup ? <Link to={links.signup}>Create an account</Link> : null}
      {problem.action === 'login' && links.login ? <Link to={links.login}>Go to sign in</Link> : null}
      {problem.action === 'new-link' && links.newLink ? (
        <Link to={links.newLink}>Send me a new link</Link>
      ) : null}
      {problem.action === 'resend' && links.onResend ? (
        <button className="button button--link" type="button" onClick={links.onResend}>
          Send a new code
        </button>
      ) : null}
    </div>
  );
}

export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'success' }) {
  return (
    <div className={`notice notice--${tone}`} role="status">
      {children}
    </div>
  );
}
