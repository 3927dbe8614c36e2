import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { type RefObject, useEffect, useRef, useState } from 'react';

/**
 * The card as Stripe's own Payment Element takes it (issue 32): the number, expiry and CVC are typed
 * into Stripe's fields and go to Stripe, never to the platform; the page gets back a payment method
 * (`pm_...`) and pays with it. This module, with Stripe's libraries, is loaded only on a checkout
 * page of a store whose provider is Stripe (CheckoutPage imports it lazily).
 */

/** What the page asks of the card fields when the shopper places the order. */
export interface StripeCardEntry {
  /** Checks the fields and makes the payment method to pay with; throws a `CardFieldsError` the shopper can fix. */
  paymentMethod(): Promise<string>;
}

/** The shopper's card was refused by Stripe's fields (incomplete, invalid): the message says why. */
export class CardFieldsError extends Error {
  override name = 'CardFieldsError';
}

const loaded = new Map<string, Promise<Stripe | null>>();
/** Stripe.js once per key: the Payment Element must be given the same instance across renders. */
const stripeFor = (publishableKey: string) => {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    loaded.set(publishableKey, stripe);
  }
  return stripe;
};

export default function StripeCardFields({
  publishableKey,
  amount,
  currency,
  entry,
}: {
  publishableKey: string;
  /** The total in the currency's minor units (Stripe's `amount`). */
  amount: number;
  currency: string;
  entry: RefObject<StripeCardEntry | undefined>;
}) {
  const [failed, setFailed] = useState(false);
  const stripe = stripeFor(publishableKey);
  useEffect(() => {
    stripe.catch(() => setFailed(true));
  }, [stripe]);
  if (failed) {
    return (
      <p className="notice notice--error" role="alert">
        The card fields could not be loaded. Check your connection and reload the page.
      </p>
    );
  }
  return (
    <Elements
      stripe={stripe}
      options={{
        mode: 'payment',
        amount: Math.max(1, amount),
        currency: currency.toLowerCase(),
        paymentMethodCreation: 'manual',
      }}
    >
      <Fields entry={entry} />
    </Elements>
  );
}

function Fields({ entry }: { entry: RefObject<StripeCardEntry | undefined> }) {
  const stripe = useStripe();
  const elements = useElements();
  useEffect(() => {
    if (!stripe || !elements) return;
    entry.current = {
      async paymentMethod() {
        const submitted = await elements.submit();
        if (submitted.error) throw new CardFieldsError(submitted.error.message ?? 'Check your card details.');
        const made = await stripe.createPaymentMethod({ elements });
        if (made.error) throw new CardFieldsError(made.error.message ?? 'Check your card details.');
        return made.paymentMethod.id;
      },
    };
    return () => {
      entry.current = undefined;
    };
  }, [stripe, elements, entry]);
  return (
    <div data-testid="stripe-card-fields">
      <PaymentElement />
    </div>
  );
}

/**
 * Stripe's own 3-D Secure step (`handleNextAction`), started as soon as the confirm page shows: Stripe
 * takes the shopper through their bank's check, then `onDone` tells the platform, which reads the
 * outcome from Stripe itself (the page's word is never taken for it).
 */
export function StripeAuthentication({
  publishableKey,
  clientSecret,
  onDone,
}: {
  publishableKey: string;
  clientSecret: string;
  onDone: (passed: boolean) => void;
}) {
  const started = useRef(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    stripeFor(publishableKey).then(
      async (stripe) => {
        if (!stripe) return setFailed(true);
        const result = await stripe.handleNextAction({ clientSecret });
        onDone(!result.error);
      },
      () => setFailed(true),
    );
  }, [publishableKey, clientSecret, onDone]);
  return failed ? (
    <p className="notice notice--error" role="alert">
      Your bank's check could not be loaded. Check your connection and reload the page.
    </p>
  ) : (
    <p role="status">Your bank is checking this payment…</p>
  );
}
