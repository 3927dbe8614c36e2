import type { ProviderRefundBlock } from '../payments/provider.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import type { OrderPaymentRow } from '../payments/tables.ts';
import { TEST_GATEWAY_ID } from '../payments/test-gateway.ts';
import type { ProviderResults } from './ledger.ts';

/**
 * A planned call names the provider that took its payment (written in the plan, so a retry asks the
 * same one); a plan written before 0042 has none: the test gateway's.
 */
interface ProviderNamed {
  providerId?: string;
}

/**
 * The provider that took an online payment, checked while planning: a payment whose provider the store
 * no longer registers is refused before anything is written.
 */
export function providerIdOf(providers: PaymentProviders, payment: OrderPaymentRow): string {
  return providers.get(payment.provider_id ?? TEST_GATEWAY_ID).id;
}

const providerOf = (providers: PaymentProviders, call: ProviderNamed) =>
  providers.get(call.providerId ?? TEST_GATEWAY_ID);

/**
 * Every call billing makes to a payment provider, in one place: captures, voids and refunds of
 * the payments a plan names, each under a key derived from the money call's own (`<request key>:<payment
 * id>`), so asking again (a retry, the sweep) answers what the provider did the first time.
 */

export async function askCaptures(
  providers: PaymentProviders,
  captures: Array<{ paymentId: string; amount: string; transactionId: string } & ProviderNamed>,
  requestKey: string,
): Promise<ProviderResults> {
  const results: ProviderResults = {};
  for (const capture of captures) {
    results[capture.paymentId] = await providerOf(providers, capture).capture({
      idempotencyKey: `${requestKey}:${capture.paymentId}`,
      transactionId: capture.transactionId,
      amount: capture.amount,
    });
  }
  return results;
}

export async function askVoids(
  providers: PaymentProviders,
  voids: Array<{ paymentId: string; transactionId: string } & ProviderNamed>,
  requestKey: string,
): Promise<ProviderResults> {
  const results: ProviderResults = {};
  for (const voiding of voids) {
    results[voiding.paymentId] = await providerOf(providers, voiding).void({
      idempotencyKey: `${requestKey}:${voiding.paymentId}`,
      transactionId: voiding.transactionId,
    });
  }
  return results;
}

export async function askRefunds(
  providers: PaymentProviders,
  refunds: Array<{ paymentId: string; amount: string; transactionId: string } & ProviderNamed>,
  requestKey: string,
): Promise<ProviderResults> {
  const results: ProviderResults = {};
  for (const refund of refunds) {
    results[refund.paymentId] = await providerOf(providers, refund).refund({
      idempotencyKey: `${requestKey}:${refund.paymentId}`,
      transactionId: refund.transactionId,
      amount: refund.amount,
    });
  }
  return results;
}

/**
 * What each payment's provider says of refunding it now (PaymentProvider `refundability`), asked of all
 * at once: the refund-disabled reason of each payment a provider would not refund, by payment id. A
 * provider with no word on it (the test gateway, whose books are Cartwheel's) leaves the books' answer.
 */
export async function askRefundability(
  providers: PaymentProviders,
  payments: OrderPaymentRow[],
): Promise<Record<string, ProviderRefundBlock>> {
  const blocks: Record<string, ProviderRefundBlock> = {};
  await Promise.all(
    payments.map(async (payment) => {
      if (Number(payment.offline) === 1) return;
      const provider = providers.list().find((candidate) => candidate.id === payment.provider_id);
      if (!provider?.refundability) return;
      const answer = await provider.refundability(payment.gateway_transaction_id);
      if (!answer.refundable) blocks[payment.id] = answer.reason;
    }),
  );
  return blocks;
}
