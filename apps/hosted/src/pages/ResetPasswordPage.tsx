import { Field, SubmitButton } from '@cartwheel/design';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useHostedConfig } from '../components/HostedConfig.ts';
import { HostedPage } from '../components/Layout.tsx';
import { Notice, ProblemMessage } from '../components/Notices.tsx';
import { identityClient } from '../identity.ts';
import { type Problem, problemOf } from '../problems.ts';

/** `/auth/reset-password?token=...&redirect=...`: the emailed link's page, where a new password is set. */
export function ResetPasswordPage() {
  const config = useHostedConfig();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const back = returnAddress(search.get('redirect'));
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [done, setDone] = useState(false);

  if (!token) {
    return (
      <HostedPage title="Reset your password">
        <ProblemMessage
          problem={{ message: 'This reset link is incomplete. Ask for a new one.', action: 'new-link' }}
          links={{ newLink: '/forgot-password' }}
        />
      </HostedPage>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(undefined);
    if (password !== again) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    setBusy(true);
    try {
      await identityClient(config.clientId).recovery.recover(token, { password });
      setDone(true);
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  }

  const goBack = (
    <a className="button button--primary" href={back.href}>
      Continue to {back.sameSite ? config.storeName : back.host}
    </a>
  );
  if (done) {
    return (
      <HostedPage title="Password changed">
        <Notice tone="success">
          <p>Your new password is set. Use it the next time you sign in.</p>
        </Notice>
        <div className="actions">
          {goBack}
          <Link to="/login">Sign in</Link>
        </div>
      </HostedPage>
    );
  }
  return (
    <HostedPage title="Choose a new password">
      <ProblemMessage problem={problem} links={{ newLink: '/forgot-password', login: '/login' }} />
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label="New password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          hint="At least 6 characters."
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          invalid={problem?.field === 'password'}
        />
        <Field
          label="Repeat the new password"
          type="password"
          name="passwordAgain"
          autoComplete="new-password"
          required
          value={again}
          onChange={(event) => setAgain(event.target.value)}
          error={mismatch ? 'The two passwords are not the same.' : undefined}
        />
        <SubmitButton pending={busy} pendingText="Saving…">
          Set new password
        </SubmitButton>
      </form>
    </HostedPage>
  );
}

/** The `redirect` of the link when it is a web address, else the store's home. */
function returnAddress(redirect: string | null): { href: string; host: string; sameSite: boolean } {
  const home = { href: '/', host: window.location.host, sameSite: true };
  if (!redirect) return home;
  try {
    const url = new URL(redirect, window.location.origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return home;
    return { href: url.toString(), host: url.host, sameSite: url.origin === window.location.origin };
  } catch {
    return home;
  }
}
