import type {
  Stripe,
  StripeCardCvcElement,
  StripeCardExpiryElement,
  StripeCardNumberElement,
  StripeElementLocale,
  StripeElementStyle,
} from '@stripe/stripe-js';
import type { Locale } from '../../../domain/locales';

/**
 * Stripe's card fields (decision 019): the card number, expiry and CVC each in an iframe of
 * Stripe's, mounted into our form beside our own billing-address fields. Nothing typed in them is
 * readable by our page: Stripe answers a PaymentMethod id, which the server charges.
 */

/** What of Stripe.js the card fields use. */
export type StripeLike = Pick<Stripe, 'elements' | 'createPaymentMethod' | 'handleNextAction'>;

export const CARD_FIELDS = ['number', 'expiry', 'cvc'] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** Stripe's names of our languages (its own messages, such as "Your card number is incomplete."). */
export const STRIPE_LOCALES: Record<Locale, StripeElementLocale> = { en: 'en', 'zh-hk': 'zh-HK', 'zh-cn': 'zh' };

export interface CardFieldsState {
  /** Every field has loaded. */
  ready: boolean;
  /** Every field holds a complete, valid answer. */
  complete: boolean;
  /** Stripe's message for each field that is wrong as typed. */
  errors: Partial<Record<CardField, string>>;
}

/** The billing address beside the card fields, as the buyer typed it. */
export interface BillingDetails {
  name: string;
  line1: string;
  line2: string;
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
}

export type TokenResult = { ok: true; paymentMethodId: string } | { ok: false; message: string };

export interface StripeCardFields {
  /** Turns what was typed into a PaymentMethod id, with the billing address attached. */
  tokenize(billing: BillingDetails): Promise<TokenResult>;
  /** Shows the bank's 3-D Secure check over the page (Stripe's own dialog); resolves when it ends. */
  handleAction(clientSecret: string): Promise<{ ok: true } | { ok: false; message: string }>;
  destroy(): void;
}

/** The fields' look: our body text, on the light card they sit on in both themes. */
const STYLE: StripeElementStyle = {
  base: {
    color: '#0f172a',
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK TC", "Noto Sans CJK SC", sans-serif',
    fontSize: '16px',
    lineHeight: '24px',
    '::placeholder': { color: '#64748b' },
  },
  invalid: { color: '#b91c1c', iconColor: '#b91c1c' },
};

/**
 * Mounts the three fields into their containers and reports their state as the buyer types.
 * `fallback` is said when Stripe gives no message of its own.
 */
export function mountStripeCardFields(
  stripe: StripeLike,
  containers: Record<CardField, HTMLElement>,
  options: { locale: Locale; fallback: string; onChange: (state: CardFieldsState) => void },
): StripeCardFields {
  const elements = stripe.elements({ locale: STRIPE_LOCALES[options.locale] });
  const number: StripeCardNumberElement = elements.create('cardNumber', { style: STYLE, showIcon: true });
  const expiry: StripeCardExpiryElement = elements.create('cardExpiry', { style: STYLE });
  const cvc: StripeCardCvcElement = elements.create('cardCvc', { style: STYLE });

  const ready = new Set<CardField>();
  const complete = new Set<CardField>();
  const errors: Partial<Record<CardField, string>> = {};
  const report = () =>
    options.onChange({
      ready: ready.size === CARD_FIELDS.length,
      complete: complete.size === CARD_FIELDS.length,
      errors: { ...errors },
    });

  const watch = (
    field: CardField,
    element: StripeCardNumberElement | StripeCardExpiryElement | StripeCardCvcElement,
  ) => {
    // Each element type has its own overloads of `on`; the events used here are common to all three.
    (element as StripeCardNumberElement).on('ready', () => {
      ready.add(field);
      report();
    });
    (element as StripeCardNumberElement).on('change', (event) => {
      if (event.complete) complete.add(field);
      else complete.delete(field);
      if (event.error?.message) errors[field] = event.error.message;
      else delete errors[field];
      report();
    });
    element.mount(containers[field]);
  };
  watch('number', number);
  watch('expiry', expiry);
  watch('cvc', cvc);

  return {
    async tokenize(billing) {
      const result = await stripe.createPaymentMethod({
        type: 'card',
        card: number,
        billing_details: {
          name: billing.name,
          address: {
            line1: billing.line1,
            line2: billing.line2 || undefined,
            city: billing.city,
            postal_code: billing.postalCode || undefined,
            country: billing.country,
          },
        },
      });
      if (result.error) return { ok: false, message: result.error.message || options.fallback };
      return { ok: true, paymentMethodId: result.paymentMethod.id };
    },
    async handleAction(clientSecret) {
      const result = await stripe.handleNextAction({ clientSecret });
      return result.error ? { ok: false, message: result.error.message || options.fallback } : { ok: true };
    },
    destroy() {
      number.destroy();
      expiry.destroy();
      cvc.destroy();
    },
  };
}
