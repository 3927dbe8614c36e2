import type { Checkout } from '@cartwheel/sdk';
import { useCallback, useRef, useState } from 'react';
import type { CheckoutPageApi, CheckoutUpdate } from './api.ts';

/**
 * The page's calls that change the checkout, one at a time and in order (two updates racing could land
 * the older one last), each answer becoming the checkout shown. The buyer's details are sent only when
 * they differ from what was last sent, and a save still waiting its turn takes the newest details.
 */
export function useCheckoutChanges(
  api: CheckoutPageApi | undefined,
  onCheckout: (checkout: Checkout) => void,
) {
  const tail = useRef<Promise<unknown>>(Promise.resolve());
  const [running, setRunning] = useState(0);
  const lastDetails = useRef<string | undefined>(undefined);
  const waitingDetails = useRef<{ body: CheckoutUpdate; done: Promise<Checkout | undefined> } | undefined>(
    undefined,
  );

  /** Runs `task` after every change before it; its checkout (if any) becomes the one shown. */
  const enqueue = useCallback(
    <T>(task: () => Promise<T>, checkoutOf?: (answer: T) => Checkout | undefined): Promise<T> => {
      setRunning((count) => count + 1);
      const run = tail.current.then(task);
      tail.current = run.catch(() => undefined);
      return run
        .then((answer) => {
          const checkout = checkoutOf?.(answer);
          if (checkout) onCheckout(checkout);
          return answer;
        })
        .finally(() => setRunning((count) => count - 1));
    },
    [onCheckout],
  );

  /** Saves the buyer's details (email, addresses) unless they are what the checkout already has. */
  const saveDetails = useCallback(
    (body: CheckoutUpdate): Promise<Checkout | undefined> => {
      if (!api) return Promise.resolve(undefined);
      const key = JSON.stringify(body);
      if (key === lastDetails.current) return waitingDetails.current?.done ?? Promise.resolve(undefined);
      lastDetails.current = key;
      if (waitingDetails.current) {
        waitingDetails.current.body = body;
        return waitingDetails.current.done;
      }
      const waiting = { body, done: Promise.resolve<Checkout | undefined>(undefined) };
      waitingDetails.current = waiting;
      waiting.done = enqueue(
        () => {
          waitingDetails.current = undefined;
          return api.update(waiting.body);
        },
        (checkout) => checkout,
      ).catch((error: unknown) => {
        // refused or lost: the same details may be sent again
        lastDetails.current = undefined;
        throw error;
      });
      return waiting.done;
    },
    [api, enqueue],
  );

  /** Any other change (delivery method, coupon): always sent, in its turn. */
  const change = useCallback(
    (call: (api: CheckoutPageApi) => Promise<Checkout>): Promise<Checkout> => {
      if (!api) return Promise.reject(new Error('The checkout is not loaded.'));
      return enqueue(
        () => call(api),
        (checkout) => checkout,
      );
    },
    [api, enqueue],
  );

  /** Settles once every change asked for so far has (paying waits for it). */
  const settled = useCallback(() => tail.current.then(() => undefined), []);

  return { saveDetails, change, enqueue, settled, updating: running > 0 };
}
