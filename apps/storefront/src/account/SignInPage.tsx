import { Field, FormAlert } from '@cartwheel/design';
import { useAuth } from '@cartwheel/react';
import { type FormEvent, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { useDocumentTitle } from '../components/hooks.ts';
import { CHECKING_TEXT, useCaptcha } from './captcha.ts';
import { HostedLoginButton } from './HostedLoginButton.tsx';
import { unexpectedFailureMessage } from './messages.ts';
import { useAccountHref, useReturnTo } from './return-to.ts';
import { useLoginOutcome } from './useLoginOutcome.ts';
import { VerificationStep } from './VerificationStep.tsx';

export function SignInPage() {
  useDocumentTitle('Sign in');
  const { login, loggedIn } = useAuth();
  const captcha = useCaptcha();
  const outcome = useLoginOutcome('sign-in');
  const returnTo = useReturnTo();
  const signUpHref = useAccountHref('/account/sign-up');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  // already signed in (a second tab, the back button): nothing to do here
  if (loggedIn && !login.isPending) return <Navigate to={returnTo} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      // a solved captcha rides along when the store asks for one
      const result = await captcha.run((captchaTokens) =>
        login.mutateAsync({ email: email.trim(), password, ...(captchaTokens ? { captchaTokens } : {}) }),
      );
      outcome.handle(result);
    } catch (error) {
      outcome.setProblem(unexpectedFailureMessage(error));
    }
  };

  return (
    <section className="account-page">
      <h1>Sign in</h1>
      {outcome.verification ? (
        <VerificationStep email={email.trim()} state={outcome.verification} onDone={outcome.handle} />
      ) : outcome.awaitingApproval ? (
        <p className="account-notice" role="status">
          Your account is waiting for the store owner’s approval. We’ll email you when you can sign in.
        </p>
      ) : (
        <>
          <form className="account-form" onSubmit={submit}>
            <Field
              id="sign-in-email"
              label="Email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <Field
              id="sign-in-password"
              label="Password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <FormAlert>{outcome.problem}</FormAlert>
            <button type="submit" className="button" disabled={login.isPending || captcha.busy}>
              {captcha.checking ? CHECKING_TEXT : login.isPending || captcha.busy ? 'Signing in…' : 'Sign in'}
            </button>
            <div className="account-links">
              <Link to="/account/forgot-password">Forgot your password?</Link>
              <Link to={signUpHref}>Create an account</Link>
            </div>
          </form>
          <p className="account-divider">or</p>
          <HostedLoginButton />
        </>
      )}
    </section>
  );
}
