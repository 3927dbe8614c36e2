import { Field, FormAlert, SubmitButton } from '@cartwheel/design';
import { useAuth } from '@cartwheel/react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../components/hooks.ts';
import { unexpectedFailureMessage } from './messages.ts';

/**
 * Emails a password-reset link. The link opens the store's hosted reset page, which comes back to
 * the sign-in page once the new password is set.
 */
export function ForgotPasswordPage() {
  useDocumentTitle('Reset your password');
  const { sendPasswordReset } = useAuth();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string>();
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    const address = email.trim();
    try {
      await sendPasswordReset.mutateAsync({
        email: address,
        redirectUri: `${window.location.origin}/account/sign-in`,
      });
      setSentTo(address);
    } catch (error) {
      setProblem(
        error instanceof Error && /too many/i.test(error.message)
          ? 'Too many requests. Wait a few minutes, then try again.'
          : unexpectedFailureMessage(error),
      );
    }
  };

  return (
    <section className="account-page">
      <h1>Reset your password</h1>
      {sentTo ? (
        <p className="account-notice" role="status">
          If there is an account for <strong>{sentTo}</strong>, we’ve emailed it a link to choose a new
          password. The link works once.
        </p>
      ) : (
        <form className="account-form" onSubmit={submit}>
          <p>Enter your account’s email and we’ll send you a link to choose a new password.</p>
          <Field
            id="forgot-email"
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <FormAlert>{problem}</FormAlert>
          <SubmitButton className="button" pending={sendPasswordReset.isPending} pendingText="Sending…">
            Email me a link
          </SubmitButton>
        </form>
      )}
      <p>
        <Link to="/account/sign-in">Back to sign in</Link>
      </p>
    </section>
  );
}
