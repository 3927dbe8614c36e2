import type { CheckoutSettingsPatch } from '@cartwheel/sdk';
import { type CheckoutSettings, DEFAULT_STORE_SETTINGS } from './model.ts';

type Json = Record<string, unknown>;

/**
 * The checkout settings a patch leaves: each field it names replaces the kept one, objects merge
 * field by field, `null` clears (a logo: the header shows the store's name alone). A logo's
 * `alignment` (Cartwheel's first logo call sent it there) is the header's.
 */
export function patchedCheckoutSettings(
  current: CheckoutSettings,
  patch: CheckoutSettingsPatch & { createdDate?: unknown; updatedDate?: unknown },
  now: string,
): CheckoutSettings {
  const { createdDate: _created, updatedDate: _updated, ...changes } = patch;
  const logo = changes.checkoutBrand?.header?.logo as (Json & { alignment?: string }) | null | undefined;
  if (logo?.alignment) {
    const { alignment, ...rest } = logo;
    const header = { ...changes.checkoutBrand?.header, logo: rest };
    if (!header.alignment) header.alignment = alignment as 'SIDE' | 'CENTER';
    changes.checkoutBrand = { ...changes.checkoutBrand, header };
  }
  const merged = merge(current as unknown as Json, changes as Json) as unknown as CheckoutSettings;
  const header = merged.checkoutBrand.header;
  // a logo named for the first time starts from the hosted page's own default size
  if (header.logo && !header.logo.size) header.logo = { ...header.logo, size: 'MEDIUM' };
  return { ...merged, createdDate: current.createdDate ?? now, updatedDate: now };
}

/**
 * Checkout settings as kept, with every part an answer always holds; a logo kept with its alignment
 * (before the whole shape, migration-free) gives it to the header.
 */
export function checkoutSettingsOf(kept: Partial<CheckoutSettings> | undefined): CheckoutSettings {
  const defaults = DEFAULT_STORE_SETTINGS.checkoutSettings;
  const header = { ...defaults.checkoutBrand.header, ...kept?.checkoutBrand?.header };
  const legacy = header.logo as
    | (CheckoutSettings['checkoutBrand']['header']['logo'] & { alignment?: 'SIDE' | 'CENTER' })
    | null;
  if (legacy?.alignment) {
    const { alignment, ...logo } = legacy;
    if (!kept?.checkoutBrand?.header?.alignment) header.alignment = alignment;
    header.logo = logo;
  }
  return {
    ...defaults,
    ...kept,
    checkoutBrand: { ...kept?.checkoutBrand, header },
  };
}

/** A fill is a colour or an image, never both: a new fill replaces the kept one whole. */
const FILLS = /(^b|B)ackgroundFill$/;

function merge(kept: Json, patch: Json): Json {
  const result: Json = { ...kept };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      // the logo's absence is an answer of its own (`logo: null`); other cleared fields are left out
      if (key === 'logo') result[key] = null;
      else delete result[key];
    } else if (isObject(value) && isObject(kept[key]) && !FILLS.test(key)) {
      result[key] = merge(kept[key] as Json, value);
    } else {
      result[key] = isObject(value) ? merge({}, value) : value;
    }
  }
  return result;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
