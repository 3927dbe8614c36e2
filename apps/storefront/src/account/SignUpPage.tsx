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

const PASSWORD_MIN_LENGTH = 6;

export function SignUpPage() {
  useDocumentTitle('Create an account');
  const { register, loggedIn } = useAuth();
  const captcha = useCaptcha();
  const outcome = useLoginOutcome('sign-up');
  const returnTo = useReturnTo();
  const signInHref = useAccountHref('/account/sign-in');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  if (loggedIn && !register.isPending) return <Navigate to={returnTo} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const profile = {
        ...(firstName.trim() ? { firstName: firstName.trim() } : {}),
        ...(lastName.trim() ? { lastName: lastName.trim() } : {}),
      };
      // a solved captcha rides along when the store asks for one
      const result = await captcha.run((captchaTokens) =>
        register.mutateAsync({
          email: email.trim(),
          password,
          profile,
          ...(captchaTokens ? { captchaTokens } : {}),
        }),
      );
      outcome.handle(result);
    } catch (error) {
      outcome.setProblem(unexpectedFailureMessage(error));
    }
  };

  return (
    <section className="account-page">
      <h1>Create an account</h1>
      {outcome.verification ? (
        <VerificationStep email={email.trim()} state={outcome.verification} onDone={outcome.handle} />
      ) : outcome.awaitingApproval ? (
        <p className="account-notice" role="status">
          Thanks for signing up! The store owner approves new accounts; we’ll email you when yours is ready.
        </p>
      ) : (
        <>
          <form className="account-form" onSubmit={submit}>
            <Field
              id="sign-up-first-name"
              label="First name"
              optional
              type="text"
              autoComplete="given-name"
              value={firstName}
              onChange={(event) => setFirstName(event.target.value)}
            />
            <Field
              id="sign-up-last-name"
              label="Last name"
              optional
              type="text"
              autoComplete="family-name"
              value={lastName}
              onChange={(event) => setLastName(event.target.value)}
            />
            <Field
              id="sign-up-email"
              label="Email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <Field
              id="sign-up-password"
              label="Password"
              hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            {outcome.problem ? (
              <FormAlert>
                {outcome.problem}
                {outcome.problem.includes('already exists') ? (
                  <>
                    {' '}
                    <Link to={signInHref}>Sign in</Link>
                  </>
                ) : null}
              </FormAlert>
            ) : null}
            <button type="submit" className="button" disabled={register.isPending || captcha.busy}>
              {captcha.checking
                ? CHECKING_TEXT
                : register.isPending || captcha.busy
                  ? 'Creating your account…'
                  : 'Create account'}
            </button>
            <div className="account-links">
              <span>
                Already have an account? <Link to={signInHref}>Sign in</Link>
              </span>
            </div>
          </form>
          <p className="account-divider">or</p>
          <HostedLoginButton />
        </>
      )}
    </section>
  );
}
