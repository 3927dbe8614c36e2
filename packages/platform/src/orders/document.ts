import type { OrderRow } from './tables.ts';

export type OrderDocument = Record<string, unknown> & { id: string; status: string };

/** The wire order: the stored document with the row's id, number, statuses and dates. */
export function documentOf(row: OrderRow): OrderDocument {
  const { shippable: _, confirmOnApproval: __, ...doc } = JSON.parse(row.doc) as Record<string, unknown>;
  return {
    id: row.id,
    ...(row.number !== null ? { number: String(row.number) } : {}),
    ...doc,
    status: row.status,
    paymentStatus: row.payment_status,
    fulfillmentStatus: row.fulfillment_status,
    createdDate: row.created_at,
    updatedDate: row.updated_at,
    purchasedDate: row.created_at,
  };
}
