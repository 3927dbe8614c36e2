/** The fulfillments domain's rows. */
export interface FulfillmentTables {
  /** An order's fulfillments (0027): the line quantities shipped, with tracking. */
  order_fulfillments: OrderFulfillmentRow;
}

export interface OrderFulfillmentRow {
  id: string;
  order_id: string;
  created_at: string;
  updated_at: string;
  /** The wire fulfillment (lineItems, trackingInfo, customInfo, status, completed) as JSON text. */
  doc: string;
}
