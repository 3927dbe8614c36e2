import type { FieldViolation } from '@cartwheel/sdk';
import { invalidArgument, violation } from '../shared/errors.ts';

/** A card as the shopper typed it on the checkout page. */
export interface CardInput {
  number: string;
  /** `MM/YY` (or `MM/YYYY`). */
  expiry: string;
  cvc: string;
  holderName?: string | undefined;
}

/** A card that passed the checks: the number only travels to the gateway, never to storage. */
export interface CheckedCard {
  number: string;
  last4: string;
  brand: CardBrand;
  expiryMonth: number;
  expiryYear: number;
}

export type CardBrand = 'VISA' | 'MASTERCARD' | 'AMEX' | 'DISCOVER' | 'UNKNOWN';

/**
 * Checks a card's number (digits and the Luhn check digit), expiry (this month or later) and CVC (3 or
 * 4 digits); refuses with field violations on `card.number`, `card.expiry`, `card.cvc`, all at once.
 */
export function checkCard(card: CardInput, now = new Date()): CheckedCard {
  const problems: FieldViolation[] = [];
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number)) {
    problems.push(violation('card.number', 'must be 12 to 19 digits', 'FORMAT'));
  } else if (!luhnValid(number)) {
    problems.push(violation('card.number', 'is not a valid card number', 'VALIDATION'));
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
  let expiryMonth = 0;
  let expiryYear = 0;
  if (!expiry) {
    problems.push(violation('card.expiry', 'must be MM/YY', 'FORMAT'));
  } else {
    expiryMonth = Number(expiry[1]);
    expiryYear = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (expiryMonth < 1 || expiryMonth > 12) {
      problems.push(violation('card.expiry', 'must be MM/YY with a month from 01 to 12', 'FORMAT'));
    } else if (expiryYear * 12 + (expiryMonth - 1) < thisMonth) {
      problems.push(violation('card.expiry', 'the card has expired', 'VALIDATION'));
    }
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) {
    problems.push(violation('card.cvc', 'must be 3 or 4 digits', 'FORMAT'));
  }
  if (problems.length > 0) throw invalidArgument(problems);
  return { number, last4: number.slice(-4), brand: brandOf(number), expiryMonth, expiryYear };
}

/** The Luhn check every card number carries in its last digit. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(number: string): CardBrand {
  if (number.startsWith('4')) return 'VISA';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'MASTERCARD';
  if (/^3[47]/.test(number)) return 'AMEX';
  if (/^(6011|65|64[4-9])/.test(number)) return 'DISCOVER';
  return 'UNKNOWN';
}
