import type { AuditEntry } from '@cartwheel/sdk';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { timeOrderedId } from '../shared/ids.ts';
import { isReadOnly } from '../shared/permissions.ts';
import { requirementOf } from '../shared/principal.ts';
import type { AuditLogRow } from './tables.ts';

/** An entry is Cartwheel's own admin wire type: declared once, in the SDK (issue 37). */
export type { AuditEntry };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What staff and API keys (and the environment's admin key) change: every call they make as admins
 * that is not a read (a GET, or a POST needing only a `*.read` permission, like an order search) and
 * that succeeded, with who, what (the operation, from the route's entry in its domain's operation
 * table, and the route and path that served it), when and from where. Written before the answer goes out, so a caller
 * who saw the answer finds the entry.
 */
export class AuditLog {
  constructor(private readonly db: Kysely<Tables>) {}

  async record(request: FastifyRequest, status: number): Promise<void> {
    const principal = request.principal;
    if (principal?.kind !== 'admin' || status >= 400 || SAFE_METHODS.has(request.method)) return;
    const access = request.routeOptions.config.access;
    if (access && isReadOnly(requirementOf(access))) return;
    const row: AuditLogRow = {
      id: timeOrderedId(),
      at: new Date().toISOString(),
      actor_type: principal.actor?.type ?? 'ADMIN_KEY',
      actor_id: principal.actor?.id ?? null,
      actor_name: principal.actor?.name ?? null,
      operation: request.routeOptions.config.operation ?? null,
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      path: request.url.split('?')[0] ?? request.url,
      status,
      address: request.ip,
      request_id: request.id,
    };
    await this.db.insertInto('audit_log').values(row).execute();
  }

  /** Newest first; `before` is the `id` of the last entry of the previous page. */
  async list(input: {
    limit?: number;
    before?: string;
  }): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    const limit = input.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw invalidArgument([violation('limit', 'must be between 1 and 100', 'VALIDATION')]);
    }
    let query = this.db
      .selectFrom('audit_log')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit + 1);
    if (input.before) query = query.where('id', '<', input.before);
    const rows = await query.execute();
    const page = rows.slice(0, limit);
    return {
      entries: page.map((row) => ({
        id: row.id,
        date: row.at,
        actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
        operation: row.operation,
        method: row.method,
        route: row.route,
        path: row.path,
        status: Number(row.status),
        address: row.address,
        requestId: row.request_id,
      })),
      nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
    };
  }
}
