import type { ModuleDefinition } from '../../client.ts';
import type { HttpMethod, RequestSpec, Transport } from '../../transport/http.ts';
import type { CancelOrderRequest, Order } from '../../types/ecom-orders.ts';
import type { OrderTransactions } from '../../types/ecom-payments.ts';
import type { Filter } from '../../types/paging.ts';
import { CARTWHEEL_API } from './domains.ts';

/**
 * Cartwheel's own calls for a store's back office, beside the hosted platform's: the streamed CSV
 * export of orders and the orders table's saved views. They live under `/api/cartwheel` on Cartwheel's
 * platform; the hosted platform has no such calls.
 */

/** A saved view of the orders table: a name and the table's address parameters. */
export interface OrderView {
  id: string;
  name: string;
  params: Record<string, string>;
  /** Who saved it last (a staff member's email, a key's name); null for the admin key. */
  savedBy: string | null;
  createdDate: string;
  updatedDate: string;
}

export interface OrdersExportOptions {
  /** The orders search's filter (`searchOrders`' own language); every order when absent. */
  filter?: Filter | undefined;
  /** The orders search's free search (`OrderSearch.search.expression`): a number, part of an email or a name. */
  search?: string | undefined;
  /** Newest first by creation date unless told. */
  sort?: { fieldName: string; order?: 'ASC' | 'DESC' } | undefined;
}

/** `voidAndCancelOrder`'s answer: the canceled order, and its transactions with every authorization voided. */
export interface VoidAndCancelOrderResponse {
  order: Order;
  orderTransactions: OrderTransactions;
}

/** A piece of the export as it arrives, and how many orders have arrived so far (the header not counted). */
export interface OrdersExportChunk {
  text: string;
  rows: number;
}

const trace = (method: string, entity: string): RequestSpec['trace'] => ({
  package: '@cartwheel/sdk',
  method: `cartwheel.backoffice.v1.${method}`,
  entity,
});

const json = <T>(transport: Transport, method: HttpMethod, path: string, name: string, body?: unknown) =>
  transport.request<T>({ method, path, mapping: CARTWHEEL_API, body, trace: trace(name, 'orderView') });

function exportSpec(options: OrdersExportOptions | undefined): RequestSpec & { accept: string } {
  return {
    method: 'GET',
    path: '/orders/export.csv',
    mapping: CARTWHEEL_API,
    accept: 'text/csv',
    params: {
      filter: options?.filter ? JSON.stringify(options.filter) : undefined,
      search: options?.search || undefined,
      sort: options?.sort?.fieldName,
      order: options?.sort?.order,
    },
    trace: trace('OrdersExport.ExportOrders', 'order'),
  };
}

function streamOf(transport: Transport, options: OrdersExportOptions | undefined): Promise<Response> {
  if (!transport.stream) throw new Error('This transport cannot stream an answer');
  return transport.stream(exportSpec(options));
}

export const orderAdmin = {
  /**
   * `GET /api/cartwheel/orders/export.csv?filter=<json>&search=&sort=&order=`: the CSV of every order the filter
   * finds, as the platform streams it (`Content-Disposition: attachment`). The body is left unread.
   */
  exportOrdersCsv:
    (transport: Transport) =>
    (options?: OrdersExportOptions): Promise<Response> =>
      streamOf(transport, options),

  /**
   * The same export as it arrives: once the platform has accepted it (a refusal rejects here), each
   * piece of text with the count of orders so far, for a progress display. Rows are counted by their
   * line ends outside quoted cells.
   */
  exportOrdersCsvChunks:
    (transport: Transport) =>
    async (options?: OrdersExportOptions): Promise<AsyncIterable<OrdersExportChunk>> => {
      const response = await streamOf(transport, options);
      return {
        async *[Symbol.asyncIterator]() {
          if (!response.body) return;
          const decoder = new TextDecoder();
          const reader = response.body.getReader();
          let quoted = false;
          let lines = 0;
          try {
            for (;;) {
              const { done, value } = await reader.read();
              const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
              for (const char of text) {
                if (char === '"') quoted = !quoted;
                else if (char === '\n' && !quoted) lines += 1;
              }
              if (text) yield { text, rows: Math.max(0, lines - 1) };
              if (done) return;
            }
          } finally {
            reader.releaseLock();
          }
        },
      };
    },

  /**
   * `POST /api/cartwheel/orders/{id}/void-and-cancel` {sendOrderCanceledEmail, customMessage,
   * restockAllItems}: cancels an order holding authorized payments (which `cancelOrder` refuses with
   * ORDER_HAS_AUTHORIZED_TRANSACTION), voiding each at its provider first; a void that fails cancels
   * nothing (PAYMENT_VOID_FAILED). Calling it again after it succeeded answers the order as it is.
   */
  voidAndCancelOrder:
    (transport: Transport) =>
    (orderId: string, options?: CancelOrderRequest): Promise<VoidAndCancelOrderResponse> =>
      transport.request<VoidAndCancelOrderResponse>({
        method: 'POST',
        path: `/orders/${encodeURIComponent(orderId)}/void-and-cancel`,
        mapping: CARTWHEEL_API,
        body: {
          sendOrderCanceledEmail: options?.sendOrderCanceledEmail,
          customMessage: options?.customMessage,
          restockAllItems: options?.restockAllItems,
        },
        trace: trace('OrderBilling.VoidAndCancelOrder', 'order'),
      }),

  /** `GET /api/cartwheel/order-views`: every saved view, by name. */
  listOrderViews: (transport: Transport) => (): Promise<{ views: OrderView[] }> =>
    json(transport, 'GET', '/order-views', 'OrderViews.ListOrderViews'),

  /** `POST /api/cartwheel/order-views` {view: {name, params}}: saves it; a name saved again is replaced. */
  saveOrderView:
    (transport: Transport) =>
    (view: { name: string; params: Record<string, string> }): Promise<{ view: OrderView }> =>
      json(transport, 'POST', '/order-views', 'OrderViews.SaveOrderView', { view }),

  /** `DELETE /api/cartwheel/order-views/{id}`. */
  deleteOrderView:
    (transport: Transport) =>
    (id: string): Promise<Record<string, never>> =>
      json(transport, 'DELETE', `/order-views/${encodeURIComponent(id)}`, 'OrderViews.DeleteOrderView'),
} satisfies ModuleDefinition;
