import type { Requirement } from './permissions.ts';
import type { Access } from './principal.ts';

/**
 * Who may make a call, by kind: the values an operation table gives its operations (see
 * `operationTable`). No HTTP here: REST routes and GraphQL (issue 33) read the same declarations.
 */
export const CALLERS = {
  anyone: 'public',
  tokenHolders: 'visitor',
  members: 'member',
  /** The environment's admin API key only. */
  admins: 'admin',
  /** The admin API key, or staff (signed in) and API keys holding `requires`: services see an admin. */
  staff: (requires: Requirement) => ({ callers: 'admin', requires }) as const,
  /**
   * Any token holder as themselves (their own cart, orders, ...), and staff and API keys holding
   * `requires` as admins: an operation whose service already tells the admin's answer from a buyer's.
   */
  tokenHoldersOrStaff: (requires: Requirement) => ({ callers: 'visitor', requires }) as const,
} as const satisfies Record<string, Access | ((requires: Requirement) => Access)>;

/**
 * One operation a domain exposes, named once with who may call it. It is a route's whole access
 * declaration (`config: ORDER_OPERATIONS.cancelOrder`): the access check reads `access`, the audit log
 * records `operation`. Several routes serving one operation (a hosted path and Cartwheel's own, GET and
 * POST forms of a query) share its entry.
 */
export interface Operation {
  /** `<domain>.<name>`, stable: the audit log keeps it and GraphQL will name its fields from it. */
  readonly operation: string;
  readonly access: Access;
}

/** A domain's operations by name (its `operations-access.ts`). */
export type OperationTable<Name extends string = string> = { readonly [Key in Name]: Operation };

/**
 * A domain's operation table: each key is an operation's name within the domain (the hosted SDK's
 * method name where there is one), and each entry is named `<domain>.<key>`, so a name cannot be
 * mistyped apart from its key.
 */
export function operationTable<const Table extends Record<string, Access>>(
  domain: string,
  table: Table,
): OperationTable<keyof Table & string> {
  const entries = Object.entries(table).map(([name, access]) => [
    name,
    Object.freeze({ operation: `${domain}.${name}`, access }),
  ]);
  return Object.freeze(Object.fromEntries(entries)) as OperationTable<keyof Table & string>;
}
