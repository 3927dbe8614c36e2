import { ApplicationError, ValidationError } from '@cartwheel/sdk';

/** What a shopper reads when the platform refuses a change to the cart (adding, a quantity, a coupon). */
export function cartChangeProblem(error: unknown): string {
  if (error instanceof ApplicationError) {
    const limit = Number(error.data?.maxQuantity ?? error.data?.maxLineItems);
    const count = Number.isFinite(limit) && limit > 0 ? limit.toLocaleString('en-US') : undefined;
    switch (error.code) {
      case 'LINE_QUANTITY_LIMIT_EXCEEDED':
        return count
          ? `Your cart can hold at most ${count} of one item. Lower the quantity and try again.`
          : 'That is more of one item than a cart can hold. Lower the quantity and try again.';
      case 'CART_LINES_LIMIT_EXCEEDED':
        return count
          ? `Your cart can hold at most ${count} different items. Remove some to add more.`
          : 'Your cart is full. Remove some items to add more.';
    }
    if (error.description) return sentence(error.description);
  }
  if (error instanceof ValidationError) return 'Please enter a quantity of 1 or more.';
  return 'We could not update your cart. Please try again in a moment.';
}

/** The platform's lower-case description ("a line of the cart holds…") as a sentence. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return 'Something went wrong. Please try again.';
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
