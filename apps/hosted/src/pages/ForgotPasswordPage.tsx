import { Field, SubmitButton } from '@cartwheel/design';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { authorizationRequestOf, withRequest } from '../authorization.ts';
import { useHostedConfig } from '../components/HostedConfig.ts';
import { HostedPage } from '../components/Layout.tsx';
import { Notice, ProblemMessage } from '../components/Notices.tsx';
import { identityClient } from '../identity.ts';
import { type Problem, problemOf } from '../problems.ts';

/**
 * `/auth/forgot-password`: emails a reset link. The answer is the same whether or not the email has an
 * account, so the page cannot tell anyone who shops here.
 */
export function ForgotPasswordPage() {
  const config = useHostedConfig();
  const [search] = useSearchParams();
  const request = useMemo(() => authorizationRequestOf(search.toString()), [search]);
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [sentTo, setSentTo] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    const clientId = request?.clientId ?? config.clientId;
    try {
      await identityClient(clientId).recovery.sendRecoveryEmail(email.trim(), {
        language: 'en',
        redirect: { url: landingPage(search.get('redirect'), request?.params.get('redirect_uri')), clientId },
      });
      setSentTo(email.trim());
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  }

  const login = withRequest('/login', request);
  if (sentTo) {
    return (
      <HostedPage title="Check your email" footer={<Link to={login}>Back to sign in</Link>}>
        <Notice tone="success">
          <p>
            If an account exists for <strong>{sentTo}</strong>, we sent it a link to reset the password. The
            link works for an hour.
          </p>
        </Notice>
        <p className="muted">No email? Check your spam folder, or try again in a few minutes.</p>
      </HostedPage>
    );
  }
  return (
    <HostedPage
      title="Reset your password"
      intro={<p>Enter the email of your account and we'll send you a link to choose a new password.</p>}
      footer={
        <p>
          Remembered it? <Link to={login}>Sign in</Link>
        </p>
      }
    >
      <ProblemMessage problem={problem} />
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          invalid={problem?.field === 'email'}
        />
        <SubmitButton pending={busy} pendingText="Sending…">
          Send reset link
        </SubmitButton>
      </form>
    </HostedPage>
  );
}

/**
 * Where the reset page's button leads: the `redirect` this page was given, else the home of the app
 * that asked for the sign-in, else the store. The platform keeps it only if the client registered it.
 */
function landingPage(redirect: string | null, redirectUri: string | null | undefined): string {
  for (const candidate of [redirect, redirectUri ? `${new URL(redirectUri).origin}/` : null]) {
    if (!candidate) continue;
    try {
      const url = new URL(candidate, window.location.origin);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
    } catch {
      // not an address: try the next one
    }
  }
  return `${window.location.origin}/`;
}
