import type { CheckedCard } from './card.ts';

/** Why a gateway refused a charge: the codes a shopper's page explains. */
export type DeclineCode = 'CARD_DECLINED' | 'INSUFFICIENT_FUNDS' | 'AUTHENTICATION_FAILED';

/** What a gateway answers a charge (or the end of its 3-D Secure step). */
export type ChargeResult =
  | { status: 'APPROVED'; transactionId: string; providerTransactionId: string; captured: boolean }
  | { status: 'DECLINED'; transactionId: string; code: DeclineCode; reason: string }
  | { status: 'REQUIRES_ACTION'; transactionId: string; actionId: string };

export interface ChargeRequest {
  /** The same key gives the same answer and never a second charge (a retry, a double click). */
  idempotencyKey: string;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  card: CheckedCard;
  /** True: capture at once (a sale); false: authorize only, captured later. */
  capture: boolean;
}

/**
 * A payment provider, as the checkout sees one: a network service, called outside any database
 * transaction; each call carries an idempotency key so a retry after a timeout is safe.
 */
export interface PaymentProvider {
  /** How order transactions name it (`paymentMethodName`). */
  readonly methodName: string;
  authorize(request: ChargeRequest): Promise<ChargeResult>;
  /** The shopper passed (`approved`) or failed the 3-D Secure step `actionId`. */
  completeAction(request: { actionId: string; approved: boolean }): Promise<ChargeResult>;
  /** Captures an authorized charge (all of it unless `amount` says less). */
  capture(request: {
    idempotencyKey: string;
    transactionId: string;
    amount: string;
  }): Promise<{ status: 'SUCCEEDED' | 'FAILED'; reason?: string }>;
}
