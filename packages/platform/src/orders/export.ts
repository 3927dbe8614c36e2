import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Type from 'typebox';
import type { HttpApp } from '../http/app.ts';
import { OneOf, Text } from '../http/input.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { MAX_FILTER_TEXT } from '../shared/filter-budget.ts';
import { ORDER_OPERATIONS } from './operations-access.ts';
import type { OrderDocument, OrderService } from './service.ts';

/**
 * The orders export (issue 22): `GET /api/cartwheel/orders/export.csv?filter=<json>&search=&sort=&order=`
 * streams a CSV of every order the filter and the free search find (the search's own), a page at a time by
 * the search's keyset cursor. Nothing holds more than a page of orders or a transaction across pages,
 * and the next page is read only when the client has taken the last (the stream's back-pressure), so a
 * million rows neither fill the memory nor keep other requests waiting.
 */

/** The CSV's columns, in order. */
export const EXPORT_HEADER = [
  'Order number',
  'Date',
  'Buyer email',
  'Name',
  'Total',
  'Currency',
  'Payment status',
  'Fulfillment status',
  'Tags',
] as const;

/** Orders read per page (the search's own maximum). */
export const EXPORT_BATCH = 100;

/**
 * One CSV cell (RFC 4180): text that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is
 * prefixed with `'` so a spreadsheet does not run it as a formula; a cell holding a quote, comma or line
 * break is quoted, its quotes doubled.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRow = (cells: unknown[]): string => `${cells.map(csvCell).join(',')}\r\n`;

interface ExportedOrder {
  number?: unknown;
  createdDate?: unknown;
  status?: unknown;
  paymentStatus?: unknown;
  fulfillmentStatus?: unknown;
  currency?: unknown;
  buyerInfo?: { email?: unknown };
  billingInfo?: { contactDetails?: { firstName?: unknown; lastName?: unknown } };
  priceSummary?: { total?: { amount?: unknown } };
  tags?: { tags?: { tagIds?: unknown } };
}

export function exportRow(order: OrderDocument): string {
  const doc = order as ExportedOrder;
  const contact = doc.billingInfo?.contactDetails;
  const name = [contact?.firstName, contact?.lastName]
    .filter((part) => typeof part === 'string' && part)
    .join(' ');
  const tags = Array.isArray(doc.tags?.tags?.tagIds) ? doc.tags.tags.tagIds.join('; ') : '';
  const date = doc.createdDate instanceof Date ? doc.createdDate.toISOString() : doc.createdDate;
  return csvRow([
    doc.number,
    date,
    doc.buyerInfo?.email,
    name,
    doc.priceSummary?.total?.amount,
    doc.currency,
    doc.paymentStatus,
    doc.status === 'CANCELED' ? 'CANCELED' : doc.fulfillmentStatus,
    tags,
  ]);
}

/** The CSV's chunks: the header, then a chunk per page of orders, each page a search of its own. */
export async function* exportChunks(
  orders: Pick<OrderService, 'search'>,
  filter: Record<string, unknown>,
  sort: { fieldName: string; order: 'ASC' | 'DESC' },
  expression?: string,
): AsyncGenerator<string> {
  yield csvRow([...EXPORT_HEADER]);
  const admin = { kind: 'admin' } as const;
  let page = await orders.search(
    {
      filter,
      ...(expression ? { search: { expression } } : {}),
      sort: [sort],
      cursorPaging: { limit: EXPORT_BATCH },
    },
    admin,
  );
  for (;;) {
    if (page.orders.length > 0) yield page.orders.map(exportRow).join('');
    const next = page.metadata.cursors.next;
    if (!next || !page.metadata.hasNext) return;
    // let other requests in between pages, whatever the driver does while a query runs
    await nextTurn();
    page = await orders.search({ cursorPaging: { limit: EXPORT_BATCH, cursor: next } }, admin);
  }
}

const ExportQuery = Type.Object({
  filter: Type.Optional(Text(20_000)),
  /** The free search (`search.search.expression` of the orders search). */
  search: Type.Optional(Text(MAX_FILTER_TEXT)),
  sort: Type.Optional(Text(100)),
  order: Type.Optional(OneOf(['ASC', 'DESC'])),
});

function parseFilter(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidArgument([violation('filter', 'must be a JSON object', 'FORMAT')]);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw invalidArgument([violation('filter', 'must be a JSON object', 'FORMAT')]);
  return parsed as Record<string, unknown>;
}

export function orderExportRoutes(app: HttpApp, services: { orders: OrderService }): void {
  app.get(
    '/api/cartwheel/orders/export.csv',
    { schema: { querystring: ExportQuery }, config: ORDER_OPERATIONS.exportOrdersCsv },
    async (request, reply) => {
      const filter = parseFilter(request.query.filter);
      const sort = { fieldName: request.query.sort || 'createdDate', order: request.query.order ?? 'DESC' };
      const chunks = exportChunks(services.orders, filter, sort, request.query.search);
      // the first page is read before the answer starts, so a bad filter or sort is a 400, not a cut file
      const first = await chunks.next();
      const second = await chunks.next();
      async function* all() {
        if (!first.done) yield first.value;
        if (!second.done) {
          yield second.value;
          yield* chunks;
        }
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-disposition', `attachment; filename="orders-${day}.csv"`)
        .header('cache-control', 'no-store')
        .type('text/csv; charset=utf-8')
        .send(Readable.from(all(), { objectMode: false }));
    },
  );
}
