import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { sha256 } from '../oauth/tokens.ts';
import { applicationError, DomainError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId, newSecret } from '../shared/ids.ts';
import { isPermission, type Permission } from '../shared/permissions.ts';
import type { ApiKeyCaller } from '../shared/principal.ts';
import { grantable } from './service.ts';
import type { ApiKeyRow } from './tables.ts';

/** Every app key starts so: `Authorization` holding one is looked up here, not checked as a token. */
export const API_KEY_PREFIX = 'cw_key_';
/** How long a process trusts what it read of a key: a revocation is refused everywhere within it. */
const KEY_TTL_MS = 500;
/** How often one process writes a key's last use (a write on every call would cost more than it tells). */
const LAST_USE_EVERY_MS = 10_000;
const KEYS_KEPT = 1_000;

export interface ApiKey {
  id: string;
  name: string;
  /** The key's first characters, to tell keys apart. */
  keyPrefix: string;
  permissions: Permission[];
  createdDate: string;
  expiresDate: string | null;
  lastUsedDate: string | null;
  revokedDate: string | null;
}

/**
 * API keys for apps: made by the owner (or staff holding `apiKeys.manage`) with a name, permissions
 * and an optional expiry; the key is shown once and stored as its SHA-256 (it is 256 random bits, so
 * a fast hash is enough). A call with a key is checked against the database at most `KEY_TTL_MS` after
 * the last check in this process, so revoking one refuses it on every process within a second.
 */
export class ApiKeyService {
  private readonly known = new Map<string, { at: number; row: ApiKeyRow | undefined }>();
  private readonly lastUseWritten = new Map<string, number>();

  constructor(private readonly db: Kysely<Tables>) {}

  async create(
    grants: readonly Permission[],
    input: { name: string; permissions: string[]; expiresDate?: string | null },
  ): Promise<{ apiKey: ApiKey; key: string }> {
    const name = input.name.trim();
    if (name === '') throw invalidArgument([violation('name', 'is required', 'REQUIRED_FIELD')]);
    const permissions = grantable(grants, input.permissions);
    let expiresAt: string | null = null;
    if (input.expiresDate) {
      const at = Date.parse(input.expiresDate);
      if (Number.isNaN(at)) throw invalidArgument([violation('expiresDate', 'is not a date', 'FORMAT')]);
      if (at <= Date.now())
        throw invalidArgument([violation('expiresDate', 'must be in the future', 'VALIDATION')]);
      expiresAt = new Date(at).toISOString();
    }
    const key = `${API_KEY_PREFIX}${newSecret()}`;
    const row: ApiKeyRow = {
      id: newId(),
      name,
      key_hash: sha256(key),
      key_prefix: key.slice(0, API_KEY_PREFIX.length + 6),
      permissions: JSON.stringify(permissions),
      created_at: new Date().toISOString(),
      expires_at: expiresAt,
      last_used_at: null,
      revoked_at: null,
    };
    await this.db.insertInto('api_keys').values(row).execute();
    return { apiKey: document(row), key };
  }

  async list(): Promise<ApiKey[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(document);
  }

  /** Revokes a key: refused on every process within a second. Revoking it again changes nothing. */
  async revoke(id: string): Promise<ApiKey> {
    const at = new Date().toISOString();
    await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('API key', id);
    for (const [hash, entry] of this.known) if (entry.row?.id === id) this.known.delete(hash);
    return document(row);
  }

  /** Who `Authorization: cw_key_...` names; an unknown, revoked or expired key is refused, never ignored. */
  async resolve(key: string): Promise<ApiKeyCaller> {
    const hash = sha256(key);
    const now = Date.now();
    let entry = this.known.get(hash);
    if (!entry || now - entry.at >= KEY_TTL_MS) {
      const row = await this.db
        .selectFrom('api_keys')
        .selectAll()
        .where('key_hash', '=', hash)
        .executeTakeFirst();
      entry = { at: now, row };
      if (this.known.size >= KEYS_KEPT) this.known.delete(this.known.keys().next().value!);
      this.known.set(hash, entry);
    }
    const row = entry.row;
    if (!row || row.revoked_at)
      throw new DomainError('UNAUTHENTICATED', 'the API key is not valid or was revoked');
    if (row.expires_at && Date.parse(row.expires_at) <= now) {
      throw applicationError('UNAUTHENTICATED', 'API_KEY_EXPIRED', 'the API key has expired');
    }
    if (now - (this.lastUseWritten.get(row.id) ?? 0) >= LAST_USE_EVERY_MS) {
      this.lastUseWritten.set(row.id, now);
      await this.db
        .updateTable('api_keys')
        .set({ last_used_at: new Date(now).toISOString() })
        .where('id', '=', row.id)
        .execute();
    }
    return { kind: 'apiKey', keyId: row.id, name: row.name, permissions: parsePermissions(row.permissions) };
  }
}

function parsePermissions(text: string): Permission[] {
  return (JSON.parse(text) as unknown[]).filter(isPermission);
}

function document(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.key_prefix,
    permissions: parsePermissions(row.permissions),
    createdDate: row.created_at,
    expiresDate: row.expires_at,
    lastUsedDate: row.last_used_at,
    revokedDate: row.revoked_at,
  };
}
