/** Subscription periods: adding DAY, WEEK, MONTH or YEAR units to a date, in UTC. */
export type Frequency = 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';

/**
 * `at` plus `count` units of `frequency`. A month or a year keeps the day of the month, or the month's
 * last day when it has fewer (January 31 plus one month is February 28 or 29), so a schedule computed
 * from its anchor never drifts.
 */
export function addPeriods(at: Date, frequency: Frequency, count: number): Date {
  const next = new Date(at.getTime());
  switch (frequency) {
    case 'DAY':
      next.setUTCDate(next.getUTCDate() + count);
      return next;
    case 'WEEK':
      next.setUTCDate(next.getUTCDate() + 7 * count);
      return next;
    case 'MONTH':
    case 'YEAR': {
      const months = frequency === 'MONTH' ? count : 12 * count;
      const day = at.getUTCDate();
      next.setUTCDate(1);
      next.setUTCMonth(next.getUTCMonth() + months);
      const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
      next.setUTCDate(Math.min(day, last));
      return next;
    }
  }
}
