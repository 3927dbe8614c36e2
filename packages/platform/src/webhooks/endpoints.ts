import { randomBytes } from 'node:crypto';
import type { FieldViolation } from '@cartwheel/sdk';
import type { Kysely, Selectable } from 'kysely';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Clock } from '../shared/clock.ts';
import { applicationError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Permission } from '../shared/permissions.ts';
import { type AddressPolicy, parseEndpointUrl, RefusedAddress, resolveChecked } from './addresses.ts';
import { isWebhookEventType, readPermissionOf } from './event-types.ts';
import type { EndpointStatus, SignatureScheme, WebhookEndpointRow } from './tables.ts';

/** The most endpoints one app may register. */
export const ENDPOINTS_PER_APP = 50;

/** An endpoint as its app sees it. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  eventTypes: string[];
  status: EndpointStatus;
  /** Why it is paused: `REQUESTED` (its app or the merchant), `GONE` (it answered 410), `FAILING`. */
  pausedReason: string | null;
  signature: SignatureScheme;
  createdDate: string;
  updatedDate: string;
}

/** Who manages webhooks: their app, and whether they hold a permission (the admin key holds all). */
export interface WebhookCaller {
  app: string;
  holds(permission: Permission): boolean;
}

export interface EndpointInput {
  url: string;
  eventTypes: string[];
  signature?: SignatureScheme;
}

export interface EndpointChange {
  url?: string;
  eventTypes?: string[];
  /** `PAUSED` stops its deliveries (kept); `ACTIVE` resumes them, everything it missed in order. */
  status?: EndpointStatus;
}

/**
 * The endpoints apps register: each app sees and changes only its own (`appId` comes from the caller,
 * never from the input). A URL is checked where it points now (addresses.ts); deliveries check again.
 */
export class WebhookEndpoints {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly clock: Clock,
    private readonly policy: AddressPolicy,
  ) {}

  async list(appId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(endpointOf);
  }

  async get(appId: string, id: string): Promise<WebhookEndpoint> {
    return endpointOf(await this.row(appId, id));
  }

  /** Registers an endpoint; a Standard Webhooks one answers its secret, this once. */
  async create(
    caller: WebhookCaller,
    input: EndpointInput,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string | undefined }> {
    const appId = caller.app;
    const violations = [...(await this.urlViolations(input.url)), ...eventTypeViolations(input.eventTypes)];
    if (violations.length > 0) throw invalidArgument(violations);
    refuseUnreadable(caller, input.eventTypes);
    const signature = input.signature ?? 'JWT';
    const secret = signature === 'STANDARD' ? `whsec_${randomBytes(24).toString('base64')}` : null;
    const now = new Date(this.clock.now()).toISOString();
    const row: WebhookEndpointRow = {
      id: newId(),
      app_id: appId,
      url: input.url,
      event_types: JSON.stringify([...new Set(input.eventTypes)]),
      signature,
      secret,
      status: 'ACTIVE',
      paused_reason: null,
      created_at: now,
      updated_at: now,
    };
    await inTransaction(this.db, async (trx) => {
      const count = await trx
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('app_id', '=', appId)
        .executeTakeFirstOrThrow();
      if (Number(count.count) >= ENDPOINTS_PER_APP) {
        throw applicationError(
          'RESOURCE_EXHAUSTED',
          'TOO_MANY_WEBHOOKS',
          `an app may register ${ENDPOINTS_PER_APP} webhook endpoints`,
        );
      }
      await trx.insertInto('webhook_endpoints').values(row).execute();
    });
    return { endpoint: endpointOf(row), secret: secret ?? undefined };
  }

  /**
   * Changes an endpoint's URL, event types or status. Resuming it (`ACTIVE`) sends what it missed, in
   * order, each delivery with a fresh retry schedule.
   */
  async update(caller: WebhookCaller, id: string, change: EndpointChange): Promise<WebhookEndpoint> {
    const appId = caller.app;
    const violations = [
      ...(change.url === undefined ? [] : await this.urlViolations(change.url)),
      ...(change.eventTypes === undefined ? [] : eventTypeViolations(change.eventTypes)),
    ];
    if (violations.length > 0) throw invalidArgument(violations);
    if (change.eventTypes !== undefined) refuseUnreadable(caller, change.eventTypes);
    const now = new Date(this.clock.now()).toISOString();
    return inTransaction(this.db, async (trx) => {
      const current = await this.row(appId, id, trx);
      const resuming = change.status === 'ACTIVE' && current.status !== 'ACTIVE';
      const next: Partial<WebhookEndpointRow> = {
        updated_at: now,
        ...(change.url === undefined ? {} : { url: change.url }),
        ...(change.eventTypes === undefined
          ? {}
          : { event_types: JSON.stringify([...new Set(change.eventTypes)]) }),
        ...(change.status === 'PAUSED' && current.status !== 'PAUSED'
          ? { status: 'PAUSED' as const, paused_reason: 'REQUESTED' as const }
          : {}),
        ...(resuming ? { status: 'ACTIVE' as const, paused_reason: null } : {}),
      };
      await trx.updateTable('webhook_endpoints').set(next).where('id', '=', id).execute();
      if (resuming) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: now, failures: 0, first_failed_at: null })
          .where('endpoint_id', '=', id)
          .where('status', '=', 'PENDING')
          .execute();
      }
      return endpointOf({ ...current, ...next });
    });
  }

  /** Removes an endpoint with its deliveries and their log. */
  async delete(appId: string, id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      await this.row(appId, id, trx);
      await trx.deleteFrom('webhook_attempts').where('endpoint_id', '=', id).execute();
      await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
      await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    });
  }

  /** The app's endpoint, or not found (another app's is not found either). */
  async row(
    appId: string,
    id: string,
    db: Kysely<Tables> = this.db,
  ): Promise<Selectable<WebhookEndpointRow>> {
    const row = await db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('app_id', '=', appId)
      .executeTakeFirst();
    if (!row) throw notFound('webhook', id);
    return row;
  }

  private async urlViolations(text: string): Promise<FieldViolation[]> {
    try {
      await resolveChecked(parseEndpointUrl(text, this.policy), this.policy);
      return [];
    } catch (error) {
      if (error instanceof RefusedAddress) {
        return [violation('webhook.url', `is refused: ${error.message}`, 'FORMAT')];
      }
      throw error;
    }
  }
}

/**
 * A delivery carries its entity (an order with the buyer's address, a member's profile): an app takes
 * only the events of what it may read. Checked when it subscribes; a key whose permissions shrink later
 * keeps its endpoints until they are changed.
 */
function refuseUnreadable(caller: WebhookCaller, types: readonly string[]): void {
  for (const [index, type] of types.entries()) {
    const needed = readPermissionOf(type);
    if (needed !== undefined && !caller.holds(needed)) {
      throw applicationError(
        'PERMISSION_DENIED',
        'PERMISSION_DENIED',
        `${type} events carry what only the ${needed} permission reads, which this app does not hold`,
        { field: `webhook.eventTypes[${index}]`, permission: needed },
      );
    }
  }
}

function eventTypeViolations(types: readonly string[]): FieldViolation[] {
  if (types.length === 0)
    return [violation('webhook.eventTypes', 'names at least one event type', 'MIN_SIZE')];
  return types.flatMap((type, index) =>
    isWebhookEventType(type)
      ? []
      : [
          violation(
            `webhook.eventTypes[${index}]`,
            `is not an event type the platform sends: ${type}`,
            'INVALID_ENUM_VALUE',
          ),
        ],
  );
}

function endpointOf(row: Selectable<WebhookEndpointRow>): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    eventTypes: JSON.parse(row.event_types) as string[],
    status: row.status,
    pausedReason: row.paused_reason,
    signature: row.signature,
    createdDate: row.created_at,
    updatedDate: row.updated_at,
  };
}
