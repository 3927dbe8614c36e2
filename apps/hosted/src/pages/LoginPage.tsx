import { Field, SubmitButton } from '@cartwheel/design';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { authorizationRequestOf, withRequest } from '../authorization.ts';
import { CHECKING_TEXT, captchaProblemOf, useCaptcha } from '../captcha.ts';
import { useHostedConfig } from '../components/HostedConfig.ts';
import { HostedPage } from '../components/Layout.tsx';
import { Notice, ProblemMessage } from '../components/Notices.tsx';
import { SecondStepForm } from '../components/SecondStepForm.tsx';
import { identityClient, type SignInStep, signInStepOf } from '../identity.ts';
import { type Problem, problemOf } from '../problems.ts';
import { useContinueSignIn } from '../sign-in.ts';

/** `/auth/login?<authorization request>`: email and password, then back to the authorization endpoint. */
export function LoginPage() {
  const config = useHostedConfig();
  const [search] = useSearchParams();
  const request = useMemo(() => authorizationRequestOf(search.toString()), [search]);
  const continueSignIn = useContinueSignIn();
  const captcha = useCaptcha();
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [waitingForApproval, setWaitingForApproval] = useState(false);
  const [secondStep, setSecondStep] = useState<Extract<SignInStep, { step: 'second-factor' }>>();
  const client = identityClient(request?.clientId ?? config.clientId);

  /** Where the sign-in goes after an answer: on, or a step this page shows. */
  async function onward(step: SignInStep) {
    const left = await continueSignIn(step, {
      request,
      email: email.trim(),
      returnTo: search.get('redirect'),
    });
    if (left?.step === 'owner-approval') setWaitingForApproval(true);
    else if (left?.step === 'second-factor') setSecondStep(left);
    else if (left?.step === 'unknown') {
      setProblem({ message: 'Signing in needs a step these pages cannot do yet. Please contact the store.' });
    }
    if (left) setBusy(false);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    setWaitingForApproval(false);
    try {
      // a solved captcha rides along when the site asks for one
      const answer = await captcha.run((captchaTokens) =>
        client.authentication.login(
          { email: email.trim() },
          { password, ...(captchaTokens ? { captchaTokens } : {}) },
        ),
      );
      await onward(signInStepOf(answer));
    } catch (error) {
      setProblem(captchaProblemOf(error) ?? problemOf(error));
      setBusy(false);
    }
  }

  // what the member typed, and where to return, follow them to the next page
  const pageParams = { email: email.trim(), redirect: search.get('redirect') ?? '' };
  const links = {
    signup: withRequest('/signup', request, pageParams),
    forgotPassword: withRequest('/forgot-password', request, pageParams),
  };
  return (
    <HostedPage
      title="Sign in"
      intro={<p>Sign in to your {config.storeName} account.</p>}
      footer={
        <p>
          New here? <Link to={links.signup}>Create an account</Link>
        </p>
      }
    >
      {waitingForApproval ? (
        <Notice>
          <p>Your account is waiting for the store owner's approval. You can sign in once they approve it.</p>
        </Notice>
      ) : null}
      {secondStep ? (
        <SecondStepForm client={client} step={secondStep} onAnswer={onward} />
      ) : (
        <>
          <ProblemMessage problem={problem} links={links} />
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
            <Field
              label="Password"
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              invalid={problem?.field === 'password'}
            />
            <p className="form__aside">
              <Link to={links.forgotPassword}>Forgot your password?</Link>
            </p>
            <SubmitButton pending={busy} pendingText={captcha.checking ? CHECKING_TEXT : 'Signing in…'}>
              Sign in
            </SubmitButton>
          </form>
        </>
      )}
    </HostedPage>
  );
}
