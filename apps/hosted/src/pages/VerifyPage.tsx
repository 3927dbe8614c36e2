import { Field, SubmitButton } from '@cartwheel/design';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { authorizationRequestOf, withRequest } from '../authorization.ts';
import { HostedPage } from '../components/Layout.tsx';
import { Notice, ProblemMessage } from '../components/Notices.tsx';
import {
  clearPendingVerification,
  identityClient,
  loadPendingVerification,
  signInStepOf,
} from '../identity.ts';
import { type Problem, problemOf } from '../problems.ts';
import { useContinueSignIn } from '../sign-in.ts';

/** `/auth/verify`: the 6-digit code emailed to a member whose sign-in waits for it. */
export function VerifyPage() {
  const [pending] = useState(loadPendingVerification);
  const continueSignIn = useContinueSignIn();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [resent, setResent] = useState(false);
  const [waitingForApproval, setWaitingForApproval] = useState(false);

  if (!pending) {
    return (
      <HostedPage title="Verify your email">
        <Notice>
          <p>
            There is no sign-in waiting for a code in this tab. Sign in again and we'll email you a new code.
          </p>
        </Notice>
        <p>
          <Link to="/login">Go to sign in</Link>
        </p>
      </HostedPage>
    );
  }
  const client = identityClient(pending.clientId);
  const request = authorizationRequestOf(pending.request);
  const login = request ? `/login?${request.params.toString()}` : '/login';
  const forgotPassword = withRequest('/forgot-password', request, { email: pending.email });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setProblem({ message: 'Enter the 6-digit code from the email.', field: 'code' });
      return;
    }
    setBusy(true);
    setProblem(undefined);
    setResent(false);
    try {
      const answer = await client.verification.verifyDuringAuthentication(code.trim(), {
        stateToken: pending!.stateToken,
      });
      const step = signInStepOf(answer);
      if (step.step !== 'verify-email') clearPendingVerification();
      const left = await continueSignIn(step, { request, email: pending!.email });
      if (left?.step === 'owner-approval') setWaitingForApproval(true);
      else if (left?.step === 'unknown') {
        setProblem({
          message: 'Your email is verified, but signing in needs a step these pages cannot do yet.',
        });
      }
      if (left) setBusy(false);
    } catch (error) {
      setProblem(problemOf(error));
      setBusy(false);
    }
  }

  async function resend() {
    setProblem(undefined);
    setResent(false);
    try {
      await client.verification.resendDuringAuthentication(pending!.stateToken);
      setCode('');
      setResent(true);
    } catch (error) {
      setProblem(problemOf(error));
    }
  }

  if (waitingForApproval) {
    return (
      <HostedPage title="Email verified">
        <Notice tone="success">
          <p>
            Thanks, your email is verified. Your account is waiting for the store owner's approval: you can
            sign in once they approve it.
          </p>
        </Notice>
      </HostedPage>
    );
  }
  return (
    <HostedPage
      title="Verify your email"
      intro={
        <p>
          We emailed a 6-digit code to <strong>{pending.email || 'your email address'}</strong>. Enter it to
          finish signing in. It works for 15 minutes.
        </p>
      }
      footer={
        <p>
          Wrong email? <Link to={login}>Sign in again</Link>
        </p>
      }
    >
      {resent ? (
        <Notice tone="success">
          <p>We sent a new code. The old one no longer works.</p>
        </Notice>
      ) : null}
      <ProblemMessage problem={problem} links={{ login, forgotPassword, onResend: resend }} />
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label="Verification code"
          name="code"
          className="input--code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
          invalid={problem?.field === 'code'}
        />
        <SubmitButton pending={busy} pendingText="Checking…">
          Verify
        </SubmitButton>
      </form>
      <p className="form__after">
        Didn't get it?{' '}
        <button className="button button--link" type="button" onClick={resend}>
          Send a new code
        </button>
      </p>
    </HostedPage>
  );
}
