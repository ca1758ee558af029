import type { Knex } from 'knex';
import { dayOf } from '../../../domain/billing/calendar.ts';
import { cardExpired } from '../../../domain/orders/payment-options.ts';
import type { CardSummary } from '../../payments/gateway.ts';
import type { PaymentSandbox } from '../../payments/sandbox/sandbox.ts';
import { DEMO_PURCHASES } from './demo-subscriptions.ts';

/** The test card number behind each card a demo plan shows (brand and last four: Stripe's test cards). */
const TEST_NUMBERS: Readonly<Record<string, string>> = { 'visa 4242': '4242424242424242' };

interface PlanRow {
  id: string;
  user_id: string;
  email: string;
  name: string | null;
  card: CardSummary | null;
  payment_method: unknown;
}

/** A member's plan (their first), with what the sandbox needs to know of them. */
async function planOf(knex: Knex, email: string): Promise<PlanRow | undefined> {
  return (await knex('subscriptions as s')
    .join('users as u', 'u.id', 's.user_id')
    .where('u.email', email)
    .orderBy('s.created_at')
    .first('s.id', 's.user_id', 'u.email', 'u.name', 's.card', 's.payment_method')) as PlanRow | undefined;
}

/**
 * Puts a card on file for a member's plan at the payment sandbox, as a purchase by card leaves it
 * (decision 063): the member's customer there (made once, kept in `payment_customers` as the
 * payments service keeps it), the card tokenised and attached to that customer, and the plan
 * pointing at it. A plan that has a card at a gateway already is left as it is; answers whether
 * this one was put on file.
 */
export async function holdCardOnFile(
  knex: Knex,
  sandbox: PaymentSandbox,
  email: string,
  card: { number: string; expMonth: number; expYear: number },
): Promise<boolean> {
  const plan = await planOf(knex, email);
  if (!plan || plan.payment_method) return false;
  const known = (await knex('payment_customers')
    .where({ user_id: plan.user_id, gateway: 'sandbox' })
    .first('customer_id')) as { customer_id: string } | undefined;
  let customerId = known?.customer_id;
  if (!customerId) {
    const made = await sandbox.createCustomer({
      userId: plan.user_id,
      email: plan.email,
      ...(plan.name ? { name: plan.name } : {}),
    });
    await knex('payment_customers')
      .insert({ user_id: plan.user_id, gateway: 'sandbox', customer_id: made.customerId })
      .onConflict(['user_id', 'gateway'])
      .ignore();
    customerId = (
      (await knex('payment_customers').where({ user_id: plan.user_id, gateway: 'sandbox' }).first('customer_id')) as {
        customer_id: string;
      }
    ).customer_id;
  }
  const { paymentMethodId } = await sandbox.tokenize({ ...card, cvc: '123' });
  const summary = await sandbox.attachPaymentMethod({ customerId, paymentMethodId });
  const updated = await knex('subscriptions')
    .where('id', plan.id)
    .whereNull('payment_method')
    .update({
      card: JSON.stringify(summary),
      payment_method: JSON.stringify({ gateway: 'sandbox', customerId, paymentMethodId }),
    });
  return updated > 0;
}

/**
 * The demo plans' cards (server/db/seed/demo-subscriptions.ts) put on file at the payment sandbox
 * while it is the gateway (decision 065), so a demo member adds a function and pays in one press.
 * Each keeps the brand, last four and expiry it shows. Run at every start, it changes nothing the
 * second time; a card whose expiry has passed, or one no test card stands for, is left as the seed
 * wrote it. Answers how many were put on file (of the seed's demo members, unless others are named).
 */
export async function holdDemoCards(
  knex: Knex,
  sandbox: PaymentSandbox,
  now = new Date(),
  members: readonly { email: string }[] = DEMO_PURCHASES,
): Promise<number> {
  let held = 0;
  for (const { email } of members) {
    const plan = await planOf(knex, email);
    if (!plan?.card || plan.payment_method) continue;
    const { brand, last4, expMonth, expYear } = plan.card;
    const number = TEST_NUMBERS[`${brand} ${last4}`];
    if (!number || cardExpired({ expMonth, expYear }, dayOf(now))) continue;
    if (await holdCardOnFile(knex, sandbox, email, { number, expMonth, expYear })) held += 1;
  }
  return held;
}
