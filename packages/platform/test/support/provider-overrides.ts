import type { PaymentProvider } from '../../src/payments/provider.ts';

/**
 * A provider passing every call to `gateway`, with `override` in place of the calls a test breaks
 * (a lost answer, a refusal), registered under the gateway's own id.
 */
export function overriding(
  gateway: PaymentProvider,
  override: Partial<PaymentProvider> = {},
): PaymentProvider {
  return {
    id: gateway.id,
    methodName: gateway.methodName,
    acceptsRawCards: gateway.acceptsRawCards,
    cardEntry: gateway.cardEntry,
    authorize: (request) => gateway.authorize(request),
    completeAction: (request) => gateway.completeAction(request),
    settle: (key) => gateway.settle(key),
    capture: (request) => gateway.capture(request),
    void: (request) => gateway.void(request),
    refund: (request) => gateway.refund(request),
    ...override,
  };
}
