/** Webhooks (issue 31): each app's signing keys, its endpoints, what each endpoint is sent and every attempt. */
export interface WebhookTables {
  webhook_app_keys: WebhookAppKeyRow;
  webhook_endpoints: WebhookEndpointRow;
  webhook_deliveries: WebhookDeliveryRow;
  webhook_attempts: WebhookAttemptRow;
}

/** An app's RSA key pair, made the first time the app needs it: deliveries are signed with its private key. */
export interface WebhookAppKeyRow {
  /** An OAuth client's id, an API key's id, or `admin` (the environment's admin key). */
  app_id: string;
  /** PEM, SPKI: what the app verifies deliveries with (`AppStrategy({ publicKey })`). */
  public_key: string;
  /** PEM, PKCS #8. */
  private_key: string;
  created_at: string;
}

export type EndpointStatus = 'ACTIVE' | 'PAUSED';
/** Why an endpoint is paused: its app or the merchant paused it, it answered 410, or it kept failing. */
export type PausedReason = 'REQUESTED' | 'GONE' | 'FAILING';
export type SignatureScheme = 'JWT' | 'STANDARD';

export interface WebhookEndpointRow {
  id: string;
  app_id: string;
  url: string;
  /** JSON array of event types (`wix.ecom.v1.order_created`). */
  event_types: string;
  /** `JWT` (the hosted platform's signed body) or `STANDARD` (Standard Webhooks headers). */
  signature: SignatureScheme;
  /** The Standard Webhooks secret (`whsec_...`); null for JWT endpoints. */
  secret: string | null;
  status: EndpointStatus;
  paused_reason: PausedReason | null;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'DEAD';

/** One event for one endpoint: sent until acknowledged (2xx), in order per endpoint and entity. */
export interface WebhookDeliveryRow {
  id: string;
  endpoint_id: string;
  /** The outbox event's id: the same on every attempt, unique per endpoint. */
  event_id: string;
  /** The event's outbox sequence: an entity's deliveries go out in this order. */
  event_sequence: number;
  /** `<entity fqdn> <entity id>`: deliveries of one key go one at a time. */
  entity_key: string;
  event_type: string;
  /** JSON text of the domain event (or a plain event's data), as the JWT's `data.data` carries it. */
  data: string;
  /** JSON text of who caused it, as the JWT's `data.identity` carries it. */
  identity: string;
  /** When the event happened (the Standard Webhooks body's `timestamp`). */
  event_time: string;
  status: DeliveryStatus;
  /** Every attempt made (claimed), for the log. */
  attempts: number;
  /** Failed attempts since `first_failed_at`: where the retry schedule is (reset when its endpoint resumes). */
  failures: number;
  next_attempt_at: string;
  /** When its first failed attempt was: retries go on for at least three days from it. */
  first_failed_at: string | null;
  /** A process sending it holds it until then; a process that dies lets it go when this passes. */
  claimed_until: string | null;
  last_status_code: number | null;
  created_at: string;
  delivered_at: string | null;
}

/** What one attempt met: the delivery log, successes as well as failures. */
export interface WebhookAttemptRow {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  attempt: number;
  at: string;
  /** `DELIVERED`, `FAILED` (an answer not 2xx), `TIMEOUT`, `UNREACHABLE`, `REFUSED_ADDRESS`, `GONE`. */
  outcome: string;
  status_code: number | null;
  duration_ms: number;
  /** The answer's first characters (`RESPONSE_EXCERPT_MAX`), or what went wrong. */
  response_excerpt: string | null;
}
