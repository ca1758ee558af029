import { NotFound } from '@feathersjs/errors';
import type { Knex } from 'knex';
import type { OrderLine } from '../../../domain/orders/pricing.ts';
import { estimatedAvailableDay } from '../../../domain/billing/availability.ts';
import { isShippingCountry, type ShippingCountry } from '../../../domain/orders/countries.ts';
import { subscriptionTerm } from '../../../domain/orders/term.ts';
import type { StateMove } from '../../../domain/orders/states.ts';
import type { CardSummaryRecord } from '../../../domain/orders/records.ts';
import { newId } from '../../db/ids.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { IllegalTransition, moveOrder, tryMove } from './transitions.ts';
import { startOfDay } from '../../../domain/billing/calendar.ts';

/** The job that mails the buyer their invoice, and the one that tells staff of a paid order. */
export const INVOICE_MAIL_JOB = 'invoice-mail';
export const ORDER_STAFF_MAIL_JOB = 'order-staff-mail';
export interface InvoiceMailJob {
  invoice: string;
}
export interface OrderStaffMailJob {
  order: string;
  invoice: string;
}

/** A payment's card split into what the member sees and the gateway's references; null without both. */
export function cardOnFile(gateway: string | undefined, card: CardSummaryRecord | null) {
  if (!gateway || !card?.customerId || !card.paymentMethodId) return null;
  return {
    card: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
    method: { gateway, customerId: card.customerId, paymentMethodId: card.paymentMethodId },
  };
}

/** States an order is in once it has been provisioned: provisioning it again does nothing. */
const PROVISIONED = new Set(['provisioning', 'completed', 'refunded']);

export interface ProvisionResult {
  /** False when the order had been provisioned already (nothing was written). */
  provisioned: boolean;
  subscriptionId: string | null;
  invoiceId: string | null;
  invoiceNumber: string | null;
}

/** An invoice number: the seller, then six digits (`HK-000001`). */
export function invoiceNumber(seller: string, sequence: number): string {
  return `${seller}-${String(sequence).padStart(6, '0')}`;
}

interface OrderRow {
  id: string;
  number: string;
  user_id: string;
  status: string;
  seller: string;
  industry_id: string;
  plan_id: string;
  plan_type: string;
  items: OrderLine[];
  currency: string;
  prepaid_months: number;
  period: 'monthly' | 'annual';
  contract_months: number;
  monthly: number;
  subtotal: number;
  tax_rate: number;
  tax: number;
  total: number;
  card: unknown;
  history: StateMove[];
  kind: 'plan' | 'addon' | 'renewal' | 'termination';
  subscription_id: string | null;
  shipping: { country: ShippingCountry };
}

/** When an order was paid: its move to `paid` (the paying transaction's, or the balance's for a renewal it covered). */
function paidAtOf(order: Pick<OrderRow, 'history'>): Date {
  return new Date([...order.history].reverse().find((entry) => entry.to === 'paid')?.at ?? Date.now());
}

/** The next number of a seller's invoices, taken under the lock of its sequence row: gapless, as the transaction commits or not. */
export async function takeInvoiceNumber(trx: Knex.Transaction, seller: string): Promise<string> {
  const row = (await trx('invoice_sequences').where('seller', seller).forUpdate().first('next_number')) as
    { next_number: number } | undefined;
  if (!row) throw new Error(`No invoice sequence for seller ${seller}`);
  await trx('invoice_sequences')
    .where('seller', seller)
    .update({ next_number: row.next_number + 1 });
  return invoiceNumber(seller, row.next_number);
}

/**
 * Turns a paid order into what was bought, in the caller's transaction (the one that recorded the
 * payment): the subscription with its term (decision 018), the invoice with the seller's next
 * number, the order moved to `provisioning`, and the buyer's invoice mail and the staff's notice
 * queued as durable jobs that exist only if the transaction commits. An order provisioned already
 * is left as it is.
 */
export async function provisionPaidOrder(
  app: { jobs: JobQueue },
  trx: Knex.Transaction,
  orderId: string,
  actor: string,
): Promise<ProvisionResult> {
  const order = (await trx('orders').where('id', orderId).forUpdate().first()) as OrderRow | undefined;
  if (!order) throw new NotFound(`No order found for id '${orderId}'`);
  if (order.status !== 'paid') {
    if (!PROVISIONED.has(order.status)) throw new IllegalTransition('order', order.status, 'provisioning');
    const invoice = (await trx('invoices')
      .where({ order_id: orderId, status: 'issued' })
      .first('id', 'number', 'subscription_id')) as
      { id: string; number: string; subscription_id: string | null } | undefined;
    return {
      provisioned: false,
      subscriptionId: invoice?.subscription_id ?? null,
      invoiceId: invoice?.id ?? null,
      invoiceNumber: invoice?.number ?? null,
    };
  }

  const paidAt = paidAtOf(order);
  if (order.kind === 'addon') return provisionAddOns(app, trx, order, paidAt, actor);
  if (order.kind === 'renewal') return provisionRenewal(app, trx, order, actor);
  if (order.kind === 'termination') return provisionTermination(app, trx, order, paidAt, actor);
  const term = subscriptionTerm(paidAt, order.contract_months, order.prepaid_months);
  const template = (await trx('app_templates').where('id', order.plan_id).first('modules')) as
    { modules: { id: string; count?: number }[] } | undefined;
  const included = (template?.modules ?? []).map((item) => ({
    id: item.id,
    count: Math.max(item.count ?? 1, 1),
    monthPrice: 0,
  }));
  const addOns = order.items
    .filter((line) => line.kind === 'addon' && line.module)
    .map((line) => ({
      id: line.module as string,
      count: line.count,
      monthPrice: line.unitPrice,
      billing: line.billing,
    }));

  // The card the plan was paid with is the one renewals charge (decision 031).
  const paidWith = (await trx('payments')
    .where({ order_id: order.id, status: 'succeeded' })
    .orderBy('created_at', 'desc')
    .first('gateway', 'card')) as { gateway: string; card: CardSummaryRecord | null } | undefined;
  const onFile = cardOnFile(paidWith?.gateway, paidWith?.card ?? null);
  const subscriptionId = newId();
  await trx('subscriptions').insert({
    card: onFile ? JSON.stringify(onFile.card) : null,
    payment_method: onFile ? JSON.stringify(onFile.method) : null,
    id: subscriptionId,
    user_id: order.user_id,
    order_id: order.id,
    industry_id: order.industry_id,
    plan_id: order.plan_id,
    plan_type: order.plan_type,
    modules: JSON.stringify([...included, ...addOns]),
    currency: order.currency,
    monthly: order.monthly,
    period: order.period,
    prepaid_months: order.prepaid_months,
    contract_months: order.contract_months,
    contract_start: term.contractStart,
    contract_end: term.contractEnd,
    billing_anchor_day: term.billingAnchorDay,
    next_pay_date: term.nextPayDate,
  });

  return issueInvoice(app, trx, order, subscriptionId, actor, 'subscription and invoice');
}

/**
 * A paid add-on order (decision 026): its modules join the subscription as `pending`, with the day
 * they are expected to be ready, and the monthly charge grows by the monthly ones; then the invoice.
 */
async function provisionAddOns(
  app: { jobs: JobQueue },
  trx: Knex.Transaction,
  order: OrderRow,
  paidAt: Date,
  actor: string,
): Promise<ProvisionResult> {
  const subscription = (await trx('subscriptions')
    .where('id', order.subscription_id)
    .forUpdate()
    .first('id', 'modules', 'monthly')) as { id: string; modules: { id: string }[]; monthly: number } | undefined;
  if (!subscription) throw new NotFound(`No subscription found for order '${order.id}'`);
  const availableOn = estimatedAvailableDay(
    isShippingCountry(order.shipping.country) ? order.shipping.country : 'HK',
    paidAt,
  );
  const has = new Set(subscription.modules.map((module) => module.id));
  const added = order.items
    .filter((line) => line.kind === 'addon' && line.module && !has.has(line.module))
    .map((line) => ({
      id: line.module as string,
      count: line.count,
      monthPrice: line.unitPrice,
      billing: line.billing,
      status: 'pending',
      order: order.id,
      availableOn,
    }));
  const monthlyAdded = added
    .filter((module) => module.billing === 'monthly')
    .reduce((sum, module) => sum + module.monthPrice * module.count, 0);
  await trx('subscriptions')
    .where('id', subscription.id)
    .update({
      modules: JSON.stringify([...subscription.modules, ...added]),
      monthly: subscription.monthly + monthlyAdded,
      updated_at: trx.fn.now(),
    });
  return issueInvoice(app, trx, order, subscription.id, actor, 'add-ons and invoice');
}

/**
 * A paid renewal (decision 031): the subscription's next billing date moves to the end of the
 * period paid for, a failed renewal's retry is cleared, suspended add-ons come back, and the
 * subscription is active again (or still stopping on its day); then the invoice.
 */
async function provisionRenewal(
  app: { jobs: JobQueue },
  trx: Knex.Transaction,
  order: OrderRow,
  actor: string,
): Promise<ProvisionResult> {
  const subscription = (await trx('subscriptions')
    .where('id', order.subscription_id)
    .forUpdate()
    .first('id', 'status', 'modules', 'cancel_at')) as
    { id: string; status: string; modules: { id: string; status?: string }[]; cancel_at: Date | null } | undefined;
  if (!subscription) throw new NotFound(`No subscription found for order '${order.id}'`);
  const paidUntil = order.items.find((line) => line.kind === 'plan')?.to;
  if (!paidUntil) throw new Error(`Renewal order ${order.id} has no period`);
  const modules = subscription.modules.map((module) =>
    module.status === 'suspended' ? { ...module, status: 'active' } : module,
  );
  await trx('subscriptions')
    .where('id', subscription.id)
    .update({
      next_pay_date: startOfDay(paidUntil),
      retry_on: null,
      modules: JSON.stringify(modules),
      updated_at: trx.fn.now(),
    });
  const back = subscription.cancel_at ? 'non_renewing' : 'active';
  if (subscription.status !== back)
    await tryMove(trx, 'subscription', subscription.id, back, { actor, reason: `renewal ${order.number} paid` });
  return issueInvoice(app, trx, order, subscription.id, actor, 'renewal invoice', { staffMail: false });
}

/**
 * A paid termination fee (decision 044): the plan ends at once (`cancelled`, on the day it was
 * paid), its modules with it, nothing more is billed or retried; then the invoice, and staff hear
 * of it as of any order.
 */
async function provisionTermination(
  app: { jobs: JobQueue },
  trx: Knex.Transaction,
  order: OrderRow,
  paidAt: Date,
  actor: string,
): Promise<ProvisionResult> {
  const subscription = (await trx('subscriptions')
    .where('id', order.subscription_id)
    .forUpdate()
    .first('id', 'status', 'modules')) as
    { id: string; status: string; modules: { id: string; status?: string }[] } | undefined;
  if (!subscription) throw new NotFound(`No subscription found for order '${order.id}'`);
  await tryMove(trx, 'subscription', subscription.id, 'cancelled', {
    actor,
    reason: `terminated, fee paid with order ${order.number}`,
  });
  await trx('subscriptions')
    .where('id', subscription.id)
    .update({
      modules: JSON.stringify(subscription.modules.map((module) => ({ ...module, status: 'ended' }))),
      cancel_at: paidAt,
      retry_on: null,
      updated_at: trx.fn.now(),
    });
  return issueInvoice(app, trx, order, subscription.id, actor, 'termination invoice');
}

/** The invoice of a paid order (the seller's next number), the order moved to `provisioning`, and its mails queued. */
async function issueInvoice(
  app: { jobs: JobQueue },
  trx: Knex.Transaction,
  order: OrderRow,
  subscriptionId: string,
  actor: string,
  what: string,
  { staffMail = true }: { staffMail?: boolean } = {},
): Promise<ProvisionResult> {
  const payments = (await trx('payments')
    .where({ order_id: order.id, status: 'succeeded' })
    .orderBy('created_at', 'desc')
    .select('card', 'billing_address', 'amount')) as {
    card: unknown;
    billing_address: unknown;
    amount: number;
  }[];
  const payment = payments[0];
  // A renewal's charge had the balance applied (decision 031): what the card paid differs from the total by it.
  const charged = payments.reduce((sum, { amount }) => sum + Number(amount), 0);
  const card = payment?.card ?? order.card ?? null;
  const invoiceId = newId();
  const number = await takeInvoiceNumber(trx, order.seller);
  await trx('invoices').insert({
    id: invoiceId,
    number,
    seller: order.seller,
    user_id: order.user_id,
    order_id: order.id,
    subscription_id: subscriptionId,
    lines: JSON.stringify(order.items),
    currency: order.currency,
    subtotal: order.subtotal,
    tax_rate: order.tax_rate,
    tax: order.tax,
    total: order.total,
    balance_applied: payments.length > 0 ? Number(order.total) - charged : 0,
    billing_address: payment?.billing_address ? JSON.stringify(payment.billing_address) : null,
    card: card ? JSON.stringify(card) : null,
    issued_at: new Date(),
    // Issued because it was paid (decision 063): the portal and the PDF say so, with the day.
    paid_at: paidAtOf(order),
  });

  await moveOrder(trx, order.id, 'provisioning', { actor, reason: `${what} ${number} issued` });
  await app.jobs.send(INVOICE_MAIL_JOB, { invoice: invoiceId } satisfies InvoiceMailJob, trx);
  // Staff hear of what was bought; a renewal is routine.
  if (staffMail)
    await app.jobs.send(ORDER_STAFF_MAIL_JOB, { order: order.id, invoice: invoiceId } satisfies OrderStaffMailJob, trx);
  // Once committed the mails go now, not at the queue's next poll.
  trx.executionPromise.then(
    () => {
      app.jobs.wake(INVOICE_MAIL_JOB);
      if (staffMail) app.jobs.wake(ORDER_STAFF_MAIL_JOB);
    },
    () => undefined,
  );
  return { provisioned: true, subscriptionId, invoiceId, invoiceNumber: number };
}
