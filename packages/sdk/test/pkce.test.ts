import { describe, expect, it } from 'vitest';
import { codeChallengeOf, generateRandomSecret } from '../src/auth/index.ts';
import { ClientError } from '../src/index.ts';

describe('PKCE secrets and challenges (RFC 7636)', () => {
  it('matches the S256 challenge of RFC 7636 Appendix B', async () => {
    expect(await codeChallengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('draws a 43-character secret by default from letters, digits and - . _ ~', () => {
    const secret = generateRandomSecret();
    expect(secret).toHaveLength(43);
    expect(secret).toMatch(/^[A-Za-z0-9\-._~]+$/);
    expect(generateRandomSecret()).not.toBe(secret);
  });

  it.each([43, 64, 128])('draws a secret of %i characters', (length) => {
    expect(generateRandomSecret(length)).toHaveLength(length);
  });

  it.each([42, 129, 0])(
    "refuses a length of %i with 'Expected a length between 43 and 128. Received %i.'",
    (length) => {
      expect(() => generateRandomSecret(length)).toThrow(ClientError);
      expect(() => generateRandomSecret(length)).toThrow(
        `Expected a length between 43 and 128. Received ${length}.`,
      );
    },
  );
});
