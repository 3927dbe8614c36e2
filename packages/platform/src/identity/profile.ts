import type {
  AddressTag,
  EmailTag,
  IdentityAddress,
  IdentityCustomField,
  IdentityPhone,
  IdentityProfile,
  PhoneTag,
  SecondaryEmail,
} from '@cartwheel/sdk';
import { invalidArgument, violation } from '../shared/errors.ts';

/**
 * An identity's profile as kept (the JSON of `identities.profile`): every field of point 3. Names and
 * the other texts; custom fields of a string, a number or a date; emails, phones and addresses, each
 * with its tag. A member's contact is a view of it (members/service.ts `documentOf`), so what a
 * registration gives a member update reads and changes, and the other way round.
 *
 * Phones and emails are kept once, tagged (`phonesV2`, `secondaryEmails`); the plain lists the hosted
 * wire also carries (`phones`, `emails`) are read from them. Profiles saved before tags were kept hold
 * the plain lists only, read as untagged.
 */

/** The most entries a profile's list (custom fields, emails, phones, addresses, labels) holds. */
export const PROFILE_LIST_MAX = 50;

/** The texts a profile keeps as they are given (trimmed; a blank one is not kept). */
const TEXT_FIELDS = [
  'firstName',
  'lastName',
  'nickname',
  'picture',
  'language',
  'company',
  'position',
  'birthdate',
  'vatId',
] as const satisfies ReadonlyArray<keyof IdentityProfile>;

/** The address fields of point 3 a profile keeps; the hosted client's `addressLine1` is kept as `addressLine`. */
const ADDRESS_TEXT_FIELDS = [
  'country',
  'subdivision',
  'city',
  'postalCode',
  'addressLine',
  'addressLine2',
  'formattedAddress',
] as const;

export interface KeptAddress {
  country?: string;
  subdivision?: string;
  city?: string;
  postalCode?: string;
  addressLine?: string;
  addressLine2?: string;
  formattedAddress?: string;
  streetAddress?: { name?: string; number?: string; apt?: string };
  geocode?: { latitude?: number; longitude?: number };
}

/** A custom field's value as kept: exactly one of a string, a number, or a date (ISO-8601 text). */
export type KeptCustomValue = { strValue: string } | { numValue: number } | { dateValue: string };

/** The profile as stored. Old rows may hold `phones` and `emails` as plain lists. */
export interface KeptProfile {
  firstName?: string;
  lastName?: string;
  nickname?: string;
  picture?: string;
  language?: string;
  company?: string;
  position?: string;
  birthdate?: string;
  vatId?: string;
  subscription?: boolean;
  labels?: string[];
  customFields?: Array<{ name: string; value: KeptCustomValue }>;
  secondaryEmails?: Array<{ email: string; tag: EmailTag }>;
  phonesV2?: Array<{ countryCode?: string; phone: string; tag: PhoneTag }>;
  addresses?: Array<{ address: KeptAddress; tag: AddressTag }>;
  phones?: string[];
  emails?: string[];
}

/**
 * The fields `given` (a register or sign-on profile, its shapes already checked at the edge) sets,
 * in the kept form. A custom date that is no date, or two custom fields of one name, are refused
 * with a field violation under `at`.
 */
export function keptProfileOf(given: IdentityProfile | null | undefined, at = 'profile'): KeptProfile {
  const source = (given ?? {}) as Record<string, unknown>;
  const kept: KeptProfile = {};
  for (const field of TEXT_FIELDS) {
    const value = source[field];
    if (typeof value === 'string' && value.trim() !== '') kept[field] = value.trim();
  }
  if (typeof source.subscription === 'boolean') kept.subscription = source.subscription;
  if (Array.isArray(source.labels)) kept.labels = texts(source.labels);

  const violations = [];
  if (Array.isArray(given?.customFields)) {
    const fields: NonNullable<KeptProfile['customFields']> = [];
    for (const [index, field] of given.customFields.entries()) {
      const kept = keptCustomField(field);
      if (typeof kept === 'string')
        violations.push(violation(`${at}.customFields[${index}]`, kept, 'FORMAT'));
      else if (fields.some((other) => other.name === kept.name))
        violations.push(violation(`${at}.customFields[${index}].name`, 'is given twice', 'VALIDATION'));
      else fields.push(kept);
    }
    kept.customFields = fields;
  }
  if (violations.length > 0) throw invalidArgument(violations);

  const emails = [
    ...(given?.secondaryEmails ?? []).map((entry: SecondaryEmail) => ({
      email: (entry.email ?? '').trim().toLowerCase(),
      tag: entry.tag ?? 'UNTAGGED',
    })),
    ...texts(source.emails).map((email) => ({ email: email.toLowerCase(), tag: 'UNTAGGED' as const })),
  ].filter((entry) => entry.email !== '');
  if (given?.secondaryEmails || source.emails) kept.secondaryEmails = emails;

  const phones = [
    ...(given?.phonesV2 ?? []).map((entry: IdentityPhone) => ({
      ...(entry.countryCode?.trim() ? { countryCode: entry.countryCode.trim() } : {}),
      phone: (entry.phone ?? '').trim(),
      tag: entry.tag ?? 'UNTAGGED',
    })),
    ...texts(source.phones).map((phone) => ({ phone, tag: 'UNTAGGED' as const })),
  ].filter((entry) => entry.phone !== '');
  if (given?.phonesV2 || source.phones) kept.phonesV2 = phones;

  if (Array.isArray(given?.addresses)) {
    kept.addresses = given.addresses.map((wrapper) => ({
      address: keptAddressOf(wrapper.address),
      tag: wrapper.tag ?? 'UNTAGGED',
    }));
  }
  return kept;
}

/** An address in the kept form: point 3's fields, blank texts left out. */
export function keptAddressOf(address: unknown): KeptAddress {
  const source = (address && typeof address === 'object' ? address : {}) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of ADDRESS_TEXT_FIELDS) {
    const value = field === 'addressLine' ? (source.addressLine ?? source.addressLine1) : source[field];
    if (typeof value === 'string' && value.trim() !== '') kept[field] = value.trim();
  }
  const street = source.streetAddress as Record<string, unknown> | null | undefined;
  if (street && typeof street === 'object') {
    const parts = Object.fromEntries(
      (['name', 'number', 'apt'] as const)
        .map((part) => [part, street[part]])
        .filter(([, value]) => typeof value === 'string' && value.trim() !== ''),
    );
    if (Object.keys(parts).length > 0) kept.streetAddress = parts;
  }
  const geocode = source.geocode as Record<string, unknown> | null | undefined;
  if (geocode && typeof geocode === 'object') {
    const point = Object.fromEntries(
      (['latitude', 'longitude'] as const)
        .map((part) => [part, geocode[part]])
        .filter(([, value]) => typeof value === 'number'),
    );
    if (Object.keys(point).length > 0) kept.geocode = point;
  }
  return kept as KeptAddress;
}

/** A custom field in the kept form, or why it cannot be kept. */
function keptCustomField(field: IdentityCustomField): { name: string; value: KeptCustomValue } | string {
  const name = field.name?.trim() ?? '';
  if (name === '') return 'needs a name';
  const value = (field.value ?? {}) as Record<string, unknown>;
  const given = Object.keys(value).filter((key) => value[key] !== undefined && value[key] !== null);
  if (given.length !== 1) return 'needs exactly one of strValue, numValue or dateValue';
  if (typeof value.strValue === 'string') return { name, value: { strValue: value.strValue } };
  if (typeof value.numValue === 'number' && Number.isFinite(value.numValue))
    return { name, value: { numValue: value.numValue } };
  const date = value.dateValue;
  if (typeof date === 'string' || date instanceof Date) {
    const time = new Date(date).getTime();
    if (Number.isNaN(time)) return 'dateValue is not a date';
    return { name, value: { dateValue: new Date(time).toISOString() } };
  }
  return 'holds a string, a number or a date';
}

/** The profile's phones, tagged (old rows' plain list read as untagged). */
export function phonesOf(profile: KeptProfile): NonNullable<KeptProfile['phonesV2']> {
  return profile.phonesV2 ?? (profile.phones ?? []).map((phone) => ({ phone, tag: 'UNTAGGED' as const }));
}

/** The profile's emails beside the login email, tagged (old rows' plain list read as untagged). */
export function emailsOf(profile: KeptProfile): NonNullable<KeptProfile['secondaryEmails']> {
  return (
    profile.secondaryEmails ?? (profile.emails ?? []).map((email) => ({ email, tag: 'UNTAGGED' as const }))
  );
}

/** The identity answer's profile: every kept field, with the plain lists read from the tagged ones. */
export function identityProfileAnswer(profile: KeptProfile): IdentityProfile {
  const { phones: _phones, emails: _emails, ...rest } = profile;
  const phones = phonesOf(profile);
  const emails = emailsOf(profile);
  return {
    ...(rest as IdentityProfile),
    emails: emails.map((entry) => entry.email),
    phones: phones.map((entry) => entry.phone),
    secondaryEmails: emails,
    phonesV2: phones,
    addresses: (profile.addresses ?? []).map((wrapper) => ({
      address: wrapper.address as IdentityAddress,
      tag: wrapper.tag,
    })),
    customFields: (profile.customFields ?? []).map((field) => ({
      name: field.name,
      value: field.value as IdentityCustomField['value'],
    })),
  };
}

/**
 * Sets a member update's plain lists on the kept profile: each phone or email keeps the tag it had,
 * a new one is untagged; each address keeps the tag of the address at its place.
 */
export function setContactLists(
  profile: KeptProfile,
  lists: { phones?: string[]; emails?: string[]; addresses?: KeptAddress[] },
): void {
  if (lists.phones) {
    const before = phonesOf(profile);
    profile.phonesV2 = lists.phones.map(
      (phone) => before.find((entry) => entry.phone === phone) ?? { phone, tag: 'UNTAGGED' },
    );
    delete profile.phones;
  }
  if (lists.emails) {
    const before = emailsOf(profile);
    profile.secondaryEmails = lists.emails.map(
      (email) => before.find((entry) => entry.email === email) ?? { email, tag: 'UNTAGGED' },
    );
    delete profile.emails;
  }
  if (lists.addresses) {
    const before = profile.addresses ?? [];
    profile.addresses = lists.addresses.map((address, index) => ({
      address,
      tag: before[index]?.tag ?? 'UNTAGGED',
    }));
  }
}

/**
 * A member's custom fields (`contact.customFields`, keyed by name): each value as the identity keeps
 * it (`{strValue}`, `{numValue}` or `{dateValue}`), so a member update given it back changes nothing.
 */
export function memberCustomFieldsOf(
  profile: KeptProfile,
): Record<string, { name: string; value: KeptCustomValue }> {
  const fields: Record<string, { name: string; value: KeptCustomValue }> = {};
  for (const field of profile.customFields ?? [])
    fields[field.name] = { name: field.name, value: field.value };
  return fields;
}

/**
 * A member update's custom fields (keyed by name) applied to the kept ones: a field given is set (its
 * value typed, or a plain string or number), one given as null is removed, the others stay. Answers
 * the fields, or the violations under `at`.
 */
export function customFieldsAfter(
  current: KeptProfile['customFields'],
  given: Record<string, unknown>,
  at: string,
): NonNullable<KeptProfile['customFields']> | ReturnType<typeof violation>[] {
  const fields = new Map((current ?? []).map((field) => [field.name, field]));
  const violations = [];
  for (const [key, entry] of Object.entries(given)) {
    if (entry === null) {
      fields.delete(key);
      continue;
    }
    const record = (entry && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
    const name = typeof record.name === 'string' && record.name.trim() !== '' ? record.name.trim() : key;
    const raw = record.value;
    const value =
      typeof raw === 'string' ? { strValue: raw } : typeof raw === 'number' ? { numValue: raw } : raw;
    const kept = keptCustomField({ name, value: value as IdentityCustomField['value'] });
    if (typeof kept === 'string') violations.push(violation(`${at}.${key}`, kept, 'FORMAT'));
    else {
      if (name !== key) fields.delete(key);
      fields.set(kept.name, kept);
    }
  }
  return violations.length > 0 ? violations : [...fields.values()];
}

function texts(value: unknown): string[] {
  return Array.isArray(value)
    ? value
        .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
        .map((item) => item.trim())
    : [];
}
