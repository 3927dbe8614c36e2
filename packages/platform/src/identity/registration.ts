import type { Identity, IdentityProfile, RegisterRequest, StateMachineResponse } from '@cartwheel/sdk';
import { recordEvents } from '../events/outbox.ts';
import { newId } from '../shared/ids.ts';
import type { Caller, IdentityContext } from './context.ts';
import { emailAlreadyExists, identityCannotSignIn, loginEmail } from './errors.ts';
import {
  nextStep,
  statusAfterEmailVerified,
  statusAfterOwnerApproval,
  statusOnRegistration,
} from './login-flow.ts';
import { hashPassword, passwordViolation } from './passwords.ts';
import { type KeptProfile, keptProfileOf } from './profile.ts';
import { holderOf, identityEvent, standingOf } from './records.ts';
import type { SignIn } from './sign-in.ts';
import type { IdentityRow } from './tables.ts';

/**
 * New identities and their members: a shopper's registration, an app's sign-on (made if new, signed
 * in without a password), and the owner's approval of one waiting.
 */
export class Registration {
  constructor(
    private readonly context: IdentityContext,
    private readonly signIn: SignIn,
  ) {}

  /** `POST /v2/register`: a new identity and its member, then whatever the site's policy asks next. */
  async register(input: RegisterRequest, caller: Caller): Promise<StateMachineResponse> {
    const email = loginEmail(input.loginId?.email);
    const weak = passwordViolation(input.password, 'password');
    if (weak) throw weak;
    await this.signIn.checkCaptcha(input.captchaTokens);
    if (await this.context.records.findByEmail(email)) throw emailAlreadyExists();

    const policy = await this.signIn.policy();
    const passwordHash = await hashPassword(input.password as string);
    const profile = cleanProfile(input.profile, email);
    const { status, pendingReason } = statusOnRegistration(policy);
    const row = newIdentity(email, profile, {
      email_verified: 0,
      status,
      pending_reason: pendingReason,
      password_hash: passwordHash,
    });
    try {
      await this.create(row, profile);
    } catch (error) {
      // two registrations of one email at once: the unique index let one through
      if (await this.context.records.findByEmail(email)) throw emailAlreadyExists();
      throw error;
    }
    return this.signIn.continue(row, policy, holderOf(caller.principal));
  }

  /**
   * `POST /v2/sign-on` (admin): the member with this email, made if new, signed in without a
   * password; the app vouches for who they are. `verifyEmail` marks the email verified.
   * `mergeExistingContact` merges the store's contact with this email into the member: what was
   * bought with it as a guest joins them now (the app vouches for the email, as for the person).
   */
  async signOn(input: {
    loginId?: { email?: string };
    profile?: IdentityProfile;
    verifyEmail?: boolean;
    mergeExistingContact?: boolean;
  }): Promise<{ sessionToken: string; identity: Identity }> {
    const { db, deps, records } = this.context;
    const email = loginEmail(input.loginId?.email);
    const policy = await this.signIn.policy();
    let identity = await records.findByEmail(email);
    if (!identity) {
      const profile = cleanProfile(input.profile, email);
      const row = newIdentity(email, profile, {
        email_verified: input.verifyEmail ? 1 : 0,
        status: 'ACTIVE',
        pending_reason: null,
        password_hash: null,
      });
      try {
        await this.create(row, profile);
        identity = row;
      } catch (error) {
        identity = await records.findByEmail(email);
        if (!identity) throw error;
      }
    } else {
      const given = keptProfileOf(input.profile);
      const changes: Partial<IdentityRow> = {};
      if (Object.keys(given).length > 0) {
        changes.profile = JSON.stringify({ ...JSON.parse(identity.profile), ...given });
      }
      if (input.verifyEmail && !identity.email_verified) {
        changes.email_verified = 1;
        const next = statusAfterEmailVerified(standingOf(identity), policy);
        changes.status = next.status;
        changes.pending_reason = next.pendingReason;
      }
      if (Object.keys(changes).length > 0) identity = await records.update(identity.id, changes);
    }
    const step = nextStep(standingOf(identity), { ...policy, requireEmailVerification: false });
    if (step.step !== 'SIGN_IN') throw identityCannotSignIn(step.step === 'REFUSE' ? step.status : 'PENDING');
    const sessionToken = await this.signIn.openSession(identity.id, { visitorId: null, clientId: null });
    if (input.mergeExistingContact) {
      await recordEvents(db, [identityEvent('contact_merged', identity, {})]);
      await deps.events.deliverNow('identity');
    }
    return { sessionToken, identity: await records.wire(identity) };
  }

  /** The owner lets a waiting member in (the member administration calls will expose it). */
  async approve(identityId: string): Promise<Identity> {
    const identity = await this.context.records.get(identityId);
    const next = statusAfterOwnerApproval(standingOf(identity));
    const updated = await this.context.records.update(identity.id, {
      status: next.status,
      pending_reason: next.pendingReason,
    });
    return this.context.records.wire(updated);
  }

  /** The identity's row and its member (made with the profile's slug and privacy), in one transaction. */
  private async create(row: IdentityRow, profile: NewProfile): Promise<void> {
    await this.context.db.transaction().execute(async (trx) => {
      await trx.insertInto('identities').values(row).execute();
      await this.context.deps.members.createForIdentity(
        trx,
        { id: row.id, email: row.email, profile },
        row.created_at,
      );
    });
  }
}

/** What a new identity's profile holds, with the slug and privacy its member is made with. */
type NewProfile = KeptProfile & Pick<IdentityProfile, 'slug' | 'privacyStatus'>;

/** A new identity's row; its profile keeps what is not the member's. */
function newIdentity(
  email: string,
  profile: NewProfile,
  standing: Pick<IdentityRow, 'email_verified' | 'status' | 'pending_reason' | 'password_hash'>,
): IdentityRow {
  const now = new Date().toISOString();
  return {
    id: newId(),
    email,
    ...standing,
    must_reset_password: 0,
    profile: JSON.stringify(withoutMemberFields(profile)),
    created_at: now,
    updated_at: now,
  };
}

/**
 * The profile a new identity keeps (identity/profile.ts), with a nickname from the name or the email
 * when absent, and the slug and privacy its member is made with.
 */
function cleanProfile(profile: IdentityProfile | undefined, email: string): NewProfile {
  const given = keptProfileOf(profile);
  const fullName = [given.firstName, given.lastName].filter(Boolean).join(' ');
  return {
    ...given,
    nickname: given.nickname || fullName || email.split('@')[0] || email,
    ...(typeof profile?.slug === 'string' ? { slug: profile.slug } : {}),
    ...(profile?.privacyStatus === 'PRIVATE' || profile?.privacyStatus === 'PUBLIC'
      ? { privacyStatus: profile.privacyStatus }
      : {}),
  };
}

/** Slug and privacy belong to the member row; the identity keeps the rest. */
function withoutMemberFields(profile: NewProfile): KeptProfile {
  const { slug: _slug, privacyStatus: _privacy, ...rest } = profile;
  return rest;
}
