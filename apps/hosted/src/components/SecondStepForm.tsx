import { CheckboxField, Field, SubmitButton } from '@cartwheel/design';
import { type FormEvent, useState } from 'react';
import { type IdentityClient, type SignInStep, signInStepOf } from '../identity.ts';
import { type Problem, problemOf } from '../problems.ts';
import { ProblemMessage } from './Notices.tsx';

type SecondStep = Extract<SignInStep, { step: 'second-factor' }>;

/**
 * A sign-in's second step (point 7's `POST /v2/{factorType}/verify`): the code from the authenticator
 * app, or the one just emailed; a recovery code when the authenticator is lost; and "remember this
 * device". Answers the next step of the sign-in to `onAnswer`.
 */
export function SecondStepForm({
  client,
  step,
  onAnswer,
}: {
  client: IdentityClient;
  step: SecondStep;
  onAnswer: (next: SignInStep) => Promise<void>;
}) {
  const factor = step.factors.includes('TOTP') ? 'TOTP' : 'EMAIL';
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const data = { code: code.trim() };
      const answer = await client.authentication.verify(factor, {
        stateToken: step.stateToken,
        rememberThisDevice: remember,
        ...(recovery
          ? { recoveryCodeData: data }
          : factor === 'TOTP'
            ? { totpData: data }
            : { emailData: data }),
      });
      await onAnswer(signInStepOf(answer));
    } catch (error) {
      setProblem(problemOf(error));
      setBusy(false);
    }
  }

  const label = recovery
    ? 'Recovery code'
    : factor === 'TOTP'
      ? 'Code from your authenticator app'
      : 'Code we emailed you';
  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="second-step-title">
      <h2 id="second-step-title">Confirm it's you</h2>
      <ProblemMessage problem={problem} links={{}} />
      <Field
        label={label}
        name="code"
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        required
        value={code}
        onChange={(event) => setCode(event.target.value)}
        invalid={problem !== undefined}
      />
      <CheckboxField
        label="Remember this device"
        name="rememberThisDevice"
        checked={remember}
        onChange={(event) => setRemember(event.target.checked)}
      />
      <SubmitButton pending={busy} pendingText="Checking…">
        Continue
      </SubmitButton>
      {factor === 'TOTP' ? (
        <button className="button button--quiet" type="button" onClick={() => setRecovery(!recovery)}>
          {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
        </button>
      ) : null}
    </form>
  );
}
