import type { PaymentProvider } from '../payments/provider.ts';
import type { ProviderResults } from './ledger.ts';

/**
 * Every call billing makes to the payment provider, in one place: captures, voids and refunds of
 * the payments a plan names, each under a key derived from the money call's own (`<request key>:<payment
 * id>`), so asking again (a retry, the sweep) answers what the provider did the first time.
 */

export async function askCaptures(
  provider: PaymentProvider,
  captures: Array<{ paymentId: string; amount: string; transactionId: string }>,
  requestKey: string,
): Promise<ProviderResults> {
  const results: ProviderResults = {};
  for (const capture of captures) {
    results[capture.paymentId] = await provider.capture({
      idempotencyKey: `${requestKey}:${capture.paymentId}`,
      transactionId: capture.transactionId,
      amount: capture.amount,
    });
  }
  return results;
}

export async function askVoids(
  provider: PaymentProvider,
  voids: Array<{ paymentId: string; transactionId: string }>,
  requestKey: string,
): Promise<ProviderResults> {
  const results: ProviderResults = {};
  for (const voiding of voids) {
    results[voiding.paymentId] = await provider.void({
      idempotencyKey: `${requestKey}:${voiding.paymentId}`,
      transactionId: voiding.transactionId,
    });
  }
  return results;
}

export async function askRefunds(
  provider: PaymentProvider,
  refunds: Array<{ paymentId: string; amount: string; transactionId: string }>,
  requestKey: string,
): Promise<ProviderResults> {
  const results: ProviderResults = {};
  for (const refund of refunds) {
    results[refund.paymentId] = await provider.refund({
      idempotencyKey: `${requestKey}:${refund.paymentId}`,
      transactionId: refund.transactionId,
      amount: refund.amount,
    });
  }
  return results;
}
