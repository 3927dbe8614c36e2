/** The back-in-stock domain's rows. */
export interface BackInStockTables {
  /** A shopper's request to hear when an out-of-stock variant is back (0071). */
  back_in_stock_requests: BackInStockRequestRow;
  /** Whether the store takes new requests, per catalog app (0071); no row: it does. */
  back_in_stock_settings: { app_id: string; collecting_requests: number; updated_date: string };
}

export interface BackInStockRequestRow {
  /** Time-ordered: the query pages by it. */
  id: string;
  product_id: string;
  /** The variant the catalog reference named (the default variant of a product without options). */
  variant_id: string;
  /** As given; duplicates are found by it in lower case. */
  email: string;
  /** RECEIVED, PROCESSING, NOTIFICATION_SENT or FAILED. */
  status: string;
  /** The member who asked, when a member did. */
  contact_id: string | null;
  /** 1 when the store sent the email, 0 when marked sent by hand, null before either. */
  auto_notified: number | null;
  item_url: string | null;
  /** The wire catalog reference as given, as JSON text. */
  catalog_reference: string;
  /** What the email names: the item's name and price as the shopper saw them. */
  item_name: string;
  item_price: string;
  /** The storefront's page of the item (`/product-page/<slug>`): the email links there, never to `item_url`. */
  item_path: string;
  /** How many times a notification was claimed for it: a retry is refused after the last. */
  attempts: number;
  /** Who holds a PROCESSING request (a claim's token): only its holder may finish it. */
  claim: string | null;
  /** When a PROCESSING claim lapses or a FAILED one is tried again; null: nothing due. */
  retry_at: string | null;
  failure_reason: string | null;
  created_date: string;
  updated_date: string;
}
