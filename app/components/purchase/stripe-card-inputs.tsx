import { useEffect, useRef, useState } from 'react';
import { useLocale } from '../../i18n/messages';
import {
  CARD_FIELDS,
  mountStripeCardFields,
  type CardField,
  type CardFieldsState,
  type StripeCardFields,
} from './stripe-card-fields';

/**
 * Stripe's three card fields, each under our label, on a light card as the sandbox's frame is.
 * Stripe.js is loaded from Stripe (as its terms require) only here, on the payment step of a site
 * that takes payments through Stripe; if it cannot load, the buyer is told card payment is
 * unavailable and nothing else breaks.
 */
export function StripeCardInputs({
  publishableKey,
  onFields,
  onReady,
}: {
  publishableKey: string;
  onFields: (fields: StripeCardFields | null) => void;
  onReady: (ready: boolean) => void;
}) {
  const { t, locale } = useLocale();
  const number = useRef<HTMLDivElement>(null);
  const expiry = useRef<HTMLDivElement>(null);
  const cvc = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<CardFieldsState>({ ready: false, complete: false, errors: {} });
  const [failed, setFailed] = useState(false);
  // The parent's callbacks change with its renders; the fields are mounted once per key and language.
  const callbacks = useRef({ onFields, onReady });
  callbacks.current = { onFields, onReady };
  const fallback = t('purchase.card.card_declined');

  useEffect(() => {
    let fields: StripeCardFields | null = null;
    let current = true;
    void (async () => {
      try {
        const { loadStripe } = await import('@stripe/stripe-js/pure');
        const stripe = await loadStripe(publishableKey);
        if (!current) return;
        if (!stripe || !number.current || !expiry.current || !cvc.current) throw new Error('Stripe.js did not load');
        fields = mountStripeCardFields(
          stripe,
          { number: number.current, expiry: expiry.current, cvc: cvc.current },
          {
            locale,
            fallback,
            onChange: (next) => {
              setState(next);
              callbacks.current.onReady(next.ready);
            },
          },
        );
        callbacks.current.onFields(fields);
      } catch {
        if (current) setFailed(true);
      }
    })();
    return () => {
      current = false;
      fields?.destroy();
      callbacks.current.onFields(null);
      callbacks.current.onReady(false);
    };
  }, [publishableKey, locale, fallback]);

  if (failed)
    return (
      <p role="alert" data-testid="card-unavailable">
        {t('subscription.payment.unavailable')}
      </p>
    );

  const containers: Record<CardField, React.RefObject<HTMLDivElement | null>> = { number, expiry, cvc };
  const field = (name: CardField) => (
    <>
      {/* Stripe's field is an iframe with its own accessible name; the label names it for sighted buyers. */}
      <p id={`stripe-${name}-label`} className="mb-1 block text-sm font-medium text-slate-900">
        {t(`subscription.payment.cardFields.${name}`)}
      </p>
      <div
        ref={containers[name]}
        role="group"
        aria-labelledby={`stripe-${name}-label`}
        aria-describedby={state.errors[name] ? `stripe-${name}-error` : undefined}
        className={`rounded-lg border bg-white px-3 py-2.5 ${state.errors[name] ? 'border-red-700' : 'border-slate-400'}`}
        data-testid={`stripe-${name}`}
      />
      {/* The card is light in both themes: the message keeps its light-theme colour. */}
      {state.errors[name] ? (
        <p
          id={`stripe-${name}-error`}
          className="mt-1 text-sm font-medium text-red-700"
          data-testid={`error-stripe-${name}`}
        >
          {state.errors[name]}
        </p>
      ) : null}
    </>
  );

  return (
    <div
      className="grid gap-4 rounded-xl border border-line bg-white p-3 sm:grid-cols-2 sm:p-4"
      data-testid="stripe-card-fields"
      data-ready={state.ready}
      aria-busy={!state.ready}
    >
      {CARD_FIELDS.map((name) => (
        <div key={name} className={name === 'number' ? 'sm:col-span-2' : undefined}>
          {field(name)}
        </div>
      ))}
    </div>
  );
}
