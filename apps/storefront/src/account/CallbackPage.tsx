import { FormAlert } from '@cartwheel/design';
import { useAuth } from '@cartwheel/react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDocumentTitle } from '../components/hooks.ts';
import { Loading } from '../components/Status.tsx';
import { safeReturnPath } from './return-to.ts';

/**
 * Where the store's login page comes back with `code` and `state` in the query: the code becomes
 * member tokens, then the shopper goes back where they were.
 */
export function CallbackPage() {
  useDocumentTitle('Signing in');
  const { completeRedirectLogin } = useAuth();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string>();
  const started = useRef(false);

  useEffect(() => {
    // once: a code is good for one exchange (StrictMode runs effects twice in development)
    if (started.current) return;
    started.current = true;
    const url = window.location.href;
    const params = new URLSearchParams(window.location.search);
    if (params.get('error')) {
      setProblem(
        params.get('error_description') ?? 'The login page could not sign you in. Please try again.',
      );
      return;
    }
    completeRedirectLogin
      .mutateAsync({ url, responseMode: 'query' })
      .then(({ originalUri }) => navigate(safeReturnPath(originalUri), { replace: true }))
      .catch((error: unknown) =>
        setProblem(
          error instanceof Error && error.message.includes('start signing in again')
            ? error.message
            : 'We could not finish signing you in. Please try again.',
        ),
      );
  }, [completeRedirectLogin, navigate]);

  if (!problem) return <Loading label="Signing you in…" />;
  return (
    <section className="account-page">
      <h1>Sign-in didn’t finish</h1>
      <FormAlert>{problem}</FormAlert>
      <p>
        <Link to="/account/sign-in" className="button">
          Back to sign in
        </Link>
      </p>
    </section>
  );
}
