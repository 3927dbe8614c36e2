/**
 * Receiving the platform's events in an app (`@cartwheel/sdk/webhooks`), the hosted client's way:
 * register a handler per event type, then hand each delivery's body to `process` (or the whole Fetch
 * `Request` to `processRequest`). A delivery is an RS256 JWT signed with the app's key pair (verified
 * with the public key from `GET /api/cartwheel/webhooks/public-key`), or, for an endpoint that chose
 * them, a JSON body with Standard Webhooks signature headers. WebCrypto only: no dependency, and a
 * separate entry point, so no storefront bundle carries it.
 */
import { ClientError, ClientMessages } from '../errors/client-error.ts';
import type { EventIdentity } from '../types/events.ts';
import { reviveDates } from '../wire/dates.ts';
import type {
  DomainEventBody,
  EventMetadata,
  StandardWebhookBody,
  WebhookEvent,
  WebhookEventType,
} from './events.ts';
import { importPublicKey, verifiedClaims } from './jwt.ts';
import { type StandardWebhookHeaders, standardHeaders, standardSignatureHolds } from './standard.ts';

export type {
  DomainEventBody,
  DomainEventEntities,
  EventMetadata,
  PlainEventData,
  StandardWebhookBody,
  WebhookEvent,
  WebhookEventType,
} from './events.ts';
export {
  STANDARD_TOLERANCE_S,
  type StandardWebhookHeaders,
  standardHeaders,
  standardSignature,
  standardSignatureHolds,
} from './standard.ts';

export interface WebhookReceiverOptions {
  /** The app's public key (PEM, or base64 of the PEM): verifies JWT deliveries. */
  publicKey?: string;
  /** The endpoint's Standard Webhooks secret (`whsec_...`): verifies deliveries with those headers. */
  standardSecret?: string;
  /** The receiver's clock (ms since the epoch); tests move it. */
  now?: () => number;
}

/** One event read from a delivery whose signature holds. */
export interface ParsedEvent {
  eventType: string;
  instanceId?: string;
  identity?: EventIdentity;
  /** The domain event (or, for a plain event, its data) as the platform sent it. */
  payload: unknown;
}

export interface ProcessOptions {
  /** Event types this receiver takes without a handler of its own (the hosted client's `expectedEvents`). */
  expectedEvents?: { type: string }[];
}

type Handler = (event: never) => unknown;

export interface WebhookReceiver {
  /** Calls `handler` for each delivered event of `type` (several handlers run side by side). */
  on<Type extends WebhookEventType>(type: Type, handler: (event: WebhookEvent<Type>) => unknown): void;
  /** Verifies a JWT delivery's body, checks its type is expected, runs its handlers; answers the event. */
  process(body: string, options?: ProcessOptions): Promise<ParsedEvent>;
  /**
   * The same for a Fetch `Request`: a Standard Webhooks delivery when its headers say so (and a secret is
   * set), a JWT delivery otherwise.
   */
  processRequest(request: Request, options?: ProcessOptions): Promise<ParsedEvent>;
  /** Verifies and reads a JWT delivery without running handlers. */
  parse(body: string): Promise<ParsedEvent>;
  /** Verifies and reads a Standard Webhooks delivery without running handlers. */
  parseStandard(body: string, headers: StandardWebhookHeaders): Promise<ParsedEvent>;
}

export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const handlers = new Map<string, Handler[]>();
  const now = options.now ?? Date.now;
  let key: Promise<CryptoKey> | undefined;

  const parse = async (body: string): Promise<ParsedEvent> => {
    if (!options.publicKey) throw new ClientError('a JWT delivery needs the app public key: pass publicKey');
    key ??= importPublicKey(options.publicKey);
    const claims = await verifiedClaims(body, await key, Math.floor(now() / 1000));
    if (!claims || typeof claims.data !== 'string') throw new ClientError(ClientMessages.jwtNotValid);
    try {
      const envelope = JSON.parse(claims.data) as {
        eventType?: unknown;
        instanceId?: string;
        identity?: string;
        data?: string;
      };
      if (typeof envelope.eventType !== 'string' || typeof envelope.data !== 'string') throw new Error();
      return {
        eventType: envelope.eventType,
        ...(envelope.instanceId !== undefined ? { instanceId: envelope.instanceId } : {}),
        ...(envelope.identity ? { identity: JSON.parse(envelope.identity) as EventIdentity } : {}),
        payload: JSON.parse(envelope.data) as unknown,
      };
    } catch {
      throw new ClientError(ClientMessages.jwtNotValid);
    }
  };

  const parseStandard = async (body: string, headers: StandardWebhookHeaders): Promise<ParsedEvent> => {
    if (!options.standardSecret) {
      throw new ClientError('a Standard Webhooks delivery needs the endpoint secret: pass standardSecret');
    }
    const holds = await standardSignatureHolds(
      options.standardSecret,
      headers,
      body,
      Math.floor(now() / 1000),
    );
    if (!holds) throw new ClientError(ClientMessages.jwtNotValid);
    try {
      const event = JSON.parse(body) as StandardWebhookBody;
      if (typeof event.type !== 'string' || !('data' in event)) throw new Error();
      return {
        eventType: event.type,
        ...(event.instanceId !== undefined ? { instanceId: event.instanceId } : {}),
        ...(event.identity ? { identity: event.identity } : {}),
        payload: event.data,
      };
    } catch {
      throw new ClientError(ClientMessages.jwtNotValid);
    }
  };

  const dispatch = async (event: ParsedEvent, processOptions: ProcessOptions = {}): Promise<ParsedEvent> => {
    const expected = [...(processOptions.expectedEvents ?? []).map(({ type }) => type), ...handlers.keys()];
    if (expected.length === 0) throw new ClientError(ClientMessages.noImplementationFound(event.eventType));
    if (!expected.includes(event.eventType)) {
      throw new ClientError(ClientMessages.unexpectedEventType(event.eventType, expected));
    }
    const base: EventMetadata = {
      ...(event.instanceId !== undefined ? { instanceId: event.instanceId } : {}),
      ...(event.identity ? { identity: event.identity } : {}),
    };
    const envelope = envelopeOf(event.payload, base);
    await Promise.all((handlers.get(event.eventType) ?? []).map((handler) => handler(envelope as never)));
    return event;
  };

  return {
    on(type, handler) {
      handlers.set(type, [...(handlers.get(type) ?? []), handler as Handler]);
    },
    parse,
    parseStandard,
    process: async (body, processOptions) => dispatch(await parse(body), processOptions),
    async processRequest(request, processOptions) {
      const body = await request.text();
      const standard = options.standardSecret ? standardHeaders(request.headers) : undefined;
      return dispatch(standard ? await parseStandard(body, standard) : await parse(body), processOptions);
    },
  };
}

/** The handler's argument, as the hosted client builds it from a domain event or a plain event's data. */
function envelopeOf(payload: unknown, base: EventMetadata): Record<string, unknown> {
  const domain = payload as Partial<DomainEventBody> | null;
  if (!domain || typeof domain !== 'object' || typeof domain.entityFqdn !== 'string') {
    return { data: reviveDates(payload), metadata: base };
  }
  const { createdEvent, updatedEvent, deletedEvent, actionEvent, eventTime, ...rest } = domain;
  // dates as the rest of the SDK answers them: `Date`s, in the entity and the envelope alike
  const metadata = { ...base, ...rest, ...(eventTime ? { eventTime: new Date(eventTime) } : {}) };
  if (deletedEvent) {
    return {
      ...(deletedEvent.deletedEntity ? { entity: reviveDates(deletedEvent.deletedEntity) } : {}),
      metadata,
    };
  }
  if (actionEvent) return { data: reviveDates(actionEvent.body), metadata };
  if (updatedEvent) {
    return {
      entity: reviveDates(updatedEvent.currentEntity),
      metadata,
      ...(updatedEvent.modifiedFields ? { modifiedFields: updatedEvent.modifiedFields } : {}),
    };
  }
  return { entity: reviveDates(createdEvent?.entity), metadata };
}
