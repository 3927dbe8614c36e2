import { Field, SubmitButton } from '@cartwheel/design';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useHostedConfig } from '../components/HostedConfig.ts';
import { HostedPage } from '../components/Layout.tsx';
import { Notice, ProblemMessage } from '../components/Notices.tsx';
import type { Problem } from '../problems.ts';

/**
 * `/auth/staff-invitation?token=...`: the link the owner's invitation mailed (issue 21). Choosing a
 * password accepts it (`POST /api/cartwheel/staff/invitations/accept`); the new staff member then signs
 * in on the login page like anyone else.
 */
export function StaffInvitationPage() {
  const config = useHostedConfig();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [done, setDone] = useState(false);

  if (!token) {
    return (
      <HostedPage title="Join the staff">
        <ProblemMessage
          problem={{ message: 'This invitation link is incomplete. Ask the owner for a new one.' }}
        />
      </HostedPage>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(undefined);
    if (password !== again) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    setBusy(true);
    try {
      const response = await fetch('/api/cartwheel/staff/invitations/accept', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password }),
      });
      if (response.ok) setDone(true);
      else setProblem(await refusal(response));
    } catch {
      setProblem({ message: 'The store could not be reached. Try again in a moment.' });
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <HostedPage title="You are on the staff">
        <Notice tone="success">
          <p>Your password is set. Sign in to work on {config.storeName}.</p>
        </Notice>
        <div className="actions">
          <Link className="button button--primary" to="/login">
            Sign in
          </Link>
        </div>
      </HostedPage>
    );
  }
  return (
    <HostedPage title={`Join the staff of ${config.storeName}`}>
      <ProblemMessage problem={problem} />
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          hint="At least 6 characters."
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          invalid={problem?.field === 'password'}
        />
        <Field
          label="Repeat the password"
          type="password"
          name="passwordAgain"
          autoComplete="new-password"
          required
          value={again}
          onChange={(event) => setAgain(event.target.value)}
          error={mismatch ? 'The two passwords are not the same.' : undefined}
        />
        <SubmitButton pending={busy} pendingText="Joining…">
          Accept the invitation
        </SubmitButton>
      </form>
    </HostedPage>
  );
}

/** The platform's refusal, in its own words: a field violation names the password, else the reason. */
async function refusal(response: Response): Promise<Problem> {
  const body = (await response.json().catch(() => ({}))) as {
    details?: {
      validationError?: { fieldViolations?: { field?: string; description?: string }[] };
      applicationError?: { code?: string; description?: string };
    };
  };
  const violation = body.details?.validationError?.fieldViolations?.[0];
  if (violation) {
    return { message: `The password ${violation.description ?? 'is not accepted'}.`, field: 'password' };
  }
  if (body.details?.applicationError?.code === 'INVITATION_NOT_VALID') {
    return {
      message:
        'This invitation was already used, replaced by a newer one, or has expired. Ask the owner for a new one.',
    };
  }
  return { message: body.details?.applicationError?.description ?? 'The invitation could not be accepted.' };
}
