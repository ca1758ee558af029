import { describe, expect, it } from 'vitest';
import { mountStripeCardFields, type CardFieldsState, type StripeLike } from './stripe-card-fields';

/**
 * Stripe's card fields against a stubbed Stripe.js (offline, as the issue asks): what is created
 * and mounted where, the state reported as the buyer types, and the PaymentMethod and 3-D Secure
 * calls with their answers.
 */

type Handler = (event: { complete?: boolean; error?: { message: string } }) => void;

class StubElement {
  readonly handlers = new Map<string, Handler>();
  mountedOn: unknown = null;
  destroyed = false;
  readonly type: string;
  readonly options: Record<string, unknown>;
  constructor(type: string, options: Record<string, unknown>) {
    this.type = type;
    this.options = options;
  }
  on(event: string, handler: Handler) {
    this.handlers.set(event, handler);
    return this;
  }
  mount(target: unknown) {
    this.mountedOn = target;
  }
  destroy() {
    this.destroyed = true;
  }
  emit(event: string, payload: Parameters<Handler>[0] = {}) {
    this.handlers.get(event)?.(payload);
  }
}

function stubStripe(answers: { paymentMethod?: unknown; action?: unknown } = {}) {
  const created: StubElement[] = [];
  const calls: { elements: unknown[]; createPaymentMethod: unknown[]; handleNextAction: unknown[] } = {
    elements: [],
    createPaymentMethod: [],
    handleNextAction: [],
  };
  const stripe = {
    elements(options: unknown) {
      calls.elements.push(options);
      return {
        create(type: string, options: Record<string, unknown>) {
          const element = new StubElement(type, options);
          created.push(element);
          return element;
        },
      };
    },
    async createPaymentMethod(data: unknown) {
      calls.createPaymentMethod.push(data);
      return answers.paymentMethod ?? { paymentMethod: { id: 'pm_card_visa' } };
    },
    async handleNextAction(options: unknown) {
      calls.handleNextAction.push(options);
      return answers.action ?? { paymentIntent: { status: 'succeeded' } };
    },
  };
  // The stub answers only what the card fields call; Stripe.js's full types describe far more.
  return { stripe: stripe as unknown as StripeLike, created, calls };
}

const containers = {
  number: { id: 'number-box' },
  expiry: { id: 'expiry-box' },
  cvc: { id: 'cvc-box' },
} as unknown as Record<'number' | 'expiry' | 'cvc', HTMLElement>;
const BILLING = {
  name: 'Chan Tai Man',
  line1: '1 Queen’s Road Central',
  line2: '',
  city: 'Hong Kong',
  postalCode: '',
  country: 'HK',
};

describe('Stripe card fields', () => {
  it('mounts separate number, expiry and CVC fields in the buyer’s language', () => {
    const { stripe, created, calls } = stubStripe();
    mountStripeCardFields(stripe, containers, { locale: 'zh-hk', fallback: 'declined', onChange: () => undefined });
    expect(calls.elements).toEqual([{ locale: 'zh-HK' }]);
    expect(created.map((element) => [element.type, (element.mountedOn as { id: string }).id])).toEqual([
      ['cardNumber', 'number-box'],
      ['cardExpiry', 'expiry-box'],
      ['cardCvc', 'cvc-box'],
    ]);
    const simplified = stubStripe();
    mountStripeCardFields(simplified.stripe, containers, {
      locale: 'zh-cn',
      fallback: 'declined',
      onChange: () => undefined,
    });
    expect(simplified.calls.elements).toEqual([{ locale: 'zh' }]);
  });

  it('is ready when all three have loaded, complete when all three are, and says what is wrong where', () => {
    const { stripe, created } = stubStripe();
    const states: CardFieldsState[] = [];
    mountStripeCardFields(stripe, containers, {
      locale: 'en',
      fallback: 'declined',
      onChange: (state) => states.push(state),
    });
    const [number, expiry, cvc] = created as [StubElement, StubElement, StubElement];
    number.emit('ready');
    expiry.emit('ready');
    expect(states.at(-1)?.ready).toBe(false);
    cvc.emit('ready');
    expect(states.at(-1)?.ready).toBe(true);

    number.emit('change', { complete: false, error: { message: 'Your card number is invalid.' } });
    expect(states.at(-1)).toEqual({ ready: true, complete: false, errors: { number: 'Your card number is invalid.' } });
    number.emit('change', { complete: true });
    expiry.emit('change', { complete: true });
    expect(states.at(-1)).toEqual({ ready: true, complete: false, errors: {} });
    cvc.emit('change', { complete: true });
    expect(states.at(-1)?.complete).toBe(true);
    // A field emptied again is no longer complete.
    expiry.emit('change', { complete: false });
    expect(states.at(-1)?.complete).toBe(false);
  });

  it('turns the card into a PaymentMethod with our billing address, and passes on Stripe’s refusal', async () => {
    const ok = stubStripe();
    const fields = mountStripeCardFields(ok.stripe, containers, {
      locale: 'en',
      fallback: 'Your card was declined.',
      onChange: () => undefined,
    });
    expect(await fields.tokenize(BILLING)).toEqual({ ok: true, paymentMethodId: 'pm_card_visa' });
    expect(ok.calls.createPaymentMethod).toEqual([
      {
        type: 'card',
        card: ok.created[0],
        billing_details: {
          name: 'Chan Tai Man',
          address: {
            line1: '1 Queen’s Road Central',
            line2: undefined,
            city: 'Hong Kong',
            postal_code: undefined,
            country: 'HK',
          },
        },
      },
    ]);

    const refused = stubStripe({
      paymentMethod: { error: { type: 'validation_error', message: 'Your card’s expiration year is in the past.' } },
    });
    const again = mountStripeCardFields(refused.stripe, containers, {
      locale: 'en',
      fallback: 'Your card was declined.',
      onChange: () => undefined,
    });
    expect(await again.tokenize(BILLING)).toEqual({
      ok: false,
      message: 'Your card’s expiration year is in the past.',
    });
    const silent = stubStripe({ paymentMethod: { error: { type: 'api_error' } } });
    expect(
      await mountStripeCardFields(silent.stripe, containers, {
        locale: 'en',
        fallback: 'Your card was declined.',
        onChange: () => undefined,
      }).tokenize(BILLING),
    ).toEqual({
      ok: false,
      message: 'Your card was declined.',
    });
  });

  it('shows the bank’s check through Stripe and tells how it ended; destroys its fields when done', async () => {
    const passed = stubStripe();
    const fields = mountStripeCardFields(passed.stripe, containers, {
      locale: 'en',
      fallback: 'declined',
      onChange: () => undefined,
    });
    expect(await fields.handleAction('pi_123_secret_456')).toEqual({ ok: true });
    expect(passed.calls.handleNextAction).toEqual([{ clientSecret: 'pi_123_secret_456' }]);
    fields.destroy();
    expect(passed.created.every((element) => element.destroyed)).toBe(true);

    const failed = stubStripe({
      action: { error: { type: 'card_error', message: 'We are unable to authenticate your payment method.' } },
    });
    expect(
      await mountStripeCardFields(failed.stripe, containers, {
        locale: 'en',
        fallback: 'declined',
        onChange: () => undefined,
      }).handleAction('pi_1_secret_2'),
    ).toEqual({
      ok: false,
      message: 'We are unable to authenticate your payment method.',
    });
  });
});
