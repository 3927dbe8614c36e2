import type { Identity } from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import { invalidArgument, notFound, violation } from '../shared/errors.ts';
import type { Principal } from '../shared/principal.ts';
import type { SecondFactors } from './factors.ts';
import type { IdentityStanding } from './login-flow.ts';
import { identityProfileAnswer, type KeptProfile } from './profile.ts';
import type { SessionHolder } from './sessions.ts';
import type { IdentityRow } from './tables.ts';

/**
 * The identity's own rows, read and changed by the flows, and the wire identity they answer (its
 * slug and privacy are the member's). Writes other domains ask for are accounts.ts.
 */
export class IdentityRecords {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly members: {
      row(memberId: string): Promise<{ slug: string; privacy_status: 'PUBLIC' | 'PRIVATE' } | undefined>;
    },
    private readonly factors: SecondFactors,
  ) {}

  findByEmail(email: string): Promise<IdentityRow | undefined> {
    return this.db.selectFrom('identities').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findById(id: string): Promise<IdentityRow | undefined> {
    return this.db.selectFrom('identities').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async get(id: string): Promise<IdentityRow> {
    const row = await this.findById(id);
    if (!row) throw notFound('identity', id);
    return row;
  }

  /** Changes an identity's row, and writes `events` in the same transaction when there are any. */
  async update(id: string, changes: Partial<IdentityRow>, events: DomainEvent[] = []): Promise<IdentityRow> {
    const write = async (executor: Kysely<Tables>) => {
      await executor
        .updateTable('identities')
        .set({ ...changes, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
      await recordEvents(executor, events);
    };
    if (events.length === 0) await write(this.db);
    else await this.db.transaction().execute(write);
    return this.get(id);
  }

  /** The wire identity; slug and privacy are the member's. */
  async wire(row: IdentityRow): Promise<Identity> {
    const member = await this.members.row(row.id);
    return {
      id: row.id,
      createdDate: new Date(row.created_at),
      updatedDate: new Date(row.updated_at),
      identityProfile: {
        ...identityProfileAnswer(JSON.parse(row.profile) as KeptProfile),
        ...(member ? { slug: member.slug, privacyStatus: member.privacy_status } : {}),
      },
      email: { address: row.email, isVerified: Boolean(row.email_verified) },
      status: { name: row.status, reasons: row.pending_reason ? [row.pending_reason] : [] },
      factors: [
        ...(row.password_hash
          ? [{ factorId: `${row.id}-password`, type: 'PASSWORD' as const, status: 'ACTIVE' as const }]
          : []),
        ...(await this.factors.list(row.id)).map((factor) => ({
          factorId: `${row.id}-${factor.type.toLowerCase()}`,
          type: factor.type,
          status: factor.status,
        })),
      ],
    };
  }
}

export function standingOf(row: IdentityRow): IdentityStanding {
  return {
    status: row.status,
    pendingReason: row.pending_reason,
    emailVerified: Boolean(row.email_verified),
  };
}

/** Whose session a login opens: the calling visitor's, for their OAuth client; no one's for an admin. */
export function holderOf(principal: Principal): SessionHolder {
  return principal.kind === 'visitor' || principal.kind === 'member'
    ? { visitorId: principal.visitorId, clientId: principal.clientId }
    : { visitorId: null, clientId: null };
}

export function requiredString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidArgument([violation(field, 'is required', 'REQUIRED_FIELD')]);
  }
  return value.trim();
}

export const stringOr = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * An identity's event (`wix.iam.identity.v1.identity`): its email verified, a sign-in (which visitor
 * became the member, and whether the email was verified then), or the store's contact with its email
 * merged into it (a sign-on's `mergeExistingContact`). The orders domain adopts guest orders on them.
 */
export function identityEvent(
  slug: 'email_verified' | 'signed_in' | 'contact_merged',
  identity: IdentityRow,
  details: { emailVerified?: boolean; visitorId?: string | null },
): DomainEvent {
  return { entity: 'identity', slug, entityId: identity.id, payload: { email: identity.email, ...details } };
}
