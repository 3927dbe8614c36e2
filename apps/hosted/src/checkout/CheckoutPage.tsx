import { Field } from '@cartwheel/design';
import type { Checkout } from '@cartwheel/sdk';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useHostedConfig } from '../components/HostedConfig.ts';
import { type CheckoutPageApi, type CheckoutSession, type PaymentInput, UnreachableError } from './api.ts';
import { AddressFields } from './components/AddressFields.tsx';
import { CheckoutMessage, CheckoutShell } from './components/CheckoutShell.tsx';
import { CouponField } from './components/CouponField.tsx';
import { DeliveryMethods } from './components/DeliveryMethods.tsx';
import { OrderSummary } from './components/OrderSummary.tsx';
import {
  type AddressField,
  type AddressForm,
  type BuyerForm,
  buyerFormOf,
  buyerUpdateOf,
  type CardForm,
  cardInputOf,
  EMPTY_CARD,
  type FieldErrors,
  formatExpiry,
  groupCardNumber,
  isPickup,
  missingFields,
  onShownFields,
  withoutErrors,
} from './form.ts';
import { type CheckoutProblem, checkoutProblemOf, isAlreadyCompleted } from './problems.ts';
import type { StripeCardEntry } from './StripeCardFields.tsx';
import { buyerDraft, newAttemptKey, useCheckoutSession } from './session.ts';
import { useCheckoutChanges } from './updates.ts';
import './checkout.css';

/** Stripe's card fields and libraries, fetched only by a page whose store pays through Stripe. */
const StripeCardFields = lazy(() => import('./StripeCardFields.tsx'));

/** What the confirm page hands back when the bank step failed: the decline to show here. */
export interface CheckoutReturnState {
  paymentProblem?: CheckoutProblem;
}

/** `/auth/checkout?session=<token>`: the hosted checkout, from the shopper's details to "Place order". */
export function CheckoutPage() {
  const config = useHostedConfig();
  const [search] = useSearchParams();
  const { api, loaded, refresh } = useCheckoutSession(search.get('session'));

  if (loaded.state === 'loading') {
    return (
      <CheckoutShell title="Checkout" storeName={config.storeName}>
        <main className="checkout-message" id="main" aria-busy="true">
          <p role="status">Loading your checkout…</p>
        </main>
      </CheckoutShell>
    );
  }
  if (loaded.state === 'failed') {
    return (
      <CheckoutMessage
        title="This checkout is no longer available"
        storeName={config.storeName}
        link={{
          href: loaded.cartPageUrl ?? '/',
          text: loaded.cartPageUrl ? 'Back to your cart' : 'Back to the store',
        }}
      >
        <p role="alert">{loaded.problem.message}</p>
      </CheckoutMessage>
    );
  }
  const { session } = loaded;
  if (session.completed) {
    return (
      <CheckoutMessage
        title="Your order is already placed"
        storeName={session.settings.storeName}
        brand={session.settings.checkoutBrand}
        link={{ href: session.completed.redirectUrl, text: 'See your order' }}
      >
        <p>This checkout was paid and became an order. Nothing more is needed here.</p>
      </CheckoutMessage>
    );
  }
  return <CheckoutForm api={api!} session={session} onCompletedElsewhere={refresh} />;
}

function CheckoutForm({
  api,
  session,
  onCompletedElsewhere,
}: {
  api: CheckoutPageApi;
  session: CheckoutSession;
  /** Asks for the session again: once it says the order is placed, the page shows that instead of the form. */
  onCompletedElsewhere: () => Promise<boolean>;
}) {
  const location = useLocation();
  const { settings, callbacks } = session;
  // the session's cached answer, which every change's answer updates (updates.ts)
  const { checkout } = session;
  const [form, setForm] = useState<BuyerForm>(
    () => buyerDraft.read<BuyerForm>(api.sessionToken) ?? buyerFormOf(session.checkout),
  );
  useEffect(() => buyerDraft.write(api.sessionToken, form), [api, form]);
  const [card, setCard] = useState<CardForm>(EMPTY_CARD);
  // the store's provider takes the card in its own fields (Stripe), or the page's form takes it
  const cardEntry = session.payment;
  const stripeFields = useRef<StripeCardEntry | undefined>(undefined);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formProblem, setFormProblem] = useState<string>();
  const [paymentProblem, setPaymentProblem] = useState<CheckoutProblem | undefined>(
    (location.state as CheckoutReturnState | null)?.paymentProblem,
  );
  // back from a failed bank step: the card's fields start empty, since card details are never kept
  const [cardAskedAgain, setCardAskedAgain] = useState(() =>
    Boolean((location.state as CheckoutReturnState | null)?.paymentProblem),
  );
  const paymentAlert = useRef<HTMLDivElement>(null);
  // a refused payment is told where the shopper is looking: on a phone the form is long, and the
  // shopper back from the bank's page starts at its top, so the message is scrolled to and focused
  useEffect(() => {
    if (!paymentProblem || paymentProblem.fields) return;
    const alert = paymentAlert.current;
    alert?.scrollIntoView({ block: 'center' });
    alert?.focus({ preventScroll: true });
  }, [paymentProblem]);
  // the checkout was paid elsewhere (another tab): nothing here may change it any more
  const [completed, setCompleted] = useState(false);

  const changes = useCheckoutChanges(api, (next: Checkout) => {
    // a method chosen (by the shopper or by default) answers "Choose a delivery method"
    if (next.shippingInfo?.selectedCarrierServiceOption?.code) {
      setFieldErrors((current) => withoutErrors(current, ['deliveryMethod']));
    }
  });
  // the shopper's pick, set in the click's own render: the mutation's pending state reaches the page a
  // tick later, and meanwhile the radio would spring back to the method the checkout still holds
  const [pickedMethod, setPickedMethod] = useState<string>();
  /** The delivery method being chosen: shown as chosen while the checkout takes it. */
  const chooseMethod = useMutation({
    mutationFn: ({ code, details }: { code: string; details: BuyerForm }) =>
      changes.change((calls) =>
        calls.update({
          ...buyerUpdateOf(details, isPickup(checkout, code)),
          selectedShippingOption: { code },
        }),
      ),
    onError: (error) => showRefusal(error),
    onSettled: () => setPickedMethod(undefined),
  });
  const chosenMethod = pickedMethod ?? (chooseMethod.isPending ? chooseMethod.variables.code : undefined);
  /** Placing the order: the details saved, then the payment, in the changes' turn. */
  const placing = useMutation({
    mutationFn: async (order: {
      attemptKey: string;
      payment: PaymentInput;
      details: BuyerForm;
      pickup: boolean;
    }) => {
      // the method shown as chosen may be the platform's default: the order needs the shopper's choice
      const shownMethod = checkout.shippingInfo?.selectedCarrierServiceOption?.code;
      await changes.saveDetails({
        ...buyerUpdateOf(order.details, order.pickup),
        ...(shownMethod ? { selectedShippingOption: { code: shownMethod } } : {}),
      });
      return changes.pay(order.attemptKey, order.payment);
    },
  });
  // once approved (or sent to the bank) the page is leaving: the button stays disabled until it has
  const paying = !completed && (placing.isPending || placing.isSuccess);
  const paymentStatus = completed
    ? ''
    : placing.isPending
      ? 'Processing your payment…'
      : placing.data?.status === 'APPROVED'
        ? 'Payment approved. Taking you to your order…'
        : placing.data
          ? 'Your bank wants to confirm this payment. Taking you there…'
          : '';
  // a pickup has no delivery address: the billing address is asked for in its place
  const pickup = isPickup(checkout, chosenMethod);
  // set at once, before React re-renders the disabled button: a double click sends one payment
  const payingNow = useRef(false);
  // kept while a payment's outcome is unknown (no answer came), so trying again cannot pay twice
  const unansweredAttemptKey = useRef<string | undefined>(undefined);

  /** When `error` says the checkout already became an order: the form closes and the page shows the order. */
  const closeIfCompleted = (error: unknown): boolean => {
    if (!isAlreadyCompleted(error)) return false;
    payingNow.current = true;
    setCompleted(true);
    setPaymentProblem(undefined);
    setFormProblem(undefined);
    setFieldErrors({});
    buyerDraft.clear(api.sessionToken);
    void onCompletedElsewhere();
    return true;
  };

  const showRefusal = (error: unknown) => {
    if (closeIfCompleted(error)) return;
    const problem = checkoutProblemOf(error);
    setFieldErrors((current) => ({
      ...current,
      ...onShownFields(problem.fields ?? {}, !pickup && form.billingSameAsShipping),
    }));
    setFormProblem(problem.fields ? undefined : problem.message);
  };

  /** Saves the details the shopper finished, so delivery methods, tax and totals follow them. */
  const saveDetails = (next: BuyerForm) => {
    changes.saveDetails(buyerUpdateOf(next, pickup)).then(() => setFormProblem(undefined), showRefusal);
  };

  const editAddress = (side: 'shipping' | 'billing') => (next: AddressForm) => {
    setForm((current) => ({ ...current, [side]: next }));
    // the shopper is fixing these fields: their old messages go
    const changed = (Object.keys(next) as AddressField[]).filter((key) => next[key] !== form[side][key]);
    setFieldErrors((current) =>
      withoutErrors(
        current,
        changed.map((key) => `${side}.${key}` as const),
      ),
    );
  };
  const commitAddress = (side: 'shipping' | 'billing') => (next: AddressForm) =>
    saveDetails({ ...form, [side]: next });
  const addressFields = (side: 'shipping' | 'billing') => (
    <AddressFields
      side={side}
      value={form[side]}
      errors={fieldErrors}
      onChange={editAddress(side)}
      onCommit={commitAddress(side)}
    />
  );

  function chooseDeliveryMethod(code: string) {
    setFieldErrors((current) => withoutErrors(current, ['deliveryMethod']));
    const toPickup = isPickup(checkout, code);
    let next = form;
    // the delivery address the billing address was the same as becomes the billing address to edit
    if (toPickup && form.billingSameAsShipping && !form.billing.address.trim() && !form.billing.city.trim()) {
      next = { ...form, billing: { ...form.shipping } };
      setForm(next);
    }
    setPickedMethod(code);
    chooseMethod.mutate({ code, details: next });
  }

  async function couponRefusal(call: (calls: CheckoutPageApi) => Promise<Checkout>) {
    try {
      await changes.change(call);
      return undefined;
    } catch (error) {
      if (closeIfCompleted(error)) return undefined;
      return checkoutProblemOf(error, checkout).message;
    }
  }

  async function placeOrder(event: FormEvent) {
    event.preventDefault();
    if (payingNow.current) return;
    setPaymentProblem(undefined);
    setCardAskedAgain(false);
    const missing = missingFields(form, cardEntry.kind === 'FORM' ? card : undefined, checkout, pickup);
    if (Object.keys(missing).length > 0) {
      setFieldErrors(missing);
      setPaymentProblem({ message: 'Please fill in the highlighted fields.', fields: missing });
      focusFirstInvalid();
      return;
    }
    payingNow.current = true;
    setFieldErrors({});
    const attemptKey = unansweredAttemptKey.current ?? newAttemptKey();
    unansweredAttemptKey.current = attemptKey;
    try {
      const outcome = await placing.mutateAsync({
        attemptKey,
        payment: await paymentOf(),
        details: form,
        pickup,
      });
      unansweredAttemptKey.current = undefined;
      if (outcome.status === 'APPROVED') {
        buyerDraft.clear(api.sessionToken);
        window.location.assign(outcome.redirectUrl);
      } else {
        window.location.assign(outcome.actionUrl);
      }
    } catch (error) {
      if (!(error instanceof UnreachableError)) unansweredAttemptKey.current = undefined;
      if (closeIfCompleted(error)) return;
      // Stripe's fields refused the card before any payment (incomplete, invalid): their own words
      if (error instanceof Error && error.name === 'CardFieldsError') {
        setPaymentProblem({ message: error.message });
        payingNow.current = false;
        return;
      }
      const problem = checkoutProblemOf(error, checkout);
      setFieldErrors(onShownFields(problem.fields ?? {}, !pickup && form.billingSameAsShipping));
      setPaymentProblem(problem);
      payingNow.current = false;
      if (problem.fields) focusFirstInvalid();
    }
  }

  /** What the order is paid with: the card as typed here, or the payment method Stripe's fields make. */
  async function paymentOf(): Promise<PaymentInput> {
    if (cardEntry.kind === 'FORM') return { card: cardInputOf(card) };
    const fields = stripeFields.current;
    if (!fields) {
      throw Object.assign(new Error('The card fields are still loading: try again in a moment.'), {
        name: 'CardFieldsError',
      });
    }
    return { paymentToken: await fields.paymentMethod() };
  }

  const setCardField = (field: keyof CardForm, value: string) => {
    setCard((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => withoutErrors(current, [`card.${field}`]));
  };

  const cartPageUrl = callbacks.cartPageUrl;
  return (
    <CheckoutShell title="Checkout" storeName={settings.storeName} brand={settings.checkoutBrand}>
      <main className="checkout" id="main">
        <h1 className="checkout__title">Checkout</h1>
        <div className="checkout__summary">
          <OrderSummary
            checkout={checkout}
            taxIncluded={settings.taxIncludedInPrices}
            updating={changes.updating}
            pickup={pickup}
          >
            <CouponField
              checkout={checkout}
              disabled={paying || completed}
              onApply={(couponCode) => couponRefusal((calls) => calls.update({ couponCode }))}
              onRemove={() => couponRefusal((calls) => calls.removeCoupon())}
            />
          </OrderSummary>
          {cartPageUrl ? (
            <p className="checkout__back">
              <a href={cartPageUrl}>Back to your cart</a>
            </p>
          ) : null}
        </div>
        <form
          className="checkout__form"
          onSubmit={placeOrder}
          noValidate
          aria-label="Checkout"
          aria-disabled={completed || undefined}
          inert={completed}
        >
          {completed ? (
            <div className="notice" role="status">
              <p>This checkout was already paid and became an order. Nothing more is needed here.</p>
            </div>
          ) : null}
          {formProblem ? (
            <div className="notice notice--error" role="alert">
              <p>{formProblem}</p>
            </div>
          ) : null}
          <fieldset className="section">
            <legend>Contact</legend>
            <Field
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              value={form.email}
              error={fieldErrors.email}
              onChange={(event) => {
                const email = event.target.value;
                setForm((current) => ({ ...current, email }));
                setFieldErrors((current) => withoutErrors(current, ['email']));
              }}
              onBlur={() => saveDetails(form)}
            />
            {pickup ? (
              // with nothing delivered, the buyer's name (the checkout's one name) is asked for here
              <div className="form__row">
                {(['firstName', 'lastName'] as const).map((key) => (
                  <Field
                    key={key}
                    label={key === 'firstName' ? 'First name' : 'Last name'}
                    name={`shipping.${key}`}
                    autoComplete={key === 'firstName' ? 'given-name' : 'family-name'}
                    value={form.shipping[key]}
                    error={fieldErrors[`shipping.${key}`]}
                    onChange={(event) =>
                      editAddress('shipping')({ ...form.shipping, [key]: event.target.value })
                    }
                    onBlur={() => saveDetails(form)}
                  />
                ))}
              </div>
            ) : null}
          </fieldset>
          {pickup ? (
            <fieldset className="section">
              <legend>Billing address</legend>
              {addressFields('billing')}
            </fieldset>
          ) : (
            <fieldset className="section">
              <legend>Delivery</legend>
              {addressFields('shipping')}
            </fieldset>
          )}
          <fieldset className="section">
            <legend>Delivery method</legend>
            <DeliveryMethods
              checkout={checkout}
              chosen={chosenMethod}
              error={fieldErrors.deliveryMethod}
              disabled={paying || completed}
              onChoose={chooseDeliveryMethod}
            />
          </fieldset>
          {pickup ? null : (
            <fieldset className="section">
              <legend>Billing</legend>
              <label className="checkbox">
                <input
                  type="checkbox"
                  name="billingSameAsShipping"
                  checked={form.billingSameAsShipping}
                  onChange={(event) => {
                    const next = { ...form, billingSameAsShipping: event.target.checked };
                    setForm(next);
                    saveDetails(next);
                  }}
                />
                Same as delivery address
              </label>
              {form.billingSameAsShipping ? null : addressFields('billing')}
            </fieldset>
          )}
          <fieldset className="section">
            <legend>Payment</legend>
            {cardEntry.kind === 'STRIPE' ? (
              <Suspense fallback={<p className="muted">Loading the card fields…</p>}>
                <StripeCardFields
                  publishableKey={cardEntry.publishableKey}
                  amount={minorUnits(checkout.priceSummary?.total?.amount, settings.currency)}
                  currency={settings.currency}
                  entry={stripeFields}
                />
              </Suspense>
            ) : cardEntry.kind === 'NONE' ? (
              <p className="notice notice--error" role="alert">
                This store cannot take a card on this page at the moment.
              </p>
            ) : (
              <>
                <p className="muted">
                  Test cards: 4242 4242 4242 4242 pays; 4000 0025 0000 3155 asks for a 3-D Secure step; 4000
                  0000 0000 0002 is declined; 4000 0000 0000 9995 is declined for insufficient funds.
                </p>
                <Field
                  label="Card number"
                  name="cardNumber"
                  inputMode="numeric"
                  autoComplete="cc-number"
                  placeholder="1234 1234 1234 1234"
                  value={card.number}
                  error={fieldErrors['card.number']}
                  onChange={(event) => setCardField('number', groupCardNumber(event.target.value))}
                />
                <div className="form__row">
                  <Field
                    label="Expiry"
                    name="cardExpiry"
                    inputMode="numeric"
                    autoComplete="cc-exp"
                    placeholder="MM/YY"
                    value={card.expiry}
                    error={fieldErrors['card.expiry']}
                    onChange={(event) =>
                      setCardField('expiry', formatExpiry(event.target.value, card.expiry))
                    }
                  />
                  <Field
                    label="CVC"
                    name="cardCvc"
                    inputMode="numeric"
                    autoComplete="cc-csc"
                    placeholder="123"
                    maxLength={4}
                    value={card.cvc}
                    error={fieldErrors['card.cvc']}
                    onChange={(event) => setCardField('cvc', event.target.value.replace(/\D/g, ''))}
                  />
                </div>
              </>
            )}
            <div className="payment-outcome" role="status" aria-live="polite">
              {paymentStatus}
            </div>
            {/* "fill in the highlighted fields" goes once nothing is highlighted any more */}
            {paymentProblem && !(paymentProblem.fields && Object.keys(fieldErrors).length === 0) ? (
              <div className="notice notice--error" role="alert" tabIndex={-1} ref={paymentAlert}>
                <p>{paymentProblem.message}</p>
                {cardAskedAgain ? (
                  <p data-testid="card-again">
                    Your details are still here; for your safety the card's number, expiry and CVC are never
                    kept, so enter them again.
                  </p>
                ) : null}
                {paymentProblem.outOfStock ? (
                  <a href={cartPageUrl ?? '/'}>{cartPageUrl ? 'Back to your cart' : 'Back to the store'}</a>
                ) : null}
              </div>
            ) : null}
            <button
              className="button button--primary button--wide"
              type="submit"
              disabled={paying || completed || cardEntry.kind === 'NONE'}
              aria-busy={paying}
            >
              {paying ? 'Placing order…' : 'Place order'}
            </button>
            <p className="muted checkout__total-note">
              Total to pay: <strong>{checkout.priceSummary?.total?.formattedAmount ?? '—'}</strong>
            </p>
          </fieldset>
        </form>
      </main>
    </CheckoutShell>
  );
}

/** A decimal amount in `currency`'s minor units, as Stripe counts it (cents; yen as they are). */
function minorUnits(amount: string | undefined, currency: string): number {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return Math.round(Number(amount ?? 0) * 10 ** digits);
}

/** Moves focus to the first field marked invalid once React has drawn the marks. */
function focusFirstInvalid(): void {
  requestAnimationFrame(() => {
    document.querySelector<HTMLElement>('.checkout__form [aria-invalid="true"]')?.focus();
  });
}
