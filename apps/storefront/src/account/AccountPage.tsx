import { Field, FormAlert, SubmitButton } from '@cartwheel/design';
import { useCurrentMember, useUpdateCurrentMember, useUpdateCurrentMemberSlug } from '@cartwheel/react';
import { ApplicationError, type Member, ValidationError } from '@cartwheel/sdk';
import { type FormEvent, useState } from 'react';
import { Navigate } from 'react-router';
import { useDocumentTitle } from '../components/hooks.ts';
import { ErrorMessage, Loading } from '../components/Status.tsx';
import { OrderHistory } from '../orders/OrderHistory.tsx';
import { displayName, useSignOut } from './AccountMenu.tsx';
import { unexpectedFailureMessage } from './messages.ts';
import { RETURN_TO } from './return-to.ts';
import { Subscriptions } from './Subscriptions.tsx';
import { TwoStepSection } from './TwoStepSection.tsx';

/** The signed-in member's account: profile, profile address (slug), email, two-step sign-in, orders, and signing out. */
export function AccountPage() {
  useDocumentTitle('Your account');
  const { data: member, loggedIn, error, refetch, isPending } = useCurrentMember();
  const { signOut, pending: signingOut } = useSignOut();

  if (!loggedIn) return <Navigate to={`/account/sign-in?${RETURN_TO}=%2Faccount`} replace />;
  if (isPending) return <Loading label="Loading your account…" />;
  if (error || !member) return <ErrorMessage what="your account" error={error} retry={() => refetch()} />;

  return (
    <section className="account-page account-page--wide">
      <h1>Your account</h1>
      <p>Signed in as {displayName(member)}.</p>
      <dl className="account-details">
        <dt>Email</dt>
        <dd data-testid="account-email">{member.loginEmail}</dd>
        <dt>Profile address</dt>
        <dd data-testid="account-slug">{member.profile?.slug}</dd>
      </dl>
      {/* keyed by the saved values, so each form starts from what the platform holds */}
      <ProfileForm key={`profile-${member.updatedDate?.getTime()}`} member={member} />
      <SlugForm key={`slug-${member.profile?.slug}`} member={member} />
      <TwoStepSection />
      <OrderHistory />
      <Subscriptions />
      <div className="account-section">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void signOut()}
          disabled={signingOut}
        >
          Sign out
        </button>
      </div>
    </section>
  );
}

function ProfileForm({ member }: { member: Member }) {
  const update = useUpdateCurrentMember();
  const [firstName, setFirstName] = useState(member.contact?.firstName ?? '');
  const [lastName, setLastName] = useState(member.contact?.lastName ?? '');
  const [nickname, setNickname] = useState(member.profile?.nickname ?? '');
  const [problem, setProblem] = useState<string>();
  const [saved, setSaved] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    setSaved(false);
    try {
      await update.mutateAsync({
        contact: { firstName: firstName.trim(), lastName: lastName.trim() },
        profile: { nickname: nickname.trim() },
      });
      setSaved(true);
    } catch (error) {
      setProblem(
        error instanceof ValidationError
          ? 'Please give a nickname: it is the name the store shows.'
          : unexpectedFailureMessage(error),
      );
    }
  };

  return (
    <form className="account-form account-section" onSubmit={submit} aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <Field
        id="account-first-name"
        label="First name"
        type="text"
        autoComplete="given-name"
        value={firstName}
        onChange={(event) => setFirstName(event.target.value)}
      />
      <Field
        id="account-last-name"
        label="Last name"
        type="text"
        autoComplete="family-name"
        value={lastName}
        onChange={(event) => setLastName(event.target.value)}
      />
      <Field
        id="account-nickname"
        label="Nickname"
        type="text"
        autoComplete="nickname"
        required
        value={nickname}
        onChange={(event) => setNickname(event.target.value)}
      />
      <FormAlert>{problem}</FormAlert>
      {saved ? (
        <p className="account-notice" role="status">
          Profile saved.
        </p>
      ) : null}
      <SubmitButton className="button" pending={update.isPending} pendingText="Saving…">
        Save profile
      </SubmitButton>
    </form>
  );
}

function SlugForm({ member }: { member: Member }) {
  const update = useUpdateCurrentMemberSlug();
  const [slug, setSlug] = useState(member.profile?.slug ?? '');
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    try {
      await update.mutateAsync(slug.trim());
    } catch (error) {
      setProblem(slugProblem(error));
    }
  };

  return (
    <form className="account-form account-section" onSubmit={submit} aria-labelledby="slug-title">
      <h2 id="slug-title">Profile address</h2>
      <div className="field">
        <label htmlFor="account-slug">Address</label>
        <input
          id="account-slug"
          type="text"
          autoComplete="off"
          spellCheck={false}
          required
          aria-describedby="account-slug-hint"
          aria-invalid={problem ? true : undefined}
          value={slug}
          onChange={(event) => setSlug(event.target.value)}
        />
        <span id="account-slug-hint" className="hint">
          Letters, digits, dots, dashes and underscores, starting with a letter or digit.
        </span>
      </div>
      <FormAlert>{problem}</FormAlert>
      <SubmitButton className="button" pending={update.isPending} pendingText="Saving…">
        Save address
      </SubmitButton>
    </form>
  );
}

function slugProblem(error: unknown): string {
  if (error instanceof ApplicationError && error.code === 'SLUG_ALREADY_EXISTS') {
    return 'Another member already has that address. Try a different one.';
  }
  if (error instanceof ValidationError) {
    return 'Use only letters, digits, dots, dashes and underscores, starting with a letter or digit.';
  }
  return unexpectedFailureMessage(error);
}
