import { emptyTokens, type Tokens } from './tokens.ts';

/** Where an OAuth strategy keeps its tokens between calls, page loads and server renders. */
export interface TokenStorage {
  load(): Tokens | undefined;
  save(tokens: Tokens): void;
}

/** Tokens that live as long as the strategy: the default, and right for a server. */
export function memoryTokenStorage(initial?: Tokens): TokenStorage {
  let tokens = initial;
  return {
    load: () => tokens,
    save(next) {
      tokens = next;
    },
  };
}

/** Tokens kept in `localStorage` under `key`, so a shopper's visitor or member session survives a reload. */
export function localStorageTokenStorage(
  key = 'cartwheel.tokens',
  storage: Storage = globalThis.localStorage,
): TokenStorage {
  return {
    load: () => parseTokens(storage.getItem(key)),
    save(tokens) {
      storage.setItem(key, serializeTokens(tokens));
    },
  };
}

/** The tokens as one string, for a cookie or a server-rendered page to hand to the browser. */
export function serializeTokens(tokens: Tokens): string {
  return JSON.stringify(tokens);
}

/** Tokens back from `serializeTokens`; anything malformed reads as no tokens at all. */
export function parseTokens(serialized: string | null | undefined): Tokens | undefined {
  if (!serialized) return undefined;
  try {
    const value = JSON.parse(serialized) as Tokens;
    const empty = emptyTokens();
    const { accessToken, refreshToken } = value ?? {};
    if (typeof accessToken?.value !== 'string' || typeof accessToken.expiresAt !== 'number') return undefined;
    if (
      typeof refreshToken?.value !== 'string' ||
      !['none', 'visitor', 'member'].includes(refreshToken.role)
    ) {
      return undefined;
    }
    return {
      accessToken: { ...empty.accessToken, ...accessToken },
      refreshToken: { ...empty.refreshToken, ...refreshToken },
    };
  } catch {
    return undefined;
  }
}
