import type { CustomValue, IdentityProfile } from '../../types/identity.ts';
import { addressOnWire, changeAt } from '../ecom/addresses.ts';

/**
 * A profile of register or sign-on as the hosted client sends it (`registerV2`, `signOn`): each
 * address through the same rewrite as an ecom address (its fields in the hosted order, `city` first,
 * fields it does not know left out), and the top-level value of each custom field as the hosted client
 * serializes it. Everything else keeps the caller's order; the caller's objects are copied, never changed.
 */
export function profileOnWire(profile: IdentityProfile | undefined): IdentityProfile | undefined {
  const withAddresses = changeAt(profile, ['addresses', 'address'], addressOnWire);
  return changeAt(withAddresses, ['customFields', 'value'], customValueOnWire);
}

/**
 * A custom value as the hosted client sends it: a number JSON cannot carry (`NaN`, `Infinity`) as its
 * name, and a null or missing date left out. Only the field's own value: nested list and map values go
 * as they are, as the hosted client sends them.
 */
function customValueOnWire(value: CustomValue | null | undefined): CustomValue | null | undefined {
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...value };
  if (typeof out.numValue === 'number' && !Number.isFinite(out.numValue)) out.numValue = String(out.numValue);
  if ('dateValue' in out && out.dateValue == null) out.dateValue = undefined;
  return out as CustomValue;
}
