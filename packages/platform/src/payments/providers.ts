import type { Kysely } from 'kysely';
import type { PaymentProviderConfig, PaymentProviderKind, StripeConfig } from '../config.ts';
import type { Tables } from '../db/tables.ts';
import { applicationError } from '../shared/errors.ts';
import type { PaymentProvider } from './provider.ts';
import { TestGateway } from './test-gateway.ts';

/**
 * The store's payment providers by id. New checkouts pay through `default`; a payment already taken
 * goes back to the provider that took it (its row's `provider_id`) for capture, void and refund, so
 * changing the default never sends a payment's money calls elsewhere.
 */
export class PaymentProviders {
  private readonly byId = new Map<string, PaymentProvider>();

  constructor(
    providers: PaymentProvider[],
    private readonly defaultId: string,
    /** What each provider is, by id, as the configuration names it. */
    private readonly kinds: ReadonlyMap<string, PaymentProviderKind> = new Map(),
  ) {
    for (const provider of providers) this.register(provider);
    if (!this.byId.has(defaultId))
      throw new Error(`the default payment provider ${defaultId} is not registered`);
  }

  /** The provider new checkouts pay through. */
  get default(): PaymentProvider {
    return this.byId.get(this.defaultId)!;
  }

  /** The provider `id`; refused when the store no longer registers it (its payments wait for it). */
  get(id: string): PaymentProvider {
    const provider = this.byId.get(id);
    if (!provider) {
      throw applicationError(
        'FAILED_PRECONDITION',
        'PAYMENT_PROVIDER_NOT_CONFIGURED',
        `the payment provider ${id} that took this payment is not configured in this store`,
        { providerId: id },
      );
    }
    return provider;
  }

  list(): PaymentProvider[] {
    return [...this.byId.values()];
  }

  /** The ids of the providers of `kind` (the Stripe accounts whose webhooks this store takes). */
  idsOf(kind: PaymentProviderKind): string[] {
    return [...this.byId.keys()].filter((id) => this.kinds.get(id) === kind);
  }

  /** Adds `provider`, or puts it in place of the one with its id (a test that loses its answers). */
  register(provider: PaymentProvider): void {
    this.byId.set(provider.id, provider);
  }
}

/**
 * The providers `config.ts` names, over the store's database (the test gateway keeps its ledger there).
 * Stripe's client (the `stripe` package, a fifth of the platform's load time) is loaded only by a store
 * that pays through Stripe.
 */
export async function openPaymentProviders(
  db: Kysely<Tables>,
  config: { providers: PaymentProviderConfig[]; defaultId: string; stripe?: StripeConfig | undefined },
): Promise<PaymentProviders> {
  const kinds: Record<PaymentProviderKind, (id: string) => PaymentProvider | Promise<PaymentProvider>> = {
    'test-gateway': (id) => new TestGateway(db, { id }),
    // the test gateway as a real provider behaves: card numbers only through its own fields
    'test-gateway-tokens-only': (id) => new TestGateway(db, { id, acceptsRawCards: false }),
    // no call is made while opening: the platform starts and answers even when Stripe cannot be reached
    stripe: async (id) => {
      if (!config.stripe) throw new Error(`the payment provider ${id} is Stripe: set STRIPE_SECRET_KEY`);
      const { StripeProvider } = await import('./stripe.ts');
      return new StripeProvider(id, config.stripe, db);
    },
  };
  return new PaymentProviders(
    await Promise.all(config.providers.map((provider) => kinds[provider.kind](provider.id))),
    config.defaultId,
    new Map(config.providers.map((provider) => [provider.id, provider.kind])),
  );
}
