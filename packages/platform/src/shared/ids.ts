import { randomBytes, randomUUID } from 'node:crypto';

/** Entity ids are UUIDs, as on the hosted platform. */
export const newId = (): string => randomUUID();

/** An unguessable secret (tokens, keys, codes' seeds): 256 bits, base64url. */
export const newSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');
