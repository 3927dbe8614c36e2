/** An order's fulfillments (`orderFulfillments`): what was shipped of which line, with tracking. */

export interface FulfillmentLineItem {
  /** The order line's id. */
  id?: string;
  /** How many of the line; on creation, what is left of it when absent. */
  quantity?: number | null;
}

export interface FulfillmentTrackingInfo {
  trackingNumber?: string | null;
  /** `fedex`, `ups`, `usps`, `dhl`, `canadaPost` get their link filled in; any other name keeps the link given. */
  shippingProvider?: string | null;
  trackingLink?: string | null;
}

export interface Fulfillment {
  id?: string | null;
  createdDate?: Date | null;
  lineItems?: FulfillmentLineItem[];
  trackingInfo?: FulfillmentTrackingInfo;
  customInfo?: { fieldsData?: Record<string, string> };
  /** `Pending`, `Accepted`, `Ready`, `In_Delivery`, `Fulfilled`: informational. */
  status?: string | null;
  completed?: boolean | null;
}

export interface OrderWithFulfillments {
  orderId?: string;
  fulfillments?: Fulfillment[];
}

export interface ListFulfillmentsForSingleOrderResponse {
  orderWithFulfillments?: OrderWithFulfillments;
}

export interface ListFulfillmentsForMultipleOrdersResponse {
  ordersWithFulfillments?: OrderWithFulfillments[];
}

export interface CreateFulfillmentResponse {
  orderWithFulfillments?: OrderWithFulfillments;
  fulfillmentId?: string;
}

export interface FulfillmentIdentifiers {
  fulfillmentId: string;
  orderId: string;
}

export interface UpdateFulfillmentOptions {
  /** Tracking, custom info, status, completed: a fulfillment's lines and quantities never change. */
  fulfillment?: Omit<Fulfillment, 'id' | 'createdDate'>;
}

export interface DeleteFulfillmentResponse {
  orderWithFulfillments?: OrderWithFulfillments;
}

export interface BulkCreateOrderWithFulfillments {
  orderId: string;
  fulfillments: Fulfillment[];
}

export interface BulkCreateFulfillmentsResponse {
  results?: Array<{
    itemMetadata?: {
      id?: string | null;
      originalIndex?: number;
      success?: boolean;
      error?: { code?: string; description?: string; data?: Record<string, unknown> };
    };
    ordersWithFulfillments?: OrderWithFulfillments;
  }>;
  bulkActionMetadata?: { totalSuccesses?: number; totalFailures?: number; undetailedFailures?: number };
}
