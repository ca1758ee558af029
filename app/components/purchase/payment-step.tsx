import { useCallback, useEffect, useRef, useState } from 'react';
import { SHIPPING_COUNTRIES } from '../../../domain/forms/shipping-fields';
import { formatMoney } from '../../../domain/format';
import type { CurrencyCode } from '../../../domain/money';
import { isPaidOrder } from '../../../domain/orders/paid';
import { newIdempotencyKey } from '../../../domain/purchase/subscription-form';
import type { ClientConfig } from '../../../domain/payment-client';
import { cardBrandName, type CardOnFileView } from '../../../domain/orders/payment-options';
import { useLocale } from '../../i18n/messages';
import { FieldError, inputClass } from '../forms/fields';
import { useFieldErrors } from '../forms/use-field-errors';
import { useFlowCall, type FlowAttempt, type FlowBody, type FlowOrder } from './flow-api';
import { CardEntry, stripeNextAction, type CardEntryHandle } from './card-entry';
import { primaryButton, secondaryButton, StepActions } from './ui';

/** The billing address beside the card fields; the card itself stays in the provider's frame. */
const BILLING_FIELDS = ['name', 'line1', 'line2', 'city', 'postalCode', 'country'] as const;
type BillingField = (typeof BILLING_FIELDS)[number];
export type Billing = Record<BillingField, string>;
const REQUIRED_BILLING: readonly BillingField[] = ['name', 'line1', 'city', 'country'];

/**
 * The gateway's reasons for a failed payment, each with its message `purchase.card.<code>`: the
 * list of domain/orders/payment-request.ts `CARD_FAILURE_CODES`, copied so the page does not load
 * that module's schema library.
 */
const CARD_FAILURE_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'authentication_failed',
  'processing_error',
  'timeout',
] as const;

/** How often a payment waiting for the bank or the provider is asked about, and for how long. */
const POLL_MS = 1500;
const POLL_LIMIT = 40;

type Phase =
  | { kind: 'ordering' }
  | { kind: 'orderFailed'; message: string }
  | { kind: 'ready' }
  | { kind: 'paying' }
  | { kind: 'challenge'; url: string; attempt: string }
  /** Stripe's script shows the bank's check over the page. */
  | { kind: 'action'; clientSecret: string; attempt: string }
  | { kind: 'checking'; attempt: string }
  | { kind: 'paid' };

/** Which words the billing address's hint uses: what was filled in, and from where. */
export type BillingSource = 'delivery' | 'lastOrder' | 'none';

const BILLING_HINTS: Record<BillingSource, string> = {
  delivery: 'subscription.payment.billingHint',
  lastOrder: 'subscription.payment.billingHintLastOrder',
  none: 'subscription.payment.billingHintNone',
};

/** How the order is paid: with the card on file (one press, decision 063), or a card typed into the provider's fields. */
type Method = 'saved' | 'new';

/** The sandbox gateway's challenge page, when the bank's check is over (decision 019). */
type ChallengeMessage = { type: 'sandbox:challenge'; chargeId: string; status: string };

/**
 * Step 8: the order is placed (priced again by the server, under the flow's key), its total shown
 * and, when it differs from what the buyer saw, confirmed first; the card is typed into the
 * provider's own frame, beside our billing address; Pay asks the frame for a token, then the
 * server charges. A declined card says why and takes another card as a new attempt; a 3-D Secure
 * check opens the bank's page in a dialog and the attempt is followed until it settles.
 *
 * With a card on file that can pay now (an add-on order, decision 063) that card is the default:
 * one press asks the server to charge it (the page names no card: the server takes the order's
 * subscription's own), and "Use another card" opens the provider's fields. A saved card that is
 * declined says why and opens the fields, the order kept.
 */
export function PaymentStep({
  order: orderRequest,
  billing: billingDefaults,
  billingSource = 'delivery',
  cardOnFile = null,
  shownTotal,
  payments,
  onOrder,
  onPaid,
  onBack,
}: {
  /** What placing the order sends (the route's `order` intent): the same under the same key is the same order. */
  order: FlowBody;
  /** The billing address's first values (the delivery address, or the last order's billing address). */
  billing: Billing;
  /** Where those values came from, as the hint says it (default: the delivery address). */
  billingSource?: BillingSource;
  /** The card on file of the order's subscription, when there is one. */
  cardOnFile?: CardOnFileView | null;
  /** The total the buyer saw before this step (the summary's). */
  shownTotal: number;
  payments: ClientConfig;
  onOrder: (orderId: string) => void;
  onPaid: (orderId: string) => void;
  onBack: () => void;
}) {
  const { t, locale } = useLocale();
  const [order, setOrder] = useState<FlowOrder | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'ordering' });
  /** The total the buyer agreed to: what they saw, or a changed total they confirmed. */
  const [agreed, setAgreed] = useState(shownTotal);
  const [problem, setProblem] = useState('');
  // The last check of the billing address (a new one each attempt): its errors as message keys.
  const [billingCheck, setBillingCheck] = useState<{ errors: Partial<Record<BillingField, string>> }>();
  const { errorOf } = useFieldErrors(billingCheck, billingCheck?.errors, BILLING_FIELDS, 'bill-');
  /** The card fields can take a card (the provider's frame or Stripe's fields have loaded): Pay waits for them. */
  const [cardsReady, setCardsReady] = useState(false);
  const cardEntry = useRef<CardEntryHandle>(null);
  const billingForm = useRef<HTMLFormElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  /** One key per attempt: a second click sends the same attempt, a new card after a decline a new one. */
  const attemptKey = useRef(newIdempotencyKey());
  const paying = useRef(false);
  const polls = useRef(0);
  const origin = payments.origin ?? '';
  const stripeKey = payments.provider === 'stripe' ? payments.publishableKey : undefined;
  /** The attempts whose 3-D Secure check Stripe's script has already shown. */
  const actionsShown = useRef(new Set<string>());
  const money = (amount: number, currency: string) =>
    formatMoney({ amount, currency: currency as CurrencyCode }, locale);
  const savedReady = cardOnFile?.state === 'ready';
  const [method, setMethod] = useState<Method>(savedReady ? 'saved' : 'new');
  /** How the attempt in flight pays: a saved card that fails opens the card fields. */
  const attemptMethod = useRef<Method>(method);
  const savedText = cardOnFile
    ? { brand: cardBrandName(cardOnFile.brand), last4: cardOnFile.last4 }
    : { brand: '', last4: '' };
  const billingComplete = REQUIRED_BILLING.every((field) => billingDefaults[field].trim() !== '');
  /** With the card on file the billing address shows as text until the buyer asks to change it. */
  const [billingOpen, setBillingOpen] = useState(!billingComplete);
  /** After a saved card failed: the fields are offered, with the reason. */
  const savedFailed = (reason: string) => {
    setMethod('new');
    setProblem(t('subscription.payment.savedCardFailed', { ...savedText, reason }));
  };

  const placeOrder = useFlowCall((answer) => {
    if (answer.intent !== 'order') return;
    if (!answer.ok) {
      setPhase({ kind: 'orderFailed', message: answer.message });
      return;
    }
    setOrder(answer.order);
    onOrder(answer.order._id);
    if (isPaidOrder(answer.order.status)) {
      setPhase({ kind: 'paid' });
      onPaid(answer.order._id);
      return;
    }
    setPhase({ kind: 'ready' });
  });

  const settle = useCallback(
    (attempt: FlowAttempt) => {
      if (!order) return;
      if (attempt.status === 'succeeded') {
        paying.current = false;
        setPhase({ kind: 'paid' });
        onPaid(order._id);
      } else if (
        attempt.status === 'requires_action' &&
        attempt.clientSecret &&
        stripeKey &&
        !actionsShown.current.has(attempt._id)
      ) {
        actionsShown.current.add(attempt._id);
        setPhase({ kind: 'action', clientSecret: attempt.clientSecret, attempt: attempt._id });
      } else if (attempt.status === 'requires_action' && attempt.actionUrl) {
        const url = new URL(attempt.actionUrl);
        url.searchParams.set('parent', window.location.origin);
        url.searchParams.set('locale', locale);
        setPhase({ kind: 'challenge', url: url.href, attempt: attempt._id });
      } else if (attempt.status === 'failed' || attempt.status === 'cancelled') {
        paying.current = false;
        attemptKey.current = newIdempotencyKey();
        const code = attempt.failureCode ?? '';
        const reason = t(
          `purchase.card.${(CARD_FAILURE_CODES as readonly string[]).includes(code) ? code : 'card_declined'}`,
        );
        if (attemptMethod.current === 'saved') savedFailed(reason);
        else setProblem(reason);
        setPhase({ kind: 'ready' });
      } else {
        // Still with the bank or the provider: ask again shortly.
        setPhase({ kind: 'checking', attempt: attempt._id });
      }
    },
    // `savedFailed` reads only the card on file, which a visit to this step never changes.
    [order, onPaid, locale, t, stripeKey],
  );

  const status = useFlowCall((answer) => {
    if (answer.ok && (answer.intent === 'payment' || answer.intent === 'pay')) settle(answer.attempt);
  });

  const pay = useFlowCall((answer) => {
    if (answer.intent !== 'pay') return;
    if (answer.ok) {
      settle(answer.attempt);
      return;
    }
    paying.current = false;
    if (answer.status === 409 && typeof answer.data.total === 'number' && order) {
      // The price changed on the server: show it, charge nothing, and wait for the buyer's word.
      setOrder({ ...order, total: answer.data.total });
      setProblem('');
      setPhase({ kind: 'ready' });
      return;
    }
    if (answer.status === 503) {
      // The provider did not answer: the attempt is settled later; follow it, and never charge again meanwhile.
      setProblem(t('subscription.payment.checking'));
      if (typeof answer.data.payment === 'string') {
        paying.current = true;
        polls.current = 0;
        setPhase({ kind: 'checking', attempt: answer.data.payment });
      } else setPhase({ kind: 'ready' });
      return;
    }
    attemptKey.current = newIdempotencyKey();
    // The card on file could not be used (none the gateway holds now): the card fields instead.
    if (attemptMethod.current === 'saved' && answer.data.cardOnFile === 'unavailable') {
      setMethod('new');
      setProblem(answer.message);
    } else setProblem(answer.message);
    setPhase({ kind: 'ready' });
  });

  // The order is placed once per visit to this step: the flow's key makes a repeat the same order.
  const placed = useRef(false);
  useEffect(() => {
    if (placed.current) return;
    placed.current = true;
    void placeOrder.call('order', orderRequest);
  }, [placeOrder, orderRequest]);

  // A payment waiting for the bank (or an unanswered provider) is asked about until it settles.
  useEffect(() => {
    if (phase.kind !== 'checking') return;
    if (polls.current >= POLL_LIMIT) {
      paying.current = false;
      setProblem(t('subscription.payment.stillChecking'));
      setPhase({ kind: 'ready' });
      return;
    }
    const timer = setTimeout(() => {
      polls.current += 1;
      void status.call('payment', { id: phase.attempt });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [phase, status, t]);

  useEffect(() => {
    if (phase.kind === 'challenge') {
      if (!dialog.current?.open) dialog.current?.showModal();
    } else if (dialog.current?.open) dialog.current.close();
  }, [phase.kind]);

  /**
   * Asks the server to charge the card the provider tokenised, or the card on file, for the total
   * the buyer agreed to.
   */
  const charge = (card: { paymentMethodId: string } | { cardOnFile: true }) => {
    if (!order) return;
    const billing = readBilling();
    void pay.call('pay', {
      order: order._id,
      ...card,
      billingAddress: { ...billing, line2: billing.line2 || undefined, postalCode: billing.postalCode || undefined },
      idempotencyKey: attemptKey.current,
      expectedTotal: order.total,
    });
  };

  const readBilling = (): Billing => {
    const answers = new FormData(billingForm.current ?? undefined);
    return Object.fromEntries(
      BILLING_FIELDS.map((field) => [field, String(answers.get(field) ?? '').trim()]),
    ) as Billing;
  };

  // The sandbox's challenge page says the bank's check is over; nothing else speaks to this page.
  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (event.origin !== origin || typeof event.data !== 'object' || event.data === null) return;
      const message = event.data as ChallengeMessage;
      if (message.type === 'sandbox:challenge' && phase.kind === 'challenge') {
        polls.current = 0;
        setPhase({ kind: 'checking', attempt: phase.attempt });
      }
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  });

  // Stripe shows the bank's check itself; whatever its end, the attempt is then asked about until it settles.
  useEffect(() => {
    if (phase.kind !== 'action') return;
    let current = true;
    // The card on file has no fields mounted: Stripe's script is loaded for the bank's check alone.
    void (
      cardEntry.current?.handleAction(phase.clientSecret) ??
      (stripeKey
        ? stripeNextAction(stripeKey, phase.clientSecret, t('subscription.payment.unavailable'))
        : Promise.resolve({ ok: false as const, message: t('subscription.payment.unavailable') }))
    ).then((result) => {
      if (!current) return;
      if (!result.ok) setProblem(result.message);
      polls.current = 0;
      setPhase({ kind: 'checking', attempt: phase.attempt });
    });
    return () => {
      current = false;
    };
  }, [phase, t, stripeKey]);

  const changed = order !== null && order.total !== agreed;

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!order || paying.current || changed || (method === 'new' && !cardsReady)) return;
    const billing = readBilling();
    const errors = Object.fromEntries(
      REQUIRED_BILLING.filter((field) => !billing[field]).map((field) => [field, 'validation.required']),
    );
    setBillingCheck({ errors });
    if (Object.keys(errors).length) {
      setBillingOpen(true);
      setProblem(t('registration.incomplete'));
      return;
    }
    paying.current = true;
    polls.current = 0;
    setProblem('');
    setPhase({ kind: 'paying' });
    attemptMethod.current = method;
    if (method === 'saved') {
      // One press: the server charges the card it keeps on file for this order's plan.
      charge({ cardOnFile: true });
      return;
    }
    void (
      cardEntry.current?.tokenize(billing) ??
      Promise.resolve({ ok: false as const, message: t('subscription.payment.unavailable') })
    ).then((result) => {
      if (result.ok) {
        charge({ paymentMethodId: result.paymentMethodId });
        return;
      }
      paying.current = false;
      setProblem(result.message);
      setPhase({ kind: 'ready' });
    });
  };

  if (phase.kind === 'ordering' || (phase.kind !== 'orderFailed' && !order)) {
    return (
      <p className="mt-6 min-h-64 text-muted" aria-busy="true" data-testid="payment-ordering">
        {t('subscription.payment.ordering')}
      </p>
    );
  }
  if (phase.kind === 'orderFailed' || !order) {
    return (
      <div className="mt-6 space-y-4" data-testid="payment-order-failed">
        <p role="alert" className="font-medium text-red-700 dark:text-red-300">
          {phase.kind === 'orderFailed' ? phase.message : ''}
        </p>
        <StepActions onBack={onBack} />
      </div>
    );
  }

  const busy =
    phase.kind === 'paying' ||
    phase.kind === 'checking' ||
    phase.kind === 'challenge' ||
    phase.kind === 'action' ||
    phase.kind === 'paid';
  const billingInput = (field: BillingField, autoComplete: string, required = REQUIRED_BILLING.includes(field)) => (
    <div>
      <label htmlFor={`bill-${field}`} className="block font-medium">
        {t(`subscription.payment.billing.${field}`)}
        {required ? (
          <span aria-hidden="true"> *</span>
        ) : (
          <span className="font-normal text-muted"> ({t('forms.optional')})</span>
        )}
      </label>
      {field === 'country' ? (
        <select
          id="bill-country"
          name="country"
          defaultValue={billingDefaults.country}
          autoComplete="billing country"
          className={inputClass}
          aria-invalid={errorOf('country') ? true : undefined}
          aria-describedby={errorOf('country') ? 'bill-country-error' : undefined}
        >
          <option value="">{t('subscription.shipping.choose')}</option>
          {SHIPPING_COUNTRIES.map((code) => (
            <option key={code} value={code}>
              {t(`subscription.countries.${code}`)}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={`bill-${field}`}
          name={field}
          defaultValue={billingDefaults[field]}
          autoComplete={`billing ${autoComplete}`}
          className={inputClass}
          aria-invalid={errorOf(field) ? true : undefined}
          aria-describedby={errorOf(field) ? `bill-${field}-error` : undefined}
        />
      )}
      <FieldError id={`bill-${field}-error`} text={errorOf(field)} />
    </div>
  );

  return (
    <form
      ref={billingForm}
      noValidate
      onSubmit={submit}
      className="mt-6 space-y-6"
      data-testid="payment-form"
      data-order={order.number}
    >
      <section
        className="rounded-2xl border border-brand-500 bg-raised p-4 sm:p-5"
        aria-labelledby="pay-total-heading"
        data-testid="payment-total"
      >
        <h2 id="pay-total-heading" className="font-semibold">
          {t('subscription.payment.orderNumber', { number: order.number })}
        </h2>
        <div className="mt-2 flex items-baseline justify-between gap-4">
          <p>{t('subscription.summary.dueNow')}</p>
          <p className="text-2xl text-figure" data-testid="payment-due">
            {money(order.total, order.currency)}
          </p>
        </div>
        {order.tax ? (
          <p className="mt-1 flex justify-between gap-4 text-sm text-muted">
            <span>{t('subscription.summary.gstIncluded', { rate: order.taxRate / 100 })}</span>
            <span data-testid="payment-gst">{money(order.tax, order.currency)}</span>
          </p>
        ) : null}
      </section>

      {changed ? (
        <div
          role="alert"
          className="rounded-2xl border border-amber-500 bg-amber-50 p-4 text-amber-950 dark:bg-amber-950 dark:text-amber-50"
          data-testid="price-changed"
        >
          <p className="font-semibold">
            {t('subscription.payment.priceChanged', {
              before: money(agreed, order.currency),
              after: money(order.total, order.currency),
            })}
          </p>
          <p className="mt-1 text-sm">{t('subscription.payment.priceChangedHint')}</p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button
              type="button"
              onClick={() => setAgreed(order.total)}
              className={primaryButton}
              data-testid="price-accept"
            >
              {t('subscription.payment.acceptPrice', { total: money(order.total, order.currency) })}
            </button>
            <button type="button" onClick={onBack} className={secondaryButton}>
              {t('subscription.payment.reviewOrder')}
            </button>
          </div>
        </div>
      ) : null}

      <section className="space-y-3 rounded-2xl border border-line p-4 sm:p-6" aria-labelledby="card-heading">
        <h2 id="card-heading" className="text-xl font-semibold">
          {t('subscription.payment.card')}
        </h2>
        {cardOnFile && savedReady ? (
          <fieldset className="space-y-2" data-testid="card-choice" disabled={busy}>
            <legend className="sr-only">{t('subscription.payment.card')}</legend>
            {(['saved', 'new'] as const).map((choice) => (
              <label
                key={choice}
                className={`flex cursor-pointer items-start gap-3 rounded-xl border p-3 ${
                  method === choice ? 'border-brand-600 bg-tint dark:border-brand-400' : 'border-line'
                }`}
              >
                <input
                  type="radio"
                  name="payWith"
                  value={choice}
                  checked={method === choice}
                  onChange={() => {
                    setMethod(choice);
                    setProblem('');
                  }}
                  className="mt-1 h-4 w-4 accent-brand-600"
                  data-testid={choice === 'saved' ? 'pay-saved-card' : 'pay-new-card'}
                />
                {choice === 'saved' ? (
                  <span>
                    <span className="block font-semibold" data-testid="saved-card">
                      {t('subscription.payment.savedCard', savedText)}
                    </span>
                    <span className="block text-sm text-muted">
                      {t('subscription.payment.savedCardExpires', {
                        month: String(cardOnFile.expMonth).padStart(2, '0'),
                        year: cardOnFile.expYear,
                      })}
                    </span>
                  </span>
                ) : (
                  <span className="font-semibold">{t('subscription.payment.useAnotherCard')}</span>
                )}
              </label>
            ))}
          </fieldset>
        ) : cardOnFile ? (
          <p className="rounded-xl border border-line bg-sunken p-3 text-sm" data-testid="saved-card-notice">
            {cardOnFile.state === 'expired'
              ? t('subscription.payment.savedCardExpired', {
                  ...savedText,
                  month: String(cardOnFile.expMonth).padStart(2, '0'),
                  year: cardOnFile.expYear,
                })
              : t('subscription.payment.savedCardUnavailable', savedText)}
          </p>
        ) : null}
        {method === 'new' ? (
          <>
            <p className="text-sm text-muted">{t('subscription.payment.cardHint')}</p>
            {savedReady ? <p className="text-sm text-muted">{t('subscription.payment.anotherCardHint')}</p> : null}
            <CardEntry
              ref={cardEntry}
              payments={payments}
              title={t('subscription.payment.cardFrame')}
              unavailable={t('subscription.payment.unavailable')}
              onReady={setCardsReady}
            />
          </>
        ) : null}
      </section>

      <section className="space-y-5 rounded-2xl border border-line p-4 sm:p-6" aria-labelledby="billing-heading">
        <h2 id="billing-heading" className="text-xl font-semibold">
          {t('subscription.payment.billingAddress')}
        </h2>
        {method === 'saved' && !billingOpen ? (
          <div className="space-y-3" data-testid="billing-summary">
            <p className="text-sm text-muted">{t('subscription.payment.billingSaved')}</p>
            <address className="not-italic" data-testid="billing-address">
              {[
                billingDefaults.name,
                billingDefaults.line1,
                billingDefaults.line2,
                [billingDefaults.city, billingDefaults.postalCode].filter(Boolean).join(' '),
                billingDefaults.country ? t(`subscription.countries.${billingDefaults.country}`) : '',
              ]
                .filter(Boolean)
                .map((line, index) => (
                  <span key={index} className="block">
                    {line}
                  </span>
                ))}
            </address>
            <button
              type="button"
              className={secondaryButton}
              onClick={() => setBillingOpen(true)}
              disabled={busy}
              data-testid="billing-edit"
            >
              {t('subscription.payment.billingEdit')}
            </button>
          </div>
        ) : (
          <p className="text-sm text-muted">{t(BILLING_HINTS[billingSource])}</p>
        )}
        {/* Kept in the form while shown as text: the payment reads the address from here either way. */}
        <div className="grid gap-5 sm:grid-cols-2" hidden={method === 'saved' && !billingOpen}>
          {billingInput('name', 'name')}
          {billingInput('line1', 'address-line1')}
          {billingInput('line2', 'address-line2')}
          {billingInput('city', 'address-level2')}
          {billingInput('postalCode', 'postal-code')}
          {billingInput('country', 'country')}
        </div>
      </section>

      <div aria-live="polite">
        {problem ? (
          <p
            role="alert"
            className="rounded-2xl border border-red-600 p-4 font-medium text-red-700 dark:text-red-300"
            data-testid="payment-problem"
          >
            {problem}
          </p>
        ) : null}
        {phase.kind === 'checking' ? (
          <p className="text-muted" data-testid="payment-checking">
            {t('subscription.payment.waiting')}
          </p>
        ) : null}
      </div>

      <StepActions onBack={busy ? undefined : onBack}>
        <button
          type="submit"
          disabled={busy || changed || (method === 'new' && !cardsReady)}
          className={primaryButton}
          data-testid="pay"
        >
          {busy
            ? t('subscription.payment.paying')
            : method === 'saved'
              ? t('subscription.payment.payWithSaved', { total: money(order.total, order.currency), ...savedText })
              : t('subscription.payment.pay', { total: money(order.total, order.currency) })}
        </button>
      </StepActions>
      <p className="text-xs text-muted">{t('subscription.payment.secure')}</p>

      <dialog
        ref={dialog}
        aria-labelledby="challenge-heading"
        onCancel={(event) => event.preventDefault()}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl border border-line bg-raised p-0 text-ink backdrop:bg-black/50"
        data-testid="challenge-dialog"
      >
        <h2 id="challenge-heading" className="border-b border-line px-5 py-3 font-semibold">
          {t('subscription.payment.challenge')}
        </h2>
        {phase.kind === 'challenge' ? (
          <iframe
            title={t('subscription.payment.challenge')}
            src={phase.url}
            className="h-96 w-full border-0 bg-white"
            data-testid="challenge-frame"
          />
        ) : null}
      </dialog>
    </form>
  );
}
