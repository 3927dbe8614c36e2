import { describe, expect, it } from 'vitest';
import {
  localStorageTokenStorage,
  OAuthStrategy,
  parseTokens,
  serializeTokens,
  type Tokens,
} from '../src/index.ts';

const visitor: Tokens = {
  accessToken: { value: 'a1', expiresAt: 2_000_000_000 },
  refreshToken: { value: 'r1', role: 'visitor' },
};

function fakeLocalStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('token storage', () => {
  it('round-trips tokens through their serialised form, for cookies and server renders', () => {
    expect(parseTokens(serializeTokens(visitor))).toEqual(visitor);
  });

  it.each([
    '',
    'not json',
    '{"accessToken":{}}',
    '{"accessToken":{"value":"a","expiresAt":1},"refreshToken":{"value":"r","role":"admin"}}',
  ])('reads malformed stored tokens %j as no tokens', (stored) => {
    expect(parseTokens(stored)).toBeUndefined();
  });

  it('keeps tokens in localStorage so they survive a page reload', () => {
    const storage = fakeLocalStorage();
    const before = OAuthStrategy({ clientId: 'c', storage: localStorageTokenStorage('tokens', storage) });
    before.setTokens(visitor);
    const afterReload = OAuthStrategy({
      clientId: 'c',
      storage: localStorageTokenStorage('tokens', storage),
    });
    expect(afterReload.getTokens()).toEqual(visitor);
  });
});
