import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';

/** `CARTWHEEL_PAYMENT_PROVIDERS` and `CARTWHEEL_PAYMENT_PROVIDER`, read at start: a mistake stops the start. */
describe('payment provider configuration', () => {
  const read = (env: Record<string, string>) => configFromEnv(env);

  it('registers the test gateway alone when the store names no providers', () => {
    expect(read({})).toMatchObject({
      paymentProviders: [{ id: 'cartwheel-test-gateway', kind: 'test-gateway' }],
      defaultPaymentProvider: 'cartwheel-test-gateway',
    });
  });

  it('reads <id>=<kind> entries; the first is the default unless one is chosen', () => {
    const providers = 'cartwheel-test-gateway, fields=test-gateway-tokens-only';
    expect(read({ CARTWHEEL_PAYMENT_PROVIDERS: providers })).toMatchObject({
      paymentProviders: [
        { id: 'cartwheel-test-gateway', kind: 'test-gateway' },
        { id: 'fields', kind: 'test-gateway-tokens-only' },
      ],
      defaultPaymentProvider: 'cartwheel-test-gateway',
    });
    expect(
      read({ CARTWHEEL_PAYMENT_PROVIDERS: providers, CARTWHEEL_PAYMENT_PROVIDER: 'fields' })
        .defaultPaymentProvider,
    ).toBe('fields');
  });

  it('refuses an unknown kind, an id twice, a bad id, and a default that is not registered', () => {
    expect(() => read({ CARTWHEEL_PAYMENT_PROVIDERS: 'acme=paypal' })).toThrow(/needs a kind/);
    expect(() => read({ CARTWHEEL_PAYMENT_PROVIDERS: 'other' })).toThrow(/needs a kind/);
    expect(() => read({ CARTWHEEL_PAYMENT_PROVIDERS: 'a=test-gateway,a=test-gateway' })).toThrow(/twice/);
    expect(() => read({ CARTWHEEL_PAYMENT_PROVIDERS: 'Big Gateway=test-gateway' })).toThrow(/lowercase/);
    expect(() => read({ CARTWHEEL_PAYMENT_PROVIDER: 'elsewhere' })).toThrow(/is not one of/);
  });
});
