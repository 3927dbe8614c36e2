import { FormAlert, SubmitButton } from '@cartwheel/design';
import { useAuth, useCartwheel } from '@cartwheel/react';
import type { LoginResult } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import type { StoreClient } from '../store.ts';
import { accountCodesUsedUp, loginFailureMessage, unexpectedFailureMessage } from './messages.ts';
import type { VerificationRequired } from './useLoginOutcome.ts';

/**
 * The step after a sign-up or sign-in that answered EMAIL_VERIFICATION_REQUIRED: the six-digit code
 * from the email. Reports the login state the code leads to (SUCCESS: signed in already).
 */
export function VerificationStep({
  email,
  state,
  onDone,
}: {
  email: string;
  state: VerificationRequired;
  onDone: (result: LoginResult) => void;
}) {
  const { verify } = useAuth();
  const client = useCartwheel<StoreClient>();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string>();
  // the account's codes are used up for a while: the reset link is the way in now
  const [offerReset, setOfferReset] = useState(false);
  const [resent, setResent] = useState(false);
  const codeId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    try {
      const result = await verify.mutateAsync({ verificationCode: code.trim(), state });
      if (result.loginState === 'FAILURE') {
        setProblem(loginFailureMessage(result, 'verification'));
        setOfferReset(accountCodesUsedUp(result.error) !== undefined);
      } else onDone(result);
    } catch (error) {
      setProblem(unexpectedFailureMessage(error));
    }
  };

  const resend = async () => {
    setProblem(undefined);
    setResent(false);
    try {
      await client.verification.resendDuringAuthentication(state.data.stateToken);
      setResent(true);
    } catch (error) {
      const usedUp = error instanceof Error ? accountCodesUsedUp(error.message) : undefined;
      setProblem(
        usedUp
          ? 'We sent too many codes to this email lately. Try again later, or reset your password to sign in now.'
          : 'We could not send a new code. Wait a minute, then try again.',
      );
      setOfferReset(usedUp !== undefined);
    }
  };

  return (
    <form className="account-form" onSubmit={submit} aria-labelledby={`${codeId}-title`}>
      <h2 id={`${codeId}-title`}>Check your email</h2>
      <p>
        We sent a 6-digit code to <strong>{email}</strong>. Enter it to finish.
      </p>
      <div className="field">
        <label htmlFor={codeId}>Verification code</label>
        <input
          id={codeId}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          onChange={(event) => setCode(event.target.value)}
          aria-invalid={problem ? true : undefined}
        />
      </div>
      <FormAlert>{problem}</FormAlert>
      {problem && offerReset ? (
        <p>
          <Link to="/account/forgot-password">Reset your password</Link>
        </p>
      ) : null}
      {resent ? (
        <p className="account-notice" role="status">
          We sent a new code.
        </p>
      ) : null}
      <SubmitButton className="button" pending={verify.isPending} pendingText="Checking…">
        Verify and continue
      </SubmitButton>
      <button type="button" className="link-button" onClick={() => void resend()}>
        Send a new code
      </button>
    </form>
  );
}
