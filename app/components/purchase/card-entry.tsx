import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { ClientConfig } from '../../../domain/payment-client';
import { useLocale } from '../../i18n/messages';
import { StripeCardInputs } from './stripe-card-inputs';
import type { BillingDetails, StripeCardFields, TokenResult } from './stripe-card-fields';

/**
 * Where a card is typed (decision 019), wherever the site takes one (the purchase's payment step,
 * the portal's card page): Stripe's own fields when the site takes payments through Stripe, the
 * sandbox gateway's frame otherwise. Either way the page never reads the card: it asks for a token
 * (`tokenize`) and gets a payment method id, or the provider's reason in the buyer's language.
 */

/** What a page asks of the card fields. */
export interface CardEntryHandle {
  /** The provider's token for the card typed, with the billing address beside it. */
  tokenize(billing: BillingDetails): Promise<TokenResult>;
  /** Stripe shows the bank's check (3-D Secure) over the page; the sandbox shows its own page instead. */
  handleAction(clientSecret: string): Promise<{ ok: true } | { ok: false; message: string }>;
}

/** Frame messages of the sandbox gateway about the card (decision 019). */
type FrameMessage =
  | { type: 'sandbox:ready'; height?: number }
  | { type: 'sandbox:change'; complete: boolean }
  | { type: 'sandbox:tokenized'; requestId: string; paymentMethodId: string }
  | { type: 'sandbox:error'; requestId: string; message: string };

export function CardEntry({
  payments,
  title,
  unavailable,
  onReady,
  ref,
}: {
  payments: ClientConfig;
  /** The frame's accessible name. */
  title: string;
  /** Said when no card can be taken (no provider configured, or its script did not load). */
  unavailable: string;
  /** The fields can take a card: the frame or Stripe's fields have loaded. */
  onReady: (ready: boolean) => void;
  ref: Ref<CardEntryHandle>;
}) {
  const { locale } = useLocale();
  const origin = payments.origin ?? '';
  const stripeKey = payments.provider === 'stripe' ? payments.publishableKey : undefined;
  const frame = useRef<HTMLIFrameElement>(null);
  const stripeFields = useRef<StripeCardFields | null>(null);
  /** The token asked of the frame and not answered yet: one at a time, by its request id. */
  const pending = useRef<{ requestId: string; resolve: (result: TokenResult) => void } | null>(null);
  const [frameReady, setFrameReady] = useState(false);
  const [frameHeight, setFrameHeight] = useState(230);
  /** The frame's fields hold a whole card (it says so as it is typed). */
  const [complete, setComplete] = useState(false);
  /** The frame is made in the browser, which knows its own origin. */
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const readyCallback = useRef(onReady);
  readyCallback.current = onReady;
  useEffect(() => {
    if (!stripeKey) readyCallback.current(frameReady);
  }, [stripeKey, frameReady]);

  useImperativeHandle(
    ref,
    () => ({
      tokenize(billing) {
        if (stripeKey)
          return stripeFields.current
            ? stripeFields.current.tokenize(billing)
            : Promise.resolve({ ok: false, message: unavailable });
        const target = frame.current?.contentWindow;
        if (!target || !origin) return Promise.resolve({ ok: false, message: unavailable });
        const requestId = crypto.randomUUID();
        pending.current?.resolve({ ok: false, message: unavailable });
        return new Promise<TokenResult>((resolve) => {
          pending.current = { requestId, resolve };
          target.postMessage({ type: 'sandbox:tokenize', requestId }, origin);
        });
      },
      handleAction(clientSecret) {
        return stripeFields.current
          ? stripeFields.current.handleAction(clientSecret)
          : Promise.resolve({ ok: false, message: unavailable });
      },
    }),
    [stripeKey, origin, unavailable],
  );

  // The provider's frame and nothing else speaks to the card fields.
  useEffect(() => {
    if (stripeKey) return;
    const listen = (event: MessageEvent) => {
      if (event.origin !== origin || typeof event.data !== 'object' || event.data === null) return;
      const message = event.data as FrameMessage;
      if (message.type === 'sandbox:ready') {
        if (typeof message.height === 'number') setFrameHeight(Math.max(160, Math.ceil(message.height) + 4));
        setFrameReady(true);
      } else if (message.type === 'sandbox:change') {
        setComplete(message.complete);
      } else if (
        (message.type === 'sandbox:tokenized' || message.type === 'sandbox:error') &&
        message.requestId === pending.current?.requestId
      ) {
        const { resolve } = pending.current;
        pending.current = null;
        resolve(
          message.type === 'sandbox:tokenized'
            ? { ok: true, paymentMethodId: message.paymentMethodId }
            : { ok: false, message: message.message },
        );
      }
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [stripeKey, origin]);

  if (stripeKey) {
    return (
      <StripeCardInputs
        publishableKey={stripeKey}
        onFields={(fields) => {
          stripeFields.current = fields;
        }}
        onReady={onReady}
      />
    );
  }
  if (!origin) return <p role="alert">{unavailable}</p>;
  if (!mounted)
    return <div className="rounded-xl border border-line bg-white" style={{ height: frameHeight }} aria-busy="true" />;
  return (
    // The provider's page is light: it sits on a light card of its own, in dark mode too.
    <div className="rounded-xl border border-line bg-white p-3 sm:p-4">
      <iframe
        ref={frame}
        title={title}
        src={`${origin}/frame?${new URLSearchParams({ parent: window.location.origin, locale })}`}
        className="block w-full border-0 bg-white"
        style={{ height: frameHeight }}
        data-ready={frameReady}
        data-complete={complete}
        data-testid="card-frame"
      />
    </div>
  );
}

/**
 * Stripe's check by the bank (3-D Secure) for a charge on a card on file (decision 063): no card
 * fields are mounted then, so Stripe.js is loaded for this alone, from Stripe, as the fields load it.
 */
export async function stripeNextAction(
  publishableKey: string,
  clientSecret: string,
  unavailable: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const { loadStripe } = await import('@stripe/stripe-js/pure');
    const stripe = await loadStripe(publishableKey);
    if (!stripe) return { ok: false, message: unavailable };
    const result = await stripe.handleNextAction({ clientSecret });
    return result.error ? { ok: false, message: result.error.message || unavailable } : { ok: true };
  } catch {
    return { ok: false, message: unavailable };
  }
}
