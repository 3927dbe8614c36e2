import type { FieldViolation, Member } from '@cartwheel/sdk';
import {
  customFieldsAfter,
  type KeptAddress,
  type KeptProfile,
  keptAddressOf,
  setContactLists,
} from '../identity/profile.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import type { Principal } from '../shared/principal.ts';

/** Who asks for a member change: the member themself or an admin (anyone else is refused). */
export type MemberActor = Principal;

/** What a member update changes, sorted by where each fact lives. */
export interface MemberChanges {
  /** Identity profile fields to set; `null` removes one. */
  identityProfile: Record<string, unknown>;
  /** Contact lists to replace (each phone, email and address keeps its tag: identity/profile.ts). */
  lists: { phones?: string[]; emails?: string[]; addresses?: KeptAddress[] };
  /** Custom fields to set by name (`null` removes one), as `contact.customFields` gives them. */
  customFields?: Record<string, unknown>;
  slug?: string;
  privacyStatus?: 'PUBLIC' | 'PRIVATE';
}

/** `changes` made on a kept profile (`profile` is changed): what an update and a creation both do. */
export function applyMemberChanges(profile: KeptProfile, changes: MemberChanges): void {
  const record = profile as Record<string, unknown>;
  for (const [field, value] of Object.entries(changes.identityProfile)) {
    if (value === null) delete record[field];
    else record[field] = value;
  }
  setContactLists(profile, changes.lists);
  if (changes.customFields) {
    const fields = customFieldsAfter(
      profile.customFields,
      changes.customFields,
      'member.contact.customFields',
    );
    // checked in memberChanges against the fields the caller read; a field removed since is simply gone
    if (!isViolationList(fields)) profile.customFields = fields;
  }
}

const isViolationList = (value: unknown[]): value is FieldViolation[] =>
  value.length > 0 && typeof (value[0] as { field?: unknown }).field === 'string';

/** The longest text a member field holds. */
export const TEXT_MAX_LENGTH = 1000;
/** The most phones, emails or addresses a member's contact holds. */
export const CONTACT_LIST_MAX = 20;
/** Member fields an update may set → the identity profile field that keeps each. */
const PROFILE_FIELD_OF = {
  'contact.firstName': 'firstName',
  'contact.lastName': 'lastName',
  'contact.company': 'company',
  'contact.jobTitle': 'position',
  'contact.birthdate': 'birthdate',
  'profile.nickname': 'nickname',
  'profile.photo.url': 'picture',
} as const;

/**
 * The changes a `{member}` patch asks for: only the fields it holds. A blank text clears the field,
 * except the nickname, which every member has. The login email cannot change here.
 */
export function memberChanges(input: unknown, current: Member): MemberChanges {
  const member = asRecord(asRecord(input).member);
  const changes: MemberChanges = { identityProfile: {}, lists: {} };
  const violations = [];

  for (const [path, field] of Object.entries(PROFILE_FIELD_OF)) {
    const value = valueAt(member, path);
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string') {
      violations.push(violation(`member.${path}`, 'must be a string', 'FORMAT'));
      continue;
    }
    const text = value?.trim() ?? '';
    if (text.length > TEXT_MAX_LENGTH) {
      violations.push(
        violation(`member.${path}`, `must be at most ${TEXT_MAX_LENGTH} characters`, 'MAX_LENGTH'),
      );
    } else if (field === 'nickname' && text === '') {
      violations.push(violation('member.profile.nickname', 'must not be empty', 'REQUIRED_FIELD'));
    } else if (field === 'birthdate' && text !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(text)) {
      violations.push(violation('member.contact.birthdate', 'must be a date, YYYY-MM-DD', 'FORMAT'));
    } else {
      changes.identityProfile[field] = text === '' ? null : text;
    }
  }

  const contact = asRecord(member.contact);
  for (const key of ['phones', 'emails'] as const) {
    const value = contact[key];
    if (value === undefined) continue;
    const at = `member.contact.${key}`;
    if (value === null) changes.lists[key] = [];
    else if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
      violations.push(violation(at, 'must be a list of texts', 'FORMAT'));
    else if (value.length > CONTACT_LIST_MAX)
      violations.push(violation(at, `holds at most ${CONTACT_LIST_MAX}`, 'MAX_SIZE'));
    else {
      const texts = (value as string[]).map((item) => item.trim()).filter((item) => item !== '');
      const bad = texts.findIndex(
        (item) => item.length > 254 || (key === 'emails' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(item)),
      );
      if (bad >= 0)
        violations.push(violation(`${at}[${bad}]`, `is not a valid ${key.slice(0, -1)}`, 'FORMAT'));
      else changes.lists[key] = key === 'emails' ? texts.map((item) => item.toLowerCase()) : texts;
    }
  }
  if (contact.addresses !== undefined) {
    const value = contact.addresses;
    const at = 'member.contact.addresses';
    if (value === null) changes.lists.addresses = [];
    else if (!Array.isArray(value)) violations.push(violation(at, 'must be a list of addresses', 'FORMAT'));
    else if (value.length > CONTACT_LIST_MAX)
      violations.push(violation(at, `holds at most ${CONTACT_LIST_MAX}`, 'MAX_SIZE'));
    else changes.lists.addresses = value.map((item) => keptAddressOf(item));
  }
  if (contact.customFields !== undefined && contact.customFields !== null) {
    const given = asRecord(contact.customFields);
    const checked = customFieldsAfter(shownCustomFields(current), given, 'member.contact.customFields');
    if (isViolationList(checked)) violations.push(...checked);
    else changes.customFields = given;
  }

  const slug = valueAt(member, 'profile.slug');
  if (slug !== undefined && slug !== current.profile?.slug) {
    // the slug rules (format, uniqueness) are the slug call's; here only its type
    if (typeof slug !== 'string')
      violations.push(violation('member.profile.slug', 'must be a string', 'FORMAT'));
    else changes.slug = slug;
  }

  const privacy = member.privacyStatus;
  if (privacy !== undefined) {
    if (privacy === 'PUBLIC' || privacy === 'PRIVATE') changes.privacyStatus = privacy;
    else
      violations.push(violation('member.privacyStatus', 'must be PUBLIC or PRIVATE', 'INVALID_ENUM_VALUE'));
  }

  const loginEmail = member.loginEmail;
  if (loginEmail !== undefined && loginEmail !== current.loginEmail) {
    violations.push(
      violation('member.loginEmail', 'is the sign-in email and cannot change here', 'FIELD_NOT_ALLOWED'),
    );
  }

  if (violations.length > 0) throw invalidArgument(violations);
  return changes;
}

/** The custom fields a member answer showed (each value as kept, keyed by name), as kept fields. */
function shownCustomFields(current: Member): KeptProfile['customFields'] {
  return Object.values(current.contact?.customFields ?? {}) as KeptProfile['customFields'];
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function valueAt(record: Record<string, unknown>, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (value === null || value === undefined) return undefined;
    value = asRecord(value)[key];
  }
  return value;
}
