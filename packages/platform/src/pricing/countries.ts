import { COUNTRY_CODES as CODES } from '@cartwheel/sdk/wire';

/** ISO 3166-1 alpha-2 country codes (with XK), the one list the pages offer too. */
const COUNTRY_CODES = new Set(CODES);

export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && COUNTRY_CODES.has(value);
}

/** `US-NY` from `US-NY`, `us-ny` or `NY` (with country `US`); null when there is none. */
export function subdivisionCode(country: string, subdivision: string | null | undefined): string | null {
  const text = subdivision?.trim().toUpperCase();
  if (!text) return null;
  return text.includes('-') ? text : `${country}-${text}`;
}
