import { randomBytes } from 'node:crypto';
import type { Caller } from '../../domain/entities/services.ts';
import type { ShippingCountry } from '../../domain/orders/countries.ts';
import type { PaymentRequest } from '../../domain/orders/payment-request.ts';
import type { OrderRequest } from '../../domain/orders/request.ts';
import type { PaymentSandbox } from '../../server/payments/sandbox/sandbox.ts';
import { deliveryDates } from '../../server/purchase/delivery-dates.ts';
import type { RunningServer } from '../../server/server.ts';
import { asRest, createAccount, startTestServer, typedService } from './harness.ts';

/** What the tests of payments share (payments.test.ts, payments-faults.test.ts): Stripe's test cards, a running server, buyers, orders and card tokens. */

export const CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  challenge: '4000002500003155',
} as const;

const key = () => randomBytes(12).toString('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` answers something truthy (or fails after `ms`). */
export async function eventually<T>(check: () => Promise<T>, ms = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(50);
  }
}

export function shipping(country: ShippingCountry = 'HK') {
  const date = deliveryDates(country)[0] as string;
  return country === 'SG'
    ? {
        contactPerson: 'Ann Tan',
        contactNumber: '+65 8123 4567',
        street: '1 Orchard Road',
        city: 'Singapore',
        zipcode: '238801',
        country,
        shippingDate: date,
      }
    : {
        contactPerson: 'Mei Chan',
        contactNumber: '9123 4567',
        room: 'Flat 5A',
        street: '12 Nathan Road',
        district: 'Tsim Sha Tsui',
        city: 'Hong Kong',
        country,
        shippingDate: date,
      };
}

export const billingAddress = { name: 'Mei Chan', line1: '12 Nathan Road', city: 'Hong Kong', country: 'HK' };

/** What the tests of payments share: a running server, buyers, orders and card tokens. */
export function paymentFixture() {
  const state = {} as { server: RunningServer; sandbox: PaymentSandbox; plan: string; addOn: string };
  let ip = 0;
  const fixture = {
    state,
    knex: () => state.server.database.knex,
    as: (caller: Caller) => ({ ...asRest(caller), ip: `10.9.0.${(++ip % 250) + 1}` }),
    payments: () => typedService(state.server.api, 'payments'),
    /** Starts the server (unless the test started its own in `state.server`) and finds the catalogue. */
    async start() {
      state.server ??= await startTestServer();
      const sandbox = state.server.paymentSandbox?.sandbox;
      if (!sandbox) throw new Error('no sandbox gateway');
      state.sandbox = sandbox;
      const templates = (await state.server.api.service('appTemplates').find({ paginate: false })) as {
        _id: string;
        key: string;
        modules: { id: string }[];
      }[];
      const lite = templates.find((template) => template.key === 'restaurant-lite');
      if (!lite) throw new Error('no restaurant-lite');
      state.plan = lite._id;
      const modules = (await state.server.api.service('modules').find({ paginate: false })) as {
        _id: string;
        released: boolean;
        billing: string;
        counter: boolean;
      }[];
      const included = new Set(lite.modules.map((item) => item.id));
      state.addOn = (
        modules.find(
          (module) => module.released && !included.has(module._id) && module.billing === 'monthly' && !module.counter,
        ) as { _id: string }
      )._id;
    },
    async buyer(label = 'buyer'): Promise<Caller & { email: string }> {
      const account = await createAccount(fixture.knex(), { label });
      return { _id: account._id, role: 'member', email: account.email };
    },
    async order(buyer: Caller, over: Partial<OrderRequest> = {}) {
      return typedService(state.server.api, 'orders').create(
        {
          plan: state.plan,
          addOns: [{ id: state.addOn }],
          prepaidMonths: 24,
          shipping: shipping(),
          idempotencyKey: key(),
          ...over,
        },
        fixture.as(buyer),
      );
    },
    async token(number: string): Promise<string> {
      return (await state.sandbox.tokenize({ number, expMonth: 12, expYear: 2034, cvc: '123' })).paymentMethodId;
    },
    async request(
      order: { _id: string; total: number },
      number: string,
      over: Partial<PaymentRequest> = {},
    ): Promise<PaymentRequest> {
      return {
        order: order._id,
        paymentMethodId: await fixture.token(number),
        billingAddress,
        idempotencyKey: key(),
        expectedTotal: order.total,
        ...over,
      };
    },
    async pay(
      buyer: Caller,
      order: { _id: string; total: number },
      number: string,
      over: Partial<PaymentRequest> = {},
    ) {
      return fixture.payments().create(await fixture.request(order, number, over), fixture.as(buyer));
    },
    /** The sandbox's charges for an order (the gateway's side). */
    charges: (orderId: string) =>
      fixture
        .knex()('payment_sandbox_charges')
        .whereRaw(`metadata->>'orderId' = ?`, [orderId])
        .select('id', 'status', 'amount'),
    orderRow: (orderId: string) =>
      fixture.knex()('orders').where('id', orderId).first() as Promise<{
        status: string;
        card: unknown;
        history: { from: string; to: string; actor: string }[];
      }>,
    attempts: (orderId: string) =>
      fixture.knex()('payments').where('order_id', orderId).orderBy('created_at').select() as Promise<
        { id: string; status: string; gateway_charge_id: string | null }[]
      >,
  };
  return fixture;
}
