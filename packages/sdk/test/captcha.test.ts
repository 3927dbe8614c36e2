import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { captchaTokenFrom, solveCaptchaChallenge } from '../src/auth/index.ts';
import type { CaptchaChallenge } from '../src/index.ts';

/** A challenge as the platform makes one (identity/captcha.ts), with its secret number. */
function challengeFor(number: number, maxnumber = 100_000): CaptchaChallenge {
  const salt = `${randomBytes(12).toString('hex')}?expires=${Math.floor(Date.now() / 1000) + 600}`;
  const challenge = createHash('sha256').update(`${salt}${number}`).digest('hex');
  const signature = createHmac('sha256', 'test secret').update(challenge).digest('hex');
  return { algorithm: 'SHA-256', challenge, salt, signature, maxnumber };
}

const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8'));

describe('solveCaptchaChallenge: the proof-of-work captcha (ALTCHA scheme)', () => {
  it.each([0, 1, 255, 256, 4_321, 100_000])(
    'finds the number %i and hands back the base64 payload',
    async (n) => {
      const challenge = challengeFor(n);
      const token = await solveCaptchaChallenge(challenge);
      expect(decode(token)).toEqual({
        algorithm: 'SHA-256',
        challenge: challenge.challenge,
        number: n,
        salt: challenge.salt,
        signature: challenge.signature,
      });
      // the platform's check: sha256(salt + number) is the challenge
      const { salt, number } = decode(token);
      expect(createHash('sha256').update(`${salt}${number}`).digest('hex')).toBe(challenge.challenge);
    },
  );

  it('refuses a challenge whose number lies beyond maxnumber', async () => {
    await expect(solveCaptchaChallenge(challengeFor(600, 500))).rejects.toThrow('no solution');
  });

  it('refuses another algorithm and a malformed challenge', async () => {
    await expect(solveCaptchaChallenge({ ...challengeFor(3), algorithm: 'SHA-512' })).rejects.toThrow(
      'unsupported captcha algorithm',
    );
    await expect(solveCaptchaChallenge({ ...challengeFor(3), challenge: 'xyz' })).rejects.toThrow(
      'malformed',
    );
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('left the page'));
    await expect(solveCaptchaChallenge(challengeFor(90_000), { signal: controller.signal })).rejects.toThrow(
      'left the page',
    );
  });

  it('fetches a fresh challenge and solves it', async () => {
    const challenge = challengeFor(77);
    const seen: string[] = [];
    const fakeFetch = (async (url: string) => {
      seen.push(url);
      return new Response(JSON.stringify(challenge), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const token = await captchaTokenFrom('http://store.test/api/cartwheel/captcha/challenge', {
      fetch: fakeFetch,
    });
    expect(seen).toEqual(['http://store.test/api/cartwheel/captcha/challenge']);
    expect(decode(token).number).toBe(77);
  });
});
