/**
 * Date fields of the specification's entities (point 3). Responses carry them as ISO strings;
 * the SDK turns them into `Date`s wherever they appear in an answer. One list for every entity.
 */
export const DATE_FIELDS: ReadonlySet<string> = new Set([
  'createdDate',
  'updatedDate',
  'lastUpdated',
  'lastLoginDate',
  'purchasedDate',
  'expirationDate',
  'urlExpirationDate',
  'subscriptionStartDate',
  'serviceScheduledDate',
  'startDate',
  'endDate',
  'from',
  'to',
  'deliverByDate',
  'authorizedDate',
  'voidedDate',
  'executionDate',
  'checkoutRecoveredDate',
  // a subscription contract's next order, and its renewal's last decline and retry
  'nextBillingDate',
  'failedDate',
  'nextAttemptDate',
  // a subscription charge's billing date in a checkout
  'cycleBillingDate',
  'scheduledDate',
  'dateValue',
  'start',
  'end',
]);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Returns `value` with every string under a date field name replaced by a `Date`. */
export function reviveDates<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => reviveDates(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === 'string' && DATE_FIELDS.has(key) && ISO_DATE.test(field)) {
      const date = new Date(field);
      out[key] = Number.isNaN(date.getTime()) ? field : date;
    } else {
      out[key] = reviveDates(field);
    }
  }
  return out as T;
}
