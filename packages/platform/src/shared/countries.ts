import { COUNTRY_CODES as CODES } from '@cartwheel/sdk/wire';
import { iso31662 } from 'iso-3166';

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

/**
 * Where an address's subdivision is: its ISO 3166-2 code (`placed`), none given (`none`), or text that
 * names no subdivision of the country, or more than one (`unplaced`).
 */
export type PlacedSubdivision =
  | { kind: 'placed'; code: string }
  | { kind: 'none' }
  | { kind: 'unplaced'; text: string };

/**
 * Places a buyer's subdivision in its country: the ISO 3166-2 code, or the subdivision's ISO name,
 * compared without case, accents, spaces or punctuation (`US-NY`, `ny`, `N.Y.`, `New York`,
 * `US-New York`), or one of `storeCodes` (codes the store's own regions name). Text that could be two
 * subdivisions is not placed.
 */
export function placeSubdivision(
  country: string,
  subdivision: string | null | undefined,
  storeCodes: readonly string[] = [],
): PlacedSubdivision {
  const text = subdivision?.trim();
  if (!text) return { kind: 'none' };
  // the text, and the text after a leading country code (`US-New York`, `US NY`)
  const prefixed = new RegExp(`^${country}[\\s-]+`, 'i');
  const candidates = prefixed.test(text) ? [text, text.replace(prefixed, '')] : [text];
  const names = subdivisionsOf(country);
  for (const candidate of candidates) {
    const key = folded(candidate);
    const own = storeCodes.find((code) => folded(code.slice(country.length + 1)) === key);
    if (own) return { kind: 'placed', code: own };
    const code = names.get(key);
    if (code) return { kind: 'placed', code };
  }
  return { kind: 'unplaced', text };
}

/** Text compared as a shopper means it: no case, accents, spaces or punctuation (`N.Y.` is `ny`). */
const folded = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase();

/** Each country's subdivisions by folded code (`ny`) and folded name (`newyork`), made when first asked. */
const byCountry = new Map<string, ReadonlyMap<string, string>>();

function subdivisionsOf(country: string): ReadonlyMap<string, string> {
  let index = byCountry.get(country);
  if (!index) {
    const codes = new Map<string, string | null>();
    const add = (key: string, code: string) => {
      const known = codes.get(key);
      if (key) codes.set(key, known === undefined || known === code ? code : null);
    };
    for (const entry of iso31662) {
      if (!entry.code.startsWith(`${country}-`)) continue;
      add(folded(entry.code.slice(country.length + 1)), entry.code);
      add(folded(entry.name), entry.code);
    }
    // a key two subdivisions share (null) places neither
    index = new Map([...codes].filter((pair): pair is [string, string] => pair[1] !== null));
    byCountry.set(country, index);
  }
  return index;
}
