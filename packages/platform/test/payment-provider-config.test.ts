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

  it('with STRIPE_SECRET_KEY, Stripe is registered and the default, and the test gateway is on only when named', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
    expect(read(stripe)).toMatchObject({
      paymentProviders: [{ id: 'stripe', kind: 'stripe' }],
      defaultPaymentProvider: 'stripe',
      stripe: { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiUrl: undefined },
    });
    expect(read({ ...stripe, CARTWHEEL_PAYMENT_PROVIDERS: 'cartwheel-test-gateway' })).toMatchObject({
      paymentProviders: [
        { id: 'stripe', kind: 'stripe' },
        { id: 'cartwheel-test-gateway', kind: 'test-gateway' },
      ],
      defaultPaymentProvider: 'stripe',
    });
    // named under another id, or the test gateway chosen as the default for testing
    expect(
      read({ ...stripe, CARTWHEEL_PAYMENT_PROVIDERS: 'cartwheel-test-gateway,live=stripe' }),
    ).toMatchObject({
      defaultPaymentProvider: 'live',
    });
    expect(
      read({
        ...stripe,
        CARTWHEEL_PAYMENT_PROVIDERS: 'cartwheel-test-gateway',
        CARTWHEEL_PAYMENT_PROVIDER: 'cartwheel-test-gateway',
      }).defaultPaymentProvider,
    ).toBe('cartwheel-test-gateway');
  });

  it('refuses a stripe provider without its key, two of them, and an API address with a path', () => {
    expect(() => read({ CARTWHEEL_PAYMENT_PROVIDERS: 'live=stripe' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() =>
      read({ STRIPE_SECRET_KEY: 'sk_test_1', CARTWHEEL_PAYMENT_PROVIDERS: 'a=stripe,b=stripe' }),
    ).toThrow(/more than one stripe/);
    expect(() =>
      read({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_API_URL: 'http://127.0.0.1:12111/v1' }),
    ).toThrow(/STRIPE_API_URL/);
  });
});
