import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Subscriber } from '../events/bus.ts';
import type { Settings } from '../settings/settings.ts';
import type { Clock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Permission } from '../shared/permissions.ts';
import type { Principal } from '../shared/principal.ts';
import type { Workers } from '../workers/runtime.ts';
import type { AddressPolicy } from './addresses.ts';
import { WebhookDelivery } from './delivery.ts';
import { type WebhookCaller, WebhookEndpoints } from './endpoints.ts';
import { WEBHOOK_SOURCES } from './event-types.ts';
import { AppKeys } from './keys.ts';
import { httpSender, type Send } from './sender.ts';

/** What webhooks use of the other domains: the store's instance id is a setting. */
export interface WebhookDependencies {
  settings: Pick<Settings, 'getOrCreate'>;
}

export interface WebhookOptions {
  dialect: DialectName;
  clock: Clock;
  policy: AddressPolicy;
  /** How long the log keeps a delivered delivery and its attempts (30 days unless told). */
  logRetentionMs?: number;
  /** How a delivery is sent; Node's HTTP client with the address checks unless a test hands another. */
  send?: Send;
  onError?: (error: unknown) => void;
}

/** The app the environment's admin key calls as. */
export const ADMIN_KEY_APP = 'admin';

/** How often the sender looks for due deliveries when nothing woke it. */
const DELIVER_EVERY_MS = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const LOG_RETENTION_MS = 30 * DAY_MS;
const PRUNE_LOG_EVERY_MS = 10 * 60_000;

/**
 * Webhooks delivered to apps (issue 31): each app's endpoints and key pair, and the delivery of the
 * outbox's events to them (delivery.ts), as a subscriber of the event bus and a job of the workers.
 */
export class WebhookService {
  readonly endpoints: WebhookEndpoints;
  readonly keys: AppKeys;
  readonly delivery: WebhookDelivery;
  private instance: Promise<string> | undefined;
  private readonly logRetentionMs: number;

  constructor(
    db: Kysely<Tables>,
    private readonly deps: WebhookDependencies,
    options: WebhookOptions,
  ) {
    this.logRetentionMs = options.logRetentionMs ?? LOG_RETENTION_MS;
    this.endpoints = new WebhookEndpoints(db, options.clock, options.policy);
    this.keys = new AppKeys(db, options.clock);
    this.delivery = new WebhookDelivery(db, {
      dialect: options.dialect,
      clock: options.clock,
      keys: this.keys,
      send: options.send ?? httpSender(options.policy),
      instanceId: () => this.instanceId(),
      onError: options.onError,
    });
  }

  /** The bus subscriber that writes each event's deliveries. */
  fanOut(): Subscriber {
    return {
      name: 'webhook-fan-out',
      wants: WEBHOOK_SOURCES,
      handle: async (event) => {
        await this.delivery.fanOut(event);
      },
    };
  }

  /**
   * Adds the sender's job (not leased, since each delivery is claimed by one process) and the log's
   * pruning (leased: one process of several prunes).
   */
  deliverOn(workers: Workers): void {
    const worker = workers.add({
      name: 'webhook-delivery',
      everyMs: DELIVER_EVERY_MS,
      leased: false,
      run: () => this.delivery.pump().then(() => {}),
    });
    this.delivery.runOn(worker);
    workers.add({
      name: 'webhook-log:prune',
      everyMs: PRUNE_LOG_EVERY_MS,
      leased: true,
      runAtStart: true,
      run: () => this.delivery.pruneLog(this.logRetentionMs).then(() => {}),
    });
  }

  /** The store's id as deliveries name it (`instanceId`), made once. */
  instanceId(): Promise<string> {
    this.instance ??= this.deps.settings
      .getOrCreate('webhooks.instance_id', newId)
      .then(({ value }) => value);
    return this.instance;
  }
}

/**
 * The app a call manages webhooks for: an API key's own id, the OAuth client a staff member's token
 * was issued to, or the admin key's. Webhook routes take staff and keys only, so anyone else is refused.
 */
export function appOf(principal: Principal): string {
  return callerOf(principal).app;
}

export function callerOf(principal: Principal): WebhookCaller {
  if (principal.kind !== 'admin') throw new DomainError('PERMISSION_DENIED', 'webhooks are managed by apps');
  const actor = principal.actor;
  if (!actor) return { app: ADMIN_KEY_APP, holds: () => true };
  const holds = (permission: Permission) => actor.permissions.includes(permission);
  if (actor.type === 'API_KEY') return { app: actor.id, holds };
  return { app: actor.clientId ?? ADMIN_KEY_APP, holds };
}
