import { FormAlert } from '@cartwheel/design';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Problem } from '../problems.ts';

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
    <FormAlert>
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
    </FormAlert>
  );
}

export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'success' }) {
  return (
    <div className={`notice notice--${tone}`} role="status">
      {children}
    </div>
  );
}
