import type { BillingAddressRecord } from './records.ts';

/*
 * How a member can pay for an order of their subscription (decision 063): the card on file, when
 * it can be charged now, and the billing address of their last order, which the payment step
 * fills in. What `paymentOptions.get(subscription)` answers, and the rule the page and the
 * service share.
 */

/**
 * `ready`: the gateway in use holds it and it has not expired: one press pays with it.
 * `expired`: its expiry month has ended. `unavailable`: no gateway in use holds it (a demo plan's
 * card, or one kept by another provider), so it cannot be charged from here.
 */
export const CARD_ON_FILE_STATES = ['ready', 'expired', 'unavailable'] as const;
export type CardOnFileState = (typeof CARD_ON_FILE_STATES)[number];

export interface CardOnFileView {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  state: CardOnFileState;
}

export interface PaymentOptions {
  subscription: string;
  /** The subscription's card on file, as the member sees it, or null when it has none. */
  card: CardOnFileView | null;
  /** The billing address of the member's newest paid order that had one (null: none yet). */
  billingAddress: BillingAddressRecord | null;
}

/** Whether a card's expiry month ended before `today` (an ISO day). */
export function cardExpired(card: { expMonth: number; expYear: number }, today: string): boolean {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return card.expYear < year || (card.expYear === year && card.expMonth < month);
}

/** The state of a card on file for the gateway in use, on `today`. */
export function cardOnFileState(
  card: { expMonth: number; expYear: number },
  heldBy: string | null,
  gateway: string,
  today: string,
): CardOnFileState {
  if (heldBy !== gateway) return 'unavailable';
  return cardExpired(card, today) ? 'expired' : 'ready';
}

const BRAND_NAMES: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  unionpay: 'UnionPay',
  jcb: 'JCB',
};

/** A card's brand as people write it ("Visa"), from the gateway's key ("visa"). */
export function cardBrandName(brand: string): string {
  return BRAND_NAMES[brand.toLowerCase()] ?? (brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : brand);
}
