import { createHmac } from 'node:crypto';
import type { FailureCode } from '../gateway.ts';

/** What a charge on a test card does. */
export type CardScenario =
  | 'success'
  | 'declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'processing_error'
  | 'challenge'
  | 'challenge_always'
  | 'attach_then_decline';

/** Stripe's test numbers, so a tester uses the same cards on the sandbox and on Stripe's test mode. */
export const TEST_CARDS: Readonly<Record<string, CardScenario>> = {
  '4242424242424242': 'success',
  '5555555555554444': 'success',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired_card',
  '4000000000000119': 'processing_error',
  // Asks for 3-D Secure on the buyer's session; off-session charges once it is saved go through.
  '4000002500003155': 'challenge',
  // Asks for 3-D Secure on every charge, off-session ones too (which then fail).
  '4000000000003220': 'challenge_always',
  // Saved to a customer without a charge (the portal's card page), then declined when charged:
  // a card on file the bank has stopped honouring.
  '4000000000000341': 'attach_then_decline',
};

/** The failure each declining test card answers, with Stripe's wording. */
export const SCENARIO_FAILURES: Partial<Record<CardScenario, { code: FailureCode; message: string }>> = {
  declined: { code: 'card_declined', message: 'Your card was declined.' },
  attach_then_decline: { code: 'card_declined', message: 'Your card was declined.' },
  insufficient_funds: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  expired_card: { code: 'expired_card', message: 'Your card has expired.' },
  processing_error: {
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(62|81)/.test(digits)) return 'unionpay';
  if (/^35/.test(digits)) return 'jcb';
  return 'unknown';
}

/** A keyed hash: the numbers of cards are few enough that a plain hash could be reversed by trying them all. */
export function cardFingerprint(digits: string, key: string): string {
  return createHmac('sha256', key).update(`card:${digits}`).digest('base64url').slice(0, 32);
}

export type CardInputProblem = 'number' | 'unknownNumber' | 'expiry' | 'expired' | 'cvc';

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/**
 * Checks what the card frame sent. Only Stripe's test numbers are accepted: the sandbox takes no
 * real card, and a real number typed by mistake is refused rather than kept in any form.
 */
export function checkCard(
  input: CardInput,
  now = new Date(),
): { problems: CardInputProblem[]; scenario?: CardScenario; digits: string } {
  const digits = input.number.replace(/[\s-]/g, '');
  const problems: CardInputProblem[] = [];
  const scenario = TEST_CARDS[digits];
  if (!luhnValid(digits)) problems.push('number');
  else if (!scenario) problems.push('unknownNumber');
  const year = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  if (
    !Number.isInteger(input.expMonth) ||
    input.expMonth < 1 ||
    input.expMonth > 12 ||
    !Number.isInteger(year) ||
    year > now.getUTCFullYear() + 50
  ) {
    problems.push('expiry');
  } else if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && input.expMonth < now.getUTCMonth() + 1)) {
    problems.push('expired');
  }
  if (!/^\d{3,4}$/.test(input.cvc)) problems.push('cvc');
  return { problems, scenario, digits };
}
