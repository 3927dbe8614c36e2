import type { OrderView } from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { OrderViewRow } from './tables.ts';

const viewOf = (row: OrderViewRow): OrderView => ({
  id: row.id,
  name: row.name,
  params: JSON.parse(row.params) as Record<string, string>,
  savedBy: row.saved_by,
  createdDate: row.created_at,
  updatedDate: row.updated_at,
});

/**
 * Views of the orders table saved on the server, shared by every staff member who may read orders.
 * A view is its name and its filters; saving a name that exists replaces that view's filters.
 */
export class OrderViewService {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(): Promise<OrderView[]> {
    const rows = await this.db.selectFrom('order_views').selectAll().orderBy('name').orderBy('id').execute();
    return rows.map(viewOf);
  }

  async save(name: string, params: Record<string, string>, savedBy: string | null): Promise<OrderView> {
    const at = new Date().toISOString();
    const row = await this.db
      .insertInto('order_views')
      .values({
        id: newId(),
        name,
        params: JSON.stringify(params),
        saved_by: savedBy,
        created_at: at,
        updated_at: at,
      })
      // one statement, so two staff saving the same name at once leave one view, not an error
      .onConflict((conflict) =>
        conflict
          .column('name')
          .doUpdateSet({ params: JSON.stringify(params), saved_by: savedBy, updated_at: at }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return viewOf(row);
  }

  async remove(id: string): Promise<void> {
    const deleted = await this.db.deleteFrom('order_views').where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notFound('order view', id);
  }
}
