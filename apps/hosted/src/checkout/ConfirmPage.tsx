import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useHostedConfig } from '../components/HostedConfig.ts';
import type { PaymentAttempt } from './api.ts';
import type { CheckoutReturnState } from './CheckoutPage.tsx';
import { CheckoutMessage, CheckoutShell } from './components/CheckoutShell.tsx';
import { type CheckoutProblem, checkoutProblemOf } from './problems.ts';
import { buyerDraft, useCheckoutSession } from './session.ts';
import './checkout.css';

/** Stripe's step, in the chunk that holds Stripe's libraries: loaded only for a Stripe payment. */
const StripeAuthentication = lazy(() =>
  import('./StripeCardFields.tsx').then((module) => ({ default: module.StripeAuthentication })),
);

/** An attempt still waiting for the shopper's answer, or being answered: the step is still to be shown. */
const PENDING = new Set(['INITIALIZED', 'REQUIRES_ACTION', 'PROCESSING', 'CONFIRMING']);

/**
 * `/auth/checkout/confirm?session=<token>&attempt=<id>`: the test gateway's 3-D Secure step, standing
 * in for the card issuer's page. The shopper completes or fails it; the outcome is the payment's.
 */
export function ConfirmPage() {
  const config = useHostedConfig();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const token = search.get('session');
  const attemptId = search.get('attempt');
  const { api, loaded } = useCheckoutSession(token);
  const [attempt, setAttempt] = useState<PaymentAttempt>();
  const [problem, setProblem] = useState<CheckoutProblem>();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const answering = useRef(false);

  const backToCheckout = `/checkout?session=${encodeURIComponent(token ?? '')}`;
  const session = loaded.state === 'ready' ? loaded.session : undefined;

  useEffect(() => {
    if (!api || !attemptId) return;
    let current = true;
    api.attempt(attemptId).then(
      (answer) => current && setAttempt(answer),
      (error: unknown) => current && setProblem(checkoutProblemOf(error)),
    );
    return () => {
      current = false;
    };
  }, [api, attemptId]);

  // the checkout already paid, or this attempt already over (the shopper came Back after the bank step):
  // its outcome, never the step again
  // (both answers are needed: an approved attempt whose session is not read yet is not "over")
  const settled: 'paid' | 'over' | undefined = !session
    ? undefined
    : session.completed
      ? 'paid'
      : attempt && !PENDING.has(attempt.status)
        ? 'over'
        : undefined;
  useEffect(() => {
    if (settled === 'paid' && session?.completed) {
      if (token) buyerDraft.clear(token);
      window.location.replace(session.completed.redirectUrl);
    } else if (settled === 'over') {
      // not paid (failed, expired or given up): the checkout, where the shopper can pay again
      navigate(backToCheckout, { replace: true });
    }
  }, [settled, session, token, navigate, backToCheckout]);

  // a page the browser kept in memory (Back) shows what it showed before leaving: ask again instead
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  async function answer(approve: boolean) {
    if (!api || !attemptId || answering.current) return;
    answering.current = true;
    setBusy(true);
    setProblem(undefined);
    setStatus(approve ? 'Confirming your payment…' : 'Cancelling the authentication…');
    try {
      const outcome = await api.confirmAttempt(attemptId, approve);
      if (outcome.status === 'APPROVED') {
        if (token) buyerDraft.clear(token);
        setStatus('Payment approved. Taking you to your order…');
        window.location.assign(outcome.redirectUrl);
      } else {
        window.location.assign(outcome.actionUrl);
      }
    } catch (error) {
      const refused = checkoutProblemOf(error);
      // a decline is told on the checkout page, where another card can be tried
      if (refused.declined) {
        const state: CheckoutReturnState = { paymentProblem: refused };
        navigate(backToCheckout, { state, replace: true });
        return;
      }
      setProblem(refused);
      setStatus('');
      answering.current = false;
      setBusy(false);
    }
  }

  if (loaded.state === 'loading') {
    return (
      <CheckoutShell title="Confirm your payment" storeName={config.storeName}>
        <main className="checkout-message" id="main" aria-busy="true">
          <p role="status">Loading…</p>
        </main>
      </CheckoutShell>
    );
  }
  if (loaded.state === 'failed' || !attemptId) {
    return (
      <CheckoutMessage
        title="This payment can no longer be confirmed"
        storeName={config.storeName}
        link={{
          href: loaded.state === 'failed' ? (loaded.cartPageUrl ?? '/') : '/',
          text: 'Back to the store',
        }}
      >
        <p role="alert">
          {loaded.state === 'failed' ? loaded.problem.message : 'This confirmation link is not complete.'}
        </p>
      </CheckoutMessage>
    );
  }
  const { settings } = loaded.session;
  if (settled) {
    return (
      <CheckoutMessage
        title={settled === 'paid' ? 'Your order is already placed' : 'This payment is no longer waiting'}
        storeName={settings.storeName}
        brand={settings.checkoutBrand}
        link={
          settled === 'paid' && loaded.session.completed
            ? { href: loaded.session.completed.redirectUrl, text: 'See your order' }
            : { href: `/auth${backToCheckout}`, text: 'Back to checkout' }
        }
      >
        <p role="status">
          {settled === 'paid'
            ? 'This payment is already confirmed and your order is placed. Taking you to it…'
            : 'This confirmation is over. Taking you back to the checkout…'}
        </p>
      </CheckoutMessage>
    );
  }
  const stripeStep = attempt?.nextAction?.kind === 'STRIPE' ? attempt.nextAction : undefined;
  if (stripeStep) {
    return (
      <CheckoutShell
        title="Confirm your payment"
        storeName={settings.storeName}
        brand={settings.checkoutBrand}
      >
        <main className="confirm" id="main">
          <h1>Confirm your payment</h1>
          <div className="payment-outcome" role="status" aria-live="polite">
            {status}
          </div>
          {problem ? (
            <div className="notice notice--error" role="alert">
              <p>{problem.message}</p>
              <a href={`/auth${backToCheckout}`}>Back to checkout</a>
            </div>
          ) : busy ? null : (
            <Suspense fallback={<p role="status">Loading your bank's check…</p>}>
              <StripeAuthentication
                publishableKey={stripeStep.publishableKey}
                clientSecret={stripeStep.clientSecret}
                onDone={(passed) => void answer(passed)}
              />
            </Suspense>
          )}
        </main>
      </CheckoutShell>
    );
  }
  return (
    <CheckoutShell title="Confirm your payment" storeName={settings.storeName} brand={settings.checkoutBrand}>
      <main className="confirm" id="main">
        <p className="confirm__issuer">Card issuer · 3-D Secure (test)</p>
        <h1>Confirm your payment</h1>
        <p>Your bank asks you to confirm this payment.</p>
        <dl className="confirm__facts">
          <div>
            <dt>Store</dt>
            <dd>{settings.storeName}</dd>
          </div>
          <div>
            <dt>Amount</dt>
            <dd data-testid="confirm-amount">
              {attempt
                ? (attempt.amount.formattedAmount ?? `${attempt.amount.amount} ${attempt.currency}`)
                : '…'}
            </dd>
          </div>
        </dl>
        <div className="payment-outcome" role="status" aria-live="polite">
          {status}
        </div>
        {problem ? (
          <div className="notice notice--error" role="alert">
            <p>{problem.message}</p>
            <a href={`/auth${backToCheckout}`}>Back to checkout</a>
          </div>
        ) : null}
        <div className="confirm__actions">
          <button
            className="button button--primary"
            type="button"
            disabled={busy || !attempt}
            onClick={() => void answer(true)}
          >
            Complete authentication
          </button>
          <button
            className="button button--secondary"
            type="button"
            disabled={busy || !attempt}
            onClick={() => void answer(false)}
          >
            Fail authentication
          </button>
        </div>
      </main>
    </CheckoutShell>
  );
}
