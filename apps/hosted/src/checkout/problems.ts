import { ApplicationError, type Checkout, HttpError, ValidationError } from '@cartwheel/sdk';
import { UnreachableError } from './api.ts';
import { type FieldErrors, fieldErrorsOf } from './form.ts';

/** A refused payment or update, as the shopper reads it, and what the page does about it. */
export interface CheckoutProblem {
  message: string;
  /** Messages to show under their fields. */
  fields?: FieldErrors;
  /** The lines that ran out, named, with the way back to the cart. */
  outOfStock?: string[];
  /** The card was refused: another card may be tried on the checkout page. */
  declined?: boolean;
}

/** What the page says for each decline code the test gateway and the platform use. */
export const DECLINE_MESSAGES: Record<string, string> = {
  CARD_DECLINED: 'Your card was declined. Try another card.',
  INSUFFICIENT_FUNDS: 'Your card has insufficient funds. Try another card.',
  AUTHENTICATION_FAILED: 'Your bank could not confirm this payment. Try again or use another card.',
};

const SESSION_CODES = new Set(['CHECKOUT_SESSION_EXPIRED', 'INVALID_CHECKOUT_SESSION', 'SESSION_NOT_FOUND']);

/** The checkout was paid and became an order (in another tab, or by an earlier try): nothing may change. */
export function isAlreadyCompleted(error: unknown): boolean {
  return error instanceof ApplicationError && error.code === 'CHECKOUT_ALREADY_COMPLETED';
}

export function checkoutProblemOf(error: unknown, checkout?: Checkout): CheckoutProblem {
  if (error instanceof ValidationError) {
    const { errors, unplaced } = fieldErrorsOf(error.fieldViolations);
    const first = unplaced[0];
    return {
      message: first
        ? `Please check the form: ${first.field} ${first.description}.`
        : 'Please check the highlighted fields.',
      ...(Object.keys(errors).length > 0 ? { fields: errors } : {}),
    };
  }
  if (error instanceof ApplicationError) {
    const decline = DECLINE_MESSAGES[error.code];
    if (decline) return { message: decline, declined: true };
    if (error.code === 'OUT_OF_STOCK') return outOfStock(error, checkout);
    if (error.status === 401 || error.status === 404 || SESSION_CODES.has(error.code)) {
      return { message: 'This checkout link has expired. Go back to your cart to check out again.' };
    }
    return { message: sentence(error.description || error.message) };
  }
  if (error instanceof UnreachableError) {
    return { message: 'The store could not be reached. Check your connection and try again.' };
  }
  if (error instanceof HttpError) {
    return { message: `The store could not do that (${error.status}). Please try again in a moment.` };
  }
  return { message: 'Something went wrong. Please try again.' };
}

function outOfStock(error: ApplicationError, checkout: Checkout | undefined): CheckoutProblem {
  const ids = Array.isArray(error.data?.lineItemIds) ? (error.data.lineItemIds as unknown[]).map(String) : [];
  const names = ids
    .map((id) => checkout?.lineItems?.find((line) => line.id === id)?.productName?.original)
    .filter((name): name is string => Boolean(name));
  return {
    message:
      names.length > 0
        ? `Sorry, not enough left in stock: ${names.join(', ')}. Change your cart and check out again.`
        : 'Sorry, some items in your order are no longer in stock. Change your cart and check out again.',
    outOfStock: names,
  };
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return 'Something went wrong. Please try again.';
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
