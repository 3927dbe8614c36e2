import { type CheckoutDocument, checkoutDocument } from '../checkouts/document.ts';
import type { CheckoutPatch, CheckoutService } from '../checkouts/service.ts';
import type { Priced } from '../pricing/contract.ts';
import { applicationError, invalidArgument, violation } from '../shared/errors.ts';
import type { Principal } from '../shared/principal.ts';
import type { OrderPlacement, PaymentInput, PlacementAnswer } from './placing.ts';

/** The session already proved who may act on its checkout. */
const SESSION_HOLDER: Principal = { kind: 'admin' };

type Callbacks = { postFlowUrl?: string; thankYouPageUrl?: string; cartPageUrl?: string };

/** What the page's update form sends: what a PATCH may change, but the buyer's note. */
export type PageUpdate = Omit<CheckoutPatch, 'buyerNote'>;

/** The page's answer to a payment: the thank-you page to go to, or the 3-D Secure step. */
export type PayAnswer =
  | { status: 'APPROVED'; orderId: string; redirectUrl: string }
  | { status: 'REQUIRES_ACTION'; actionUrl: string };

/**
 * The hosted checkout page's API (docs/buying-path.md): every call names its checkout by the session
 * token the redirect session gave, and goes to the same CheckoutService the API uses; paying goes
 * through the buying path's placement.
 */
export class CheckoutPage {
  constructor(
    private readonly checkouts: Pick<
      CheckoutService,
      'sessionOf' | 'owned' | 'update' | 'removeCoupon' | 'options'
    >,
    private readonly placement: Pick<
      OrderPlacement,
      'pay' | 'attemptOf' | 'confirm' | 'cardEntry' | 'nextActionOf'
    >,
    private readonly store: () => Promise<{ storeName: string; checkoutBrand: Record<string, unknown> }>,
  ) {}

  async session(token: string | undefined) {
    const { checkoutId, callbacks } = await this.checkouts.sessionOf(token);
    const row = await this.checkouts.owned(checkoutId, SESSION_HOLDER);
    const checkout = checkoutDocument(row);
    const priced = JSON.parse(row.priced) as Priced;
    const store = await this.store();
    return {
      checkout,
      settings: {
        storeName: store.storeName,
        currency: priced.currency,
        taxIncludedInPrices: priced.taxIncludedInPrices,
        checkoutBrand: store.checkoutBrand,
      },
      callbacks,
      payment: this.placement.cardEntry(),
      ...(row.completed === 1 && row.order_id
        ? { completed: { orderId: row.order_id, redirectUrl: this.redirectUrl(callbacks, row.order_id) } }
        : {}),
    };
  }

  async update(token: string | undefined, body: PageUpdate): Promise<{ checkout: CheckoutDocument }> {
    const { checkoutId } = await this.checkouts.sessionOf(token);
    return { checkout: await this.checkouts.update(checkoutId, SESSION_HOLDER, body) };
  }

  async removeCoupon(token: string | undefined): Promise<{ checkout: CheckoutDocument }> {
    const { checkoutId } = await this.checkouts.sessionOf(token);
    return { checkout: await this.checkouts.removeCoupon(checkoutId, SESSION_HOLDER) };
  }

  async pay(
    token: string | undefined,
    body: {
      attemptKey: string;
      card?: { number: string; expiry: string; cvc: string; holderName?: string | undefined } | undefined;
      paymentToken?: string | undefined;
      savedMethodId?: string | undefined;
    },
  ): Promise<PayAnswer> {
    const session = await this.checkouts.sessionOf(token);
    return this.answer(
      session,
      await this.placement.pay(session.checkoutId, body.attemptKey, paymentInputOf(body)),
      token!,
    );
  }

  async attempt(token: string | undefined, attemptId: string) {
    const { checkoutId } = await this.checkouts.sessionOf(token);
    const attempt = await this.placement.attemptOf(checkoutId, attemptId);
    const nextAction = await this.placement.nextActionOf(attempt);
    return {
      attemptId: attempt.id,
      status: attempt.status,
      amount: { amount: attempt.amount, formattedAmount: attempt.formatted_amount },
      currency: attempt.currency,
      ...(nextAction ? { nextAction } : {}),
    };
  }

  async confirm(token: string | undefined, attemptId: string, approve: boolean): Promise<PayAnswer> {
    const session = await this.checkouts.sessionOf(token);
    return this.answer(session, await this.placement.confirm(session.checkoutId, attemptId, approve), token!);
  }

  private answer(session: { callbacks: Callbacks }, placed: PlacementAnswer, token: string): PayAnswer {
    if (placed.status === 'APPROVED') {
      return {
        status: 'APPROVED',
        orderId: placed.orderId,
        redirectUrl: this.redirectUrl(session.callbacks, placed.orderId),
      };
    }
    const query = new URLSearchParams({ session: token, attempt: placed.attemptId });
    return { status: 'REQUIRES_ACTION', actionUrl: `/auth/checkout/confirm?${query}` };
  }

  /** The thank-you page (else the post-flow page, else the shop) with `orderId` added to its query. */
  private redirectUrl(callbacks: Callbacks, orderId: string): string {
    const target =
      callbacks.thankYouPageUrl ?? callbacks.postFlowUrl ?? `${this.checkouts.options.publicUrl}/`;
    try {
      const url = new URL(target);
      url.searchParams.set('orderId', orderId);
      return url.toString();
    } catch {
      throw applicationError(
        'FAILED_PRECONDITION',
        'INVALID_CALLBACK',
        'the checkout session has no valid page to return to',
      );
    }
  }
}

/** The one way of paying the page's body names: a card, the provider's token, or a saved method. */
function paymentInputOf(body: {
  card?: PaymentInputCard | undefined;
  paymentToken?: string | undefined;
  savedMethodId?: string | undefined;
}): PaymentInput | undefined {
  const named = [
    body.card && ({ kind: 'card', card: body.card } as const),
    body.paymentToken !== undefined && ({ kind: 'token', token: body.paymentToken } as const),
    body.savedMethodId !== undefined && ({ kind: 'saved', savedMethodId: body.savedMethodId } as const),
  ].filter((input) => input !== undefined && input !== false);
  if (named.length > 1) {
    throw invalidArgument([
      violation('paymentToken', 'name one of card, paymentToken and savedMethodId', 'VALIDATION'),
    ]);
  }
  return named[0];
}

type PaymentInputCard = Extract<PaymentInput, { kind: 'card' }>['card'];
