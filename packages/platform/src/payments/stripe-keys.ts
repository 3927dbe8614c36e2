/**
 * What Cartwheel writes on every PaymentIntent: the key that made it, so `settle` can find it (and a
 * webhook its attempt). Apart from the provider so that the webhook receiver, loaded by every store, does
 * not load Stripe's client with it.
 */
export const KEY_METADATA = 'cartwheel_key';
