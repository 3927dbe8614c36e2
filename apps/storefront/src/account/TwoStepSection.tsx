import { Field, FormAlert, QrCode, SubmitButton } from '@cartwheel/design';
import { useAuth, useSecondFactorChanges, useSecondFactors } from '@cartwheel/react';
import { ApplicationError, type SecondFactors, type SecondFactorType } from '@cartwheel/sdk';
import { type FormEvent, useState } from 'react';
import { CALLBACK_PATH } from './HostedLoginButton.tsx';
import { unexpectedFailureMessage } from './messages.ts';

const FACTOR_NAMES: Record<SecondFactorType, string> = {
  TOTP: 'Authenticator app',
  EMAIL: 'Codes by email',
};
const STATUS_TEXT = { ACTIVE: 'On', INACTIVE: 'Off', REQUIRE_REENROLL: 'Needs setting up again' } as const;

/** What enrolling asks for next: an authenticator's secret to add, or the code that was emailed. */
type Enrolling = { type: 'TOTP'; secret: string; otpauthUrl: string } | { type: 'EMAIL' };

/**
 * The member's own two-step sign-in on the account page: each factor's status, turning an authenticator
 * app (its secret as text and as a QR code) or codes by email on with a code from it, the recovery codes
 * shown once, and turning a factor off. Every change needs a recent sign-in: past it, the member signs in
 * again through the store's login page and comes back here.
 */
export function TwoStepSection() {
  const factors = useSecondFactors();
  const changes = useSecondFactorChanges();
  const [enrolling, setEnrolling] = useState<Enrolling>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [problem, setProblem] = useState<string>();
  const [needsSignIn, setNeedsSignIn] = useState(false);

  const fail = (error: unknown) => {
    if (error instanceof ApplicationError && error.code === 'RECENT_SIGN_IN_REQUIRED') setNeedsSignIn(true);
    else setProblem(codeProblem(error));
  };

  const enrol = async (type: SecondFactorType) => {
    setProblem(undefined);
    setRecoveryCodes(undefined);
    try {
      const started = await changes.enrol.mutateAsync(type);
      setEnrolling(
        type === 'TOTP'
          ? { type, secret: started.secret ?? '', otpauthUrl: started.otpauthUrl ?? '' }
          : { type },
      );
    } catch (error) {
      fail(error);
    }
  };

  const turnOff = async (type: SecondFactorType) => {
    setProblem(undefined);
    setRecoveryCodes(undefined);
    try {
      await changes.remove.mutateAsync(type);
      if (enrolling?.type === type) setEnrolling(undefined);
    } catch (error) {
      fail(error);
    }
  };

  const statusOf = (type: SecondFactorType) =>
    factors.data?.factors.find((factor) => factor.factorType === type)?.status ?? 'INACTIVE';

  return (
    <section className="account-section two-step" aria-labelledby="two-step-title">
      <h2 id="two-step-title">Two-step sign-in</h2>
      <p>After your password, signing in asks for a code from your authenticator app or your email.</p>
      {factors.isPending ? (
        <p role="status">Loading…</p>
      ) : factors.error ? (
        <FormAlert>{unexpectedFailureMessage(factors.error)}</FormAlert>
      ) : (
        <ul className="two-step__factors">
          {(['TOTP', 'EMAIL'] as const).map((type) => {
            const status = statusOf(type);
            return (
              <li key={type} className="two-step__factor">
                <span>
                  {FACTOR_NAMES[type]}:{' '}
                  <strong data-testid={`two-step-status-${type}`}>{STATUS_TEXT[status]}</strong>
                </span>
                {status === 'INACTIVE' || status === 'REQUIRE_REENROLL' ? (
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={changes.enrol.isPending}
                    onClick={() => void enrol(type)}
                  >
                    {type === 'TOTP' ? 'Set up an authenticator app' : 'Get codes by email'}
                  </button>
                ) : null}
                {status !== 'INACTIVE' || enrolling?.type === type ? (
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={changes.remove.isPending}
                    onClick={() => void turnOff(type)}
                  >
                    Turn off {FACTOR_NAMES[type].toLowerCase()}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {factors.data ? <RecoveryCodesLeft factors={factors.data} /> : null}
      {needsSignIn ? <SignInAgain /> : null}
      <FormAlert>{problem}</FormAlert>
      {enrolling ? (
        <ConfirmFactor
          enrolling={enrolling}
          onConfirmed={(codes) => {
            setProblem(undefined);
            setEnrolling(undefined);
            setRecoveryCodes(codes);
          }}
          onFailure={fail}
        />
      ) : null}
      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} onSaved={() => setRecoveryCodes(undefined)} />
      ) : null}
    </section>
  );
}

/** The code that proves the factor works: from the authenticator just set up, or from the email. */
function ConfirmFactor({
  enrolling,
  onConfirmed,
  onFailure,
}: {
  enrolling: Enrolling;
  onConfirmed: (recoveryCodes: string[]) => void;
  onFailure: (error: unknown) => void;
}) {
  const { activate } = useSecondFactorChanges();
  const [code, setCode] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const { recoveryCodes } = await activate.mutateAsync({ type: enrolling.type, code: code.trim() });
      onConfirmed(recoveryCodes);
    } catch (error) {
      onFailure(error);
    }
  };

  return (
    <form className="account-form" onSubmit={submit} aria-labelledby="two-step-confirm-title">
      <h3 id="two-step-confirm-title">
        {enrolling.type === 'TOTP' ? 'Add this account to your authenticator app' : 'Check your email'}
      </h3>
      {enrolling.type === 'TOTP' ? (
        <>
          <p>Scan the QR code with your authenticator app, or type the key into it.</p>
          <QrCode text={enrolling.otpauthUrl} label="QR code for your authenticator app" />
          <dl className="account-details">
            <dt>Key</dt>
            <dd>
              <code data-testid="totp-secret">{enrolling.secret}</code>
            </dd>
            <dt>Link</dt>
            <dd>
              <code className="two-step__link" data-testid="totp-link">
                {enrolling.otpauthUrl}
              </code>
            </dd>
          </dl>
        </>
      ) : (
        <p>We emailed you a code. It works for a few minutes.</p>
      )}
      <Field
        id="two-step-code"
        label={enrolling.type === 'TOTP' ? 'Code from your authenticator app' : 'Code we emailed you'}
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <SubmitButton className="button" pending={activate.isPending} pendingText="Checking…">
        Turn on
      </SubmitButton>
    </form>
  );
}

/** The recovery codes, shown this once: each signs in once when the authenticator is lost. */
function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <div className="two-step__recovery" role="status">
      <h3>Two-step sign-in is on. Save your recovery codes</h3>
      <p>
        Each code signs you in once if you lose your authenticator app. Keep them somewhere safe: they are
        shown only now.
      </p>
      <ul className="two-step__codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="button" onClick={onSaved}>
        I saved my codes
      </button>
    </div>
  );
}

function RecoveryCodesLeft({ factors }: { factors: SecondFactors }) {
  if (!factors.factors.some((factor) => factor.status !== 'INACTIVE')) return null;
  return <p data-testid="recovery-codes-left">Recovery codes left: {factors.recoveryCodesLeft}</p>;
}

/** Past the recent sign-in a change needs: the store's login page, then back to the account. */
function SignInAgain() {
  const { loginWithRedirect } = useAuth();
  const [problem, setProblem] = useState<string>();
  const go = async () => {
    try {
      const { authUrl } = await loginWithRedirect.mutateAsync({
        redirectUri: `${window.location.origin}${CALLBACK_PATH}`,
        originalUri: '/account',
        prompt: 'login',
        responseMode: 'query',
      });
      window.location.assign(authUrl);
    } catch (error) {
      setProblem(unexpectedFailureMessage(error));
    }
  };
  return (
    <div className="form-alert" role="alert">
      <p>For your security, sign in again before changing two-step sign-in.</p>
      <button
        type="button"
        className="button"
        onClick={() => void go()}
        disabled={loginWithRedirect.isPending}
      >
        Sign in again
      </button>
      {problem ? <p>{problem}</p> : null}
    </div>
  );
}

function codeProblem(error: unknown): string {
  if (error instanceof ApplicationError) {
    if (error.code === 'VERIFICATION_FAILED') return "That code isn't right. Check it and try again.";
    if (error.code === 'TOO_MANY_ATTEMPTS') return 'Too many wrong codes. Try again later.';
  }
  return unexpectedFailureMessage(error);
}
