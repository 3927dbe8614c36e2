import { useLocation, useSearchParams } from 'react-router';

/** The `returnTo` of account links: where the shopper was, to go back after signing in. */
export const RETURN_TO = 'returnTo';

/**
 * A path inside this store, or `/`: a `returnTo` from the address bar is anyone's to write, so only a
 * same-site path is followed (never `//elsewhere.example` or `https://...`).
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value.startsWith('/account/sign-') || value.startsWith('/account/callback') ? '/' : value;
}

/** Where to go once signed in: the page's `returnTo`, checked. */
export function useReturnTo(): string {
  const [params] = useSearchParams();
  return safeReturnPath(params.get(RETURN_TO));
}

/** A link to an account page that comes back here afterwards (`/account/sign-in?returnTo=/products`). */
export function useAccountHref(path: string): string {
  const location = useLocation();
  const here = location.pathname.startsWith('/account/')
    ? safeReturnPath(new URLSearchParams(location.search).get(RETURN_TO))
    : `${location.pathname}${location.search}`;
  return here === '/' ? path : `${path}?${RETURN_TO}=${encodeURIComponent(here)}`;
}
