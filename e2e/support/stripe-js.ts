import type { BrowserContext } from 'playwright-core';

/**
 * Stripe.js as the page loads it from `https://js.stripe.com`, stood in for: Chromium here has no
 * network, and Stripe is a service outside Cartwheel. It answers what `@stripe/stripe-js` and
 * `@stripe/react-stripe-js` call (`Stripe(key)`, `elements`, `create('payment')`, `mount`, `on`,
 * `submit`, `createPaymentMethod`), draws the Payment Element as plain inputs in the page (the real one
 * is an iframe of Stripe's), and sends the typed card straight to the Stripe stand-in's
 * `POST /v1/payment_methods` with the publishable key, as the real script sends it to Stripe: the
 * platform never sees the number, only the `pm_...` it gets back.
 */
function stripeJs(apiUrl: string): string {
  return `(() => {
  const API = ${JSON.stringify(apiUrl)};
  function Stripe(key) {
    let payment;
    const elements = {
      create(type) {
        const handlers = {};
        const root = document.createElement('div');
        root.className = 'stripe-stand-in-payment-element';
        root.innerHTML =
          '<label>Card number <input name="stripe-card-number" autocomplete="cc-number"></label>' +
          '<label>Expiration <input name="stripe-card-expiry" autocomplete="cc-exp"></label>' +
          '<label>Security code <input name="stripe-card-cvc" autocomplete="cc-csc"></label>';
        const emit = (event, payload) => (handlers[event] || []).forEach((handler) => handler(payload));
        payment = {
          mount(node) {
            (typeof node === 'string' ? document.querySelector(node) : node).appendChild(root);
            setTimeout(() => emit('ready', { elementType: type }), 0);
          },
          on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return payment; },
          off(event, handler) { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); return payment; },
          update() {}, focus() {}, blur() {}, clear() {}, collapse() {},
          unmount() { root.remove(); },
          destroy() { root.remove(); },
          value(name) { return root.querySelector('[name="stripe-card-' + name + '"]').value; },
        };
        return payment;
      },
      getElement() { return payment || null; },
      update() {},
      async submit() {
        if (!payment || !payment.value('number').trim()) {
          return { error: { type: 'validation_error', message: 'Your card number is incomplete.' } };
        }
        return {};
      },
    };
    return {
      _registerWrapper() {},
      registerAppInfo() {},
      elements() { return elements; },
      async createPaymentMethod({ elements: from }) {
        const card = from.getElement('payment');
        const body = new URLSearchParams({ type: 'card', key, 'card[number]': card.value('number') });
        const response = await fetch(API + '/v1/payment_methods', { method: 'POST', body });
        const answer = await response.json();
        return response.ok ? { paymentMethod: answer } : { error: answer.error };
      },
      // Stripe's 3-D Secure frame, as its test mode shows it: the shopper completes or fails the check
      handleNextAction({ clientSecret }) {
        const intent = clientSecret.split('_secret_')[0];
        return new Promise((resolve) => {
          const frame = document.createElement('div');
          frame.setAttribute('role', 'dialog');
          frame.setAttribute('aria-label', '3D Secure test payment');
          frame.innerHTML =
            '<button type="button" data-approve="true">Complete</button>' +
            '<button type="button" data-approve="false">Fail</button>';
          frame.addEventListener('click', async (event) => {
            const approve = event.target.getAttribute('data-approve');
            if (approve === null) return;
            frame.remove();
            const body = new URLSearchParams({ key, approve });
            const response = await fetch(API + '/v1/payment_intents/' + intent + '/stand_in_authenticate', { method: 'POST', body });
            const answer = await response.json();
            resolve(approve === 'true' ? { paymentIntent: answer } : { error: { type: 'card_error', code: 'payment_intent_authentication_failure', message: 'We are unable to authenticate your payment method.' } });
          });
          document.body.appendChild(frame);
        });
      },
      async createToken() { return { error: { message: 'not used' } }; },
      async confirmCardPayment() { return { error: { message: 'not used' } }; },
    };
  }
  Stripe.version = 3;
  window.Stripe = Stripe;
})();`;
}

/** Serves the stand-in Stripe.js to every page of `context`, calling the Stripe stand-in at `apiUrl`. */
export async function serveStripeJs(context: BrowserContext, apiUrl: string): Promise<void> {
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: stripeJs(apiUrl) }),
  );
}
