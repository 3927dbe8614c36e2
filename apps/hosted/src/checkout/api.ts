import {
  type Address,
  type Checkout,
  type CheckoutBrand,
  errorFromResponse,
  type FullAddressContactDetails,
} from '@cartwheel/sdk';

/**
 * The hosted checkout page's API (`/_api/checkout-page/v1`, docs/buying-path.md): every call names the
 * checkout by the redirect session's token in `X-Checkout-Session`, never by an OAuth token.
 */

const BASE = '/_api/checkout-page/v1';
export const SESSION_HEADER = 'X-Checkout-Session';

export interface CheckoutPageSettings {
  storeName: string;
  currency: string;
  taxIncludedInPrices: boolean;
  checkoutBrand?: CheckoutBrand | null;
}

export interface CheckoutCallbacks {
  postFlowUrl?: string;
  thankYouPageUrl?: string;
  cartPageUrl?: string;
}

export interface CheckoutSession {
  checkout: Checkout;
  settings: CheckoutPageSettings;
  callbacks: CheckoutCallbacks;
  /** How the page takes a card: its own fields, Stripe's Payment Element, or not at all. */
  payment: CardEntry;
  /** Set once the checkout became a paid order. */
  completed?: { orderId: string; redirectUrl: string };
}

export interface CheckoutUpdate {
  email?: string;
  /** The buyer's name (the checkout keeps one, shown with both addresses). */
  contactDetails?: FullAddressContactDetails;
  shippingAddress?: Address;
  billingAddress?: Address;
  billingSameAsShipping?: boolean;
  selectedShippingOption?: { code: string };
  couponCode?: string;
}

export interface CardInput {
  number: string;
  /** `MM/YY`. */
  expiry: string;
  cvc: string;
  holderName?: string;
}

/** How the store's payment provider takes a card on this page. */
export type CardEntry = { kind: 'FORM' } | { kind: 'STRIPE'; publishableKey: string } | { kind: 'NONE' };

/** What the page pays with: the card as typed (the test gateway), or the provider's own token for it. */
export type PaymentInput = { card: CardInput } | { paymentToken: string };

export type PaymentOutcome =
  | { status: 'APPROVED'; orderId: string; redirectUrl: string }
  | { status: 'REQUIRES_ACTION'; actionUrl: string };

export interface PaymentAttempt {
  attemptId: string;
  status: string;
  amount: { amount: string; formattedAmount?: string };
  currency: string;
  /** The 3-D Secure step it waits on: this site's confirm page, or Stripe's own in the page. */
  nextAction?: { kind: 'PAGE' } | { kind: 'STRIPE'; publishableKey: string; clientSecret: string };
}

/** The fetch failed before any answer came back: the outcome of the call is unknown. */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
}

/** The calls of one redirect session. */
export class CheckoutPageApi {
  constructor(
    readonly sessionToken: string,
    private readonly origin = window.location.origin,
  ) {}

  session(): Promise<CheckoutSession> {
    return this.call('GET', '/session');
  }

  async update(update: CheckoutUpdate): Promise<Checkout> {
    return (await this.call<{ checkout: Checkout }>('POST', '/update', update)).checkout;
  }

  async removeCoupon(): Promise<Checkout> {
    return (await this.call<{ checkout: Checkout }>('POST', '/remove-coupon', {})).checkout;
  }

  /**
   * Pays with `payment`. The same `attemptKey` gives the same answer, so a call that got no answer (the
   * network dropped) is sent again with it: at most one order and one charge, whatever happened.
   */
  async pay(
    attemptKey: string,
    payment: PaymentInput,
    retryDelaysMs = [500, 1500, 3000],
  ): Promise<PaymentOutcome> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call<PaymentOutcome>('POST', '/pay', { attemptKey, ...payment });
      } catch (error) {
        const delay = retryDelaysMs[attempt];
        if (!(error instanceof UnreachableError) || delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  attempt(attemptId: string): Promise<PaymentAttempt> {
    return this.call('GET', `/attempts/${encodeURIComponent(attemptId)}`);
  }

  confirmAttempt(attemptId: string, approve: boolean): Promise<PaymentOutcome> {
    return this.call('POST', `/attempts/${encodeURIComponent(attemptId)}/confirm`, { approve });
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.origin}${BASE}${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          [SESSION_HEADER]: this.sessionToken,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new UnreachableError(error instanceof Error ? error.message : String(error));
    }
    const parsed: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      throw errorFromResponse(
        response.status,
        response.statusText,
        parsed,
        response.headers.get('x-request-id') ?? undefined,
      );
    }
    return parsed as T;
  }
}
