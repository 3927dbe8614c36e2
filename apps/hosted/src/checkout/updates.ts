import type { Checkout } from '@cartwheel/sdk';
import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { CheckoutPageApi, CheckoutSession, CheckoutUpdate, PaymentInput } from './api.ts';
import { checkoutKeys } from './session.ts';

/**
 * The page's calls that change the checkout, as TanStack mutations in one scope: they run one at a time
 * and in order (two updates racing could land the older one last), and each answer becomes the checkout
 * in the session's cached answer, which the page shows. The buyer's details are sent only when they
 * differ from what was last sent, and a save still waiting its turn takes the newest details.
 */
export function useCheckoutChanges(api: CheckoutPageApi, onCheckout: (checkout: Checkout) => void) {
  const queryClient = useQueryClient();
  const mutationKey = checkoutKeys.changes(api.sessionToken);
  const scope = { id: mutationKey.join('/') };
  const update = useMutation({
    mutationKey,
    scope,
    mutationFn: (call: (api: CheckoutPageApi) => Promise<Checkout>) => call(api),
    onSuccess: (checkout) => {
      queryClient.setQueryData<CheckoutSession>(checkoutKeys.session(api.sessionToken), (session) =>
        session ? { ...session, checkout } : session,
      );
      onCheckout(checkout);
    },
  });
  const pay = useMutation({
    mutationKey,
    scope,
    mutationFn: ({ attemptKey, payment }: { attemptKey: string; payment: PaymentInput }) =>
      api.pay(attemptKey, payment),
  });
  const lastDetails = useRef<string | undefined>(undefined);
  const waitingDetails = useRef<{ body: CheckoutUpdate; done: Promise<Checkout | undefined> } | undefined>(
    undefined,
  );

  /** Saves the buyer's details (email, addresses) unless they are what the checkout already has. */
  const saveDetails = (body: CheckoutUpdate): Promise<Checkout | undefined> => {
    const key = JSON.stringify(body);
    if (key === lastDetails.current) return waitingDetails.current?.done ?? Promise.resolve(undefined);
    lastDetails.current = key;
    if (waitingDetails.current) {
      waitingDetails.current.body = body;
      return waitingDetails.current.done;
    }
    const waiting = { body, done: Promise.resolve<Checkout | undefined>(undefined) };
    waitingDetails.current = waiting;
    waiting.done = update
      .mutateAsync((calls) => {
        waitingDetails.current = undefined;
        return calls.update(waiting.body);
      })
      .catch((error: unknown) => {
        // refused or lost: the same details may be sent again
        lastDetails.current = undefined;
        throw error;
      });
    return waiting.done;
  };

  return {
    saveDetails,
    /** Any other change (delivery method, coupon): always sent, in its turn. */
    change: (call: (api: CheckoutPageApi) => Promise<Checkout>) => update.mutateAsync(call),
    /** Pays, after every change asked for before it. */
    pay: (attemptKey: string, payment: PaymentInput) => pay.mutateAsync({ attemptKey, payment }),
    updating: useIsMutating({ mutationKey }) > 0,
  };
}
