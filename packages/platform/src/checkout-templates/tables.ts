/** The checkout templates domain's rows. */
export interface CheckoutTemplateTables {
  /** A merchant's checkout template (0050): lines, custom lines and coupon a buy link makes a checkout of. */
  checkout_templates: CheckoutTemplateRow;
}

export interface CheckoutTemplateRow {
  /** Time-ordered: the query's cursor walks templates in the order they were made. */
  id: string;
  /** `ACTIVE` or `INACTIVE` (point 4): an inactive template makes no checkout. */
  status: string;
  /** The wire template but its id and status, as JSON text. */
  doc: string;
  created_date: string;
  updated_date: string;
}
