import { Field, FormAlert, QrCode, SubmitButton } from '@cartwheel/design';
import { useSecondFactorChanges, useSecondFactors } from '@cartwheel/react';
import { ApplicationError, type SecondFactorType } from '@cartwheel/sdk';
import { type FormEvent, type ReactNode, useState } from 'react';

/** What enrolling asks for next: an authenticator's secret to add, or the code that was emailed. */
type Enrolling = { type: 'TOTP'; secret: string; otpauthUrl: string } | { type: 'EMAIL' };

/**
 * Enrolment first: when the store requires a second step of this staff member (their role moves money)
 * and they have none of their own yet, the back office asks them to set one up (an authenticator app,
 * or codes by email) before any page, shows the recovery codes once, then lets them in. Until they do,
 * each sign-in already asks for a code by email (the platform's fallback).
 */
export function SecondStepEnrolment({ children }: { children: ReactNode }) {
  const factors = useSecondFactors();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const required =
    factors.data?.requiredByStore === true &&
    !factors.data.factors.some((factor) => factor.status === 'ACTIVE');
  if (recoveryCodes) {
    return <RecoveryCodes codes={recoveryCodes} onSaved={() => setRecoveryCodes(undefined)} />;
  }
  // a failed read lets the pages through: the platform still asks for the step at every sign-in
  if (factors.isPending) return <p role="status">Checking your two-step sign-in…</p>;
  if (!required) return <>{children}</>;
  return <Enrol onEnrolled={setRecoveryCodes} />;
}

function Enrol({ onEnrolled }: { onEnrolled: (recoveryCodes: string[]) => void }) {
  const { enrol, activate } = useSecondFactorChanges();
  const [enrolling, setEnrolling] = useState<Enrolling>();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string>();

  const start = async (type: SecondFactorType) => {
    setProblem(undefined);
    try {
      const started = await enrol.mutateAsync(type);
      setEnrolling(
        type === 'TOTP'
          ? { type, secret: started.secret ?? '', otpauthUrl: started.otpauthUrl ?? '' }
          : { type },
      );
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!enrolling) return;
    setProblem(undefined);
    try {
      onEnrolled((await activate.mutateAsync({ type: enrolling.type, code: code.trim() })).recoveryCodes);
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  return (
    <section className="panel panel--narrow" aria-labelledby="second-step-title">
      <h1 id="second-step-title">Set up two-step sign-in</h1>
      <p>
        The store requires two-step sign-in for your role: after your password, you enter a code from an
        authenticator app or one we email you. Set it up to continue.
      </p>
      <div className="form__row">
        <button
          type="button"
          className="button button--primary"
          disabled={enrol.isPending}
          onClick={() => void start('TOTP')}
        >
          Use an authenticator app
        </button>
        <button
          type="button"
          className="button"
          disabled={enrol.isPending}
          onClick={() => void start('EMAIL')}
        >
          Use codes by email
        </button>
      </div>
      <FormAlert>{problem}</FormAlert>
      {enrolling ? (
        <form onSubmit={submit} className="form">
          {enrolling.type === 'TOTP' ? (
            <>
              <p>Scan the QR code with your authenticator app, or type the key into it.</p>
              <QrCode text={enrolling.otpauthUrl} label="QR code for your authenticator app" />
              <p>
                Key: <code data-testid="totp-secret">{enrolling.secret}</code>
              </p>
            </>
          ) : (
            <p>We emailed you a code. It works for a few minutes.</p>
          )}
          <Field
            label={enrolling.type === 'TOTP' ? 'Code from your authenticator app' : 'Code we emailed you'}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <SubmitButton pending={activate.isPending} pendingText="Checking…">
            Turn on
          </SubmitButton>
        </form>
      ) : null}
    </section>
  );
}

function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <section className="panel panel--narrow" aria-labelledby="recovery-codes-title">
      <h1 id="recovery-codes-title">Save your recovery codes</h1>
      <p>
        Two-step sign-in is on. Each code signs you in once if you lose your authenticator app; they are shown
        only now.
      </p>
      <ul data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="button button--primary" onClick={onSaved}>
        I saved my codes
      </button>
    </section>
  );
}

function problemOf(error: unknown): string {
  if (error instanceof ApplicationError) {
    if (error.code === 'VERIFICATION_FAILED') return "That code isn't right. Check it and try again.";
    if (error.code === 'RECENT_SIGN_IN_REQUIRED') return 'Sign out and sign in again, then set it up.';
  }
  return error instanceof Error ? error.message : 'Something went wrong. Try again.';
}
