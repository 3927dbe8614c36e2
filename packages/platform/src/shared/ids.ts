import { randomBytes, randomUUID } from 'node:crypto';

/** Entity ids are UUIDs, as on the hosted platform. */
export const newId = (): string => randomUUID();

/** An unguessable secret (tokens, keys, codes' seeds): 256 bits, base64url. */
export const newSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/**
 * A UUID whose first 48 bits are the time in ms (version 7, RFC 9562), the other 74 random: for rows
 * written in time order (the events outbox), whose unique index then takes each commit's ids in its
 * last pages, where a random id touches a page of its own in a growing index on every insert.
 */
export function timeOrderedId(): string {
  const random = randomUUID();
  const time = Date.now().toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
