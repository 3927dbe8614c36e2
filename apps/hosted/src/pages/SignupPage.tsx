import { Field, SubmitButton } from '@cartwheel/design';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { authorizationRequestOf, withRequest } from '../authorization.ts';
import { CHECKING_TEXT, captchaProblemOf, useCaptcha } from '../captcha.ts';
import { useHostedConfig } from '../components/HostedConfig.ts';
import { HostedPage } from '../components/Layout.tsx';
import { Notice, ProblemMessage } from '../components/Notices.tsx';
import { identityClient, signInStepOf } from '../identity.ts';
import { type Problem, problemOf } from '../problems.ts';
import { useContinueSignIn } from '../sign-in.ts';

/** Cartwheel's password rule (identity/passwords.ts), said before the member types. */
const PASSWORD_HINT = 'At least 6 characters.';

/** `/auth/signup?<authorization request>`: a new account, then on as a login would go. */
export function SignupPage() {
  const config = useHostedConfig();
  const [search] = useSearchParams();
  const request = useMemo(() => authorizationRequestOf(search.toString()), [search]);
  const continueSignIn = useContinueSignIn();
  const captcha = useCaptcha();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [waitingForApproval, setWaitingForApproval] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const client = identityClient(request?.clientId ?? config.clientId);
      const profile = {
        ...(firstName.trim() ? { firstName: firstName.trim() } : {}),
        ...(lastName.trim() ? { lastName: lastName.trim() } : {}),
      };
      // a solved captcha rides along when the site asks for one
      const answer = await captcha.run((captchaTokens) =>
        client.authentication.register(
          { email: email.trim() },
          {
            password,
            profile,
            ...(captchaTokens ? { captchaTokens } : {}),
          },
        ),
      );
      const left = await continueSignIn(signInStepOf(answer), {
        request,
        email: email.trim(),
        returnTo: search.get('redirect'),
      });
      if (left?.step === 'owner-approval') setWaitingForApproval(true);
      else if (left?.step === 'unknown') {
        setProblem({
          message: 'Your account was made, but signing in needs a step these pages cannot do yet.',
        });
      }
      if (left) setBusy(false);
    } catch (error) {
      setProblem(captchaProblemOf(error) ?? problemOf(error));
      setBusy(false);
    }
  }

  // what the member typed, and where to return, follow them to the next page
  const pageParams = { email: email.trim(), redirect: search.get('redirect') ?? '' };
  const links = {
    login: withRequest('/login', request, pageParams),
    forgotPassword: withRequest('/forgot-password', request, pageParams),
  };
  if (waitingForApproval) {
    return (
      <HostedPage title="Account created">
        <Notice tone="success">
          <p>
            Thanks for joining {config.storeName}. The store owner approves new accounts: you can sign in once
            they have approved yours.
          </p>
        </Notice>
        <p>
          <a href="/">Back to {config.storeName}</a>
        </p>
      </HostedPage>
    );
  }
  return (
    <HostedPage
      title="Create an account"
      intro={<p>Join {config.storeName} to check out faster and see your orders.</p>}
      footer={
        <p>
          Already have an account? <Link to={links.login}>Sign in</Link>
        </p>
      }
    >
      <ProblemMessage problem={problem} links={links} />
      <form className="form" onSubmit={submit} noValidate>
        <div className="form__row">
          <Field
            label="First name (optional)"
            name="firstName"
            autoComplete="given-name"
            value={firstName}
            onChange={(event) => setFirstName(event.target.value)}
          />
          <Field
            label="Last name (optional)"
            name="lastName"
            autoComplete="family-name"
            value={lastName}
            onChange={(event) => setLastName(event.target.value)}
          />
        </div>
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
          autoComplete="new-password"
          required
          hint={PASSWORD_HINT}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          invalid={problem?.field === 'password'}
        />
        <SubmitButton
          pending={busy}
          pendingText={captcha.checking ? CHECKING_TEXT : 'Creating your account…'}
        >
          Create account
        </SubmitButton>
      </form>
    </HostedPage>
  );
}
