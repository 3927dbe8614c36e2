/**
 * Member slugs: the end of a member's profile URL. Derived from the nickname, else from the login
 * email's local part; case-sensitive, as on the hosted platform.
 */
export const SLUG_MAX_LENGTH = 255;
const DERIVED_MAX_LENGTH = 50;
export const SLUG_FORMAT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function slugFrom(nickname: string | null | undefined, email: string): string {
  const source = nickname?.trim() || email.split('@')[0] || '';
  const slug = source
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, DERIVED_MAX_LENGTH)
    .replace(/-+$/, '');
  return slug || 'member';
}

export const isSlug = (value: string): boolean => value.length <= SLUG_MAX_LENGTH && SLUG_FORMAT.test(value);
