import Type from 'typebox';
import type { Database } from '../db/database.ts';
import type { HttpApp } from '../http/app.ts';
import { Id, Text } from '../http/input.ts';
import { EmptyAnswer } from '../http/responses.ts';
import { ORDER_VIEW_OPERATIONS } from './operations-access.ts';
import { OrderViewAnswer, OrderViewsAnswer } from './responses.ts';
import { OrderViewService } from './service.ts';

/** A view's filters: the orders table's address parameters, a few short strings. */
const ViewParams = Type.Record(Type.String({ maxLength: 40 }), Text(500), { maxProperties: 20 });

const SaveViewBody = Type.Object({
  view: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    params: ViewParams,
  }),
});

/**
 * `/api/cartwheel/order-views`: the back office's saved views of the orders table (issue 22), shared
 * with staff. Staff who may read orders list them; those who may manage orders save and delete them.
 */
export function orderViewRoutes(app: HttpApp, services: { database: Pick<Database, 'db'> }): void {
  const views = new OrderViewService(services.database.db);
  const path = '/api/cartwheel/order-views';

  app.get(
    path,
    { schema: { response: { 200: OrderViewsAnswer } }, config: ORDER_VIEW_OPERATIONS.listOrderViews },
    async () => ({ views: await views.list() }),
  );

  app.post(
    path,
    {
      schema: { body: SaveViewBody, response: { 200: OrderViewAnswer } },
      config: ORDER_VIEW_OPERATIONS.saveOrderView,
    },
    async (request) => {
      const principal = request.principal;
      const savedBy = principal.kind === 'admin' ? (principal.actor?.name ?? null) : null;
      return { view: await views.save(request.body.view.name.trim(), request.body.view.params, savedBy) };
    },
  );

  app.delete(
    `${path}/:id`,
    {
      schema: { params: Type.Object({ id: Id() }), response: { 200: EmptyAnswer } },
      config: ORDER_VIEW_OPERATIONS.deleteOrderView,
    },
    async (request) => {
      await views.remove(request.params.id);
      return {};
    },
  );
}
