import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { addDays, dayOf, type IsoDay, startOfDay } from '../../../domain/billing/calendar.ts';
import {
  type Balance,
  balanceOf,
  type LedgerEntry,
  ledgerOf,
  nextChargeAmount,
} from '../../../domain/billing/ledger.ts';
import { attemptDay, RENEWAL_ATTEMPTS, renewalCharge } from '../../../domain/billing/lifecycle.ts';
import type { BillingPeriodKind, BillingTerms } from '../../../domain/billing/schedule.ts';
import { PERIOD_MONTHS } from '../../../domain/billing/schedule.ts';
import type { I18nText } from '../../../domain/locales.ts';
import type { OrderLine } from '../../../domain/orders/pricing.ts';
import type { StateMove } from '../../../domain/orders/states.ts';
import type { Billing } from '../../../domain/pricing.ts';
import { taxFor } from '../../../domain/tax.ts';
import type { Seller } from '../../../domain/orders/countries.ts';
import { newId } from '../../db/ids.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { PaymentGateway } from '../../payments/gateway.ts';
import { insertNumberedOrder } from '../orders/numbered.ts';
import { provisionPaidOrder } from '../orders/provision.ts';
import { moveOrder, movePayment, tryMove } from '../orders/transitions.ts';
import { chargeOffSession } from '../payments/off-session.ts';
import { digest, OPEN_PAYMENT_STATES, type SettleDependencies } from '../payments/settle.ts';

/*
 * Renewals (decision 031): on each billing date the period's charge is made off-session on the
 * subscription's card on file, as an order of its own (`renewal`) paid like any other, so it has
 * its invoice and mail. A failed charge is tried again 1, 3, 5 and 7 days after the billing date,
 * the member mailed at each failure; when the last one fails the add-ons are suspended (`unpaid`)
 * until the member pays, for example by replacing the card, which tries again at once. A plan the
 * member stopped ends on its day instead of renewing.
 */

/** The job that mails the member about a renewal that failed, or the add-ons it suspended. */
export const RENEWAL_MAIL_JOB = 'renewal-mail';
export interface RenewalMailJob {
  subscription: string;
  order: string;
  kind: 'failed' | 'suspended';
  /** The day the charge is tried again (`failed`). */
  retryOn?: IsoDay;
}

export type RenewalOutcome = 'notDue' | 'renewed' | 'pending' | 'failed' | 'waiting' | 'unpaid' | 'cancelled' | 'none';

/** A subscription as its table holds it: what renewals and terminations read under its lock. */
export interface SubscriptionRow {
  id: string;
  user_id: string;
  order_id: string;
  plan_id: string;
  industry_id: string;
  plan_type: string;
  status: string;
  modules: { id: string; count: number; monthPrice: number; billing?: Billing | null; status?: string | null }[];
  currency: string;
  monthly: number;
  period: BillingPeriodKind;
  prepaid_months: number;
  contract_months: number;
  contract_start: Date;
  billing_anchor_day: number;
  next_pay_date: Date;
  cancel_at: Date | null;
  retry_on: Date | null;
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  payment_method: { gateway: string; customerId: string; paymentMethodId: string } | null;
}

/** A subscription row's billing terms, for the period and term rules of domain/billing. */
export function termsOf(row: SubscriptionRow): BillingTerms {
  return {
    start: dayOf(row.contract_start),
    anchorDay: row.billing_anchor_day,
    prepaidMonths: row.prepaid_months,
    contractMonths: row.contract_months,
    period: row.period,
  };
}

/** The key of a billing date's renewal order: one order per subscription and billing date. */
export const renewalKey = (subscriptionId: string, due: IsoDay) => `renewal:${subscriptionId}:${due}`;

export interface RenewalsDependencies extends SettleDependencies {
  gateway: () => PaymentGateway;
}

export class Renewals {
  private readonly deps: RenewalsDependencies;

  constructor(deps: RenewalsDependencies) {
    this.deps = deps;
  }

  private get knex(): Knex {
    return this.deps.knex;
  }

  private get logger(): Logger {
    return this.deps.logger;
  }

  private get jobs(): JobQueue {
    return this.deps.jobs;
  }

  /** Every subscription with something due by `now`: a billing date, a retry, or its end. */
  async runDue(now: Date): Promise<Record<RenewalOutcome, number>> {
    const counts: Record<RenewalOutcome, number> = {
      notDue: 0,
      renewed: 0,
      pending: 0,
      failed: 0,
      waiting: 0,
      unpaid: 0,
      cancelled: 0,
      none: 0,
    };
    const end = startOfDay(addDays(dayOf(now), 1));
    const due = (await this.knex('subscriptions')
      .whereIn('status', ['active', 'past_due', 'non_renewing'])
      .andWhere((where) => where.where('next_pay_date', '<', end).orWhere('cancel_at', '<', end))
      .orderBy('next_pay_date')
      .limit(500)
      .pluck('id')) as string[];
    for (const id of due) {
      try {
        counts[await this.renew(id, now)] += 1;
      } catch (error) {
        this.logger.error({ err: error, subscription: id }, 'a renewal could not be made');
      }
    }
    return counts;
  }

  /**
   * Brings one subscription up to date on `now`: ends it on its day, or makes the charge due
   * (the billing date's, or the retry's). `now` (`force`) tries an unpaid or past-due charge at
   * once, as when the member has just put in another card.
   */
  async renew(subscriptionId: string, now: Date, { force = false }: { force?: boolean } = {}): Promise<RenewalOutcome> {
    const today = dayOf(now);
    const row = (await this.knex('subscriptions').where('id', subscriptionId).first()) as SubscriptionRow | undefined;
    if (!row || row.status === 'cancelled' || row.status === 'incomplete') return 'none';
    const due = dayOf(row.next_pay_date);
    if (row.cancel_at && dayOf(row.cancel_at) <= today && dayOf(row.cancel_at) <= due) {
      const ended = await tryMove(this.knex, 'subscription', row.id, 'cancelled', {
        actor: 'system',
        reason: `stopped on ${dayOf(row.cancel_at)} as asked`,
      });
      return ended ? 'cancelled' : 'none';
    }
    if (due > today) return 'notDue';
    if (row.status === 'unpaid' && !force) return 'unpaid';

    const orderId = await this.renewalOrder(row, due, now);
    const order = (await this.knex('orders').where('id', orderId).first('status')) as { status: string };
    if (order.status !== 'pending_payment' && order.status !== 'payment_failed') return 'renewed';

    const attempts = (await this.knex('payments')
      .where('order_id', orderId)
      .orderBy('created_at')
      .select('id', 'status')) as { id: string; status: string }[];
    const open = attempts.filter((attempt) => (OPEN_PAYMENT_STATES as readonly string[]).includes(attempt.status));
    if (open.length > 0) return 'pending';
    const failed = attempts.filter((attempt) => attempt.status === 'failed').length;
    // A failure a webhook reported after the charge's answer: the subscription catches up.
    if (failed > 0) await this.afterFailures(row.id, orderId, due, failed);
    if (!force) {
      if (failed >= RENEWAL_ATTEMPTS) return 'unpaid';
      if (attemptDay(due, failed) > today) return 'waiting';
    }
    const outcome = await this.attempt(row, orderId, failed);
    if (outcome === 'failed') await this.afterFailures(row.id, orderId, due, failed + 1);
    return outcome;
  }

  /** The billing date's renewal order, placed once (its key) under the subscription's lock. */
  private async renewalOrder(row: SubscriptionRow, due: IsoDay, now: Date): Promise<string> {
    const key = renewalKey(row.id, due);
    const known = (await this.knex('orders').where({ user_id: row.user_id, idempotency_key: key }).first('id')) as
      { id: string } | undefined;
    if (known) return known.id;
    const [plan, planOrder] = await Promise.all([
      this.knex('app_templates').where('id', row.plan_id).first('name') as Promise<{ name: I18nText }>,
      this.knex('orders').where('id', row.order_id).first('seller', 'shipping') as Promise<{
        seller: Seller;
        shipping: unknown;
      }>,
    ]);
    const moduleIds = row.modules.filter((module) => module.monthPrice > 0).map((module) => module.id);
    const names = new Map(
      (
        (await this.knex('modules').whereIn('id', moduleIds).select('id', 'name')) as { id: string; name: I18nText }[]
      ).map((module) => [module.id, module.name]),
    );
    const { amount: balance } = await this.balance(row);
    return this.knex.transaction(async (trx) => {
      await trx('subscriptions').where('id', row.id).forUpdate().first('id');
      const again = (await trx('orders').where({ user_id: row.user_id, idempotency_key: key }).first('id')) as
        { id: string } | undefined;
      if (again) return again.id;
      const terms = termsOf(row);
      const months = PERIOD_MONTHS[row.period];
      const paidModules = row.modules.filter((module) => module.monthPrice > 0);
      const yearlyModules = paidModules.filter((module) => module.billing === 'yearly');
      const yearly = yearlyModules.reduce((sum, module) => sum + module.monthPrice * module.count, 0);
      const charge = renewalCharge(terms, due, { monthly: row.monthly, yearly });
      const yearlyDue = charge.amount !== row.monthly * months;
      const monthlyModules = paidModules.filter((module) => (module.billing ?? 'monthly') === 'monthly');
      const planFee = row.monthly - monthlyModules.reduce((sum, module) => sum + module.monthPrice * module.count, 0);
      const period = { from: charge.periodStart, to: charge.periodEnd };
      const lines: OrderLine[] = [
        {
          key: 'plan',
          kind: 'plan',
          name: plan.name,
          billing: 'monthly',
          unitPrice: planFee,
          count: months,
          amount: planFee * months,
          ...period,
        },
        ...monthlyModules.map((module): OrderLine => ({
          key: `addon:${module.id}`,
          kind: 'addon',
          module: module.id,
          name: names.get(module.id) ?? { en: module.id },
          billing: 'monthly',
          unitPrice: module.monthPrice,
          count: module.count,
          amount: module.monthPrice * module.count * months,
          ...period,
        })),
        ...(yearlyDue
          ? yearlyModules.map((module): OrderLine => ({
              key: `addon:${module.id}`,
              kind: 'addon',
              module: module.id,
              name: names.get(module.id) ?? { en: module.id },
              billing: 'yearly',
              unitPrice: module.monthPrice,
              count: module.count,
              amount: module.monthPrice * module.count,
            }))
          : []),
      ];
      const total = charge.amount;
      const tax = taxFor(planOrder.seller, total);
      const placed: StateMove = {
        from: 'draft',
        to: 'pending_payment',
        at: now.toISOString(),
        actor: 'system',
        reason: `renewal due ${due}`,
      };
      return insertNumberedOrder(trx, {
        kind: 'renewal',
        subscription_id: row.id,
        user_id: row.user_id,
        status: 'pending_payment',
        seller: planOrder.seller,
        industry_id: row.industry_id,
        plan_id: row.plan_id,
        plan_type: row.plan_type,
        items: JSON.stringify(lines),
        currency: row.currency,
        // The months it pays for, as a prepaid order's do (the invoice's lines read it so).
        prepaid_months: months,
        contract_months: 0,
        monthly: row.monthly,
        yearly: yearlyDue ? yearly : 0,
        one_time: 0,
        subtotal: total,
        tax_rate: tax.taxRate,
        tax: tax.tax,
        total,
        shipping: JSON.stringify(planOrder.shipping),
        idempotency_key: key,
        request_hash: digest({ renewal: row.id, due, total, balance }),
        history: JSON.stringify([placed]),
      });
    });
  }

  /** The subscription's balance (decision 023): a credit is taken off the charge, an amount due added. */
  private async balance(row: SubscriptionRow): Promise<Balance> {
    const orderIds = [
      row.order_id,
      ...((await this.knex('orders').where('subscription_id', row.id).pluck('id')) as string[]),
    ];
    const [invoices, payments, entries] = await Promise.all([
      this.knex('invoices').where('subscription_id', row.id).select('total', 'currency', 'status') as Promise<
        { total: number; currency: string; status: string }[]
      >,
      this.knex('payments').whereIn('order_id', orderIds).select('amount', 'currency', 'status') as Promise<
        { amount: number; currency: string; status: string }[]
      >,
      this.knex('balance_entries').where('subscription_id', row.id).select('kind', 'amount', 'currency') as Promise<
        LedgerEntry[]
      >,
    ]);
    const same = <T extends { currency: string }>(rows: T[]) => rows.filter((entry) => entry.currency === row.currency);
    return balanceOf(ledgerOf(same(invoices), same(payments), same(entries)), row.currency);
  }

  /** One off-session charge of the renewal order on the card on file. */
  private async attempt(row: SubscriptionRow, orderId: string, number: number): Promise<RenewalOutcome> {
    const order = (await this.knex('orders').where('id', orderId).first('number', 'total', 'currency')) as {
      number: string;
      total: number;
      currency: string;
    };
    const amount = nextChargeAmount(Number(order.total), await this.balance(row));
    if (amount === 0) {
      // A credit covers the whole charge: nothing to take from the card.
      await this.knex.transaction(async (trx) => {
        await moveOrder(trx, orderId, 'paid', { actor: 'system', reason: 'covered by the balance' });
        await provisionPaidOrder({ jobs: this.jobs }, trx, orderId, 'system');
        // Nothing was charged: the balance paid the whole invoice.
        await trx('invoices')
          .where('order_id', orderId)
          .update({ balance_applied: Number(order.total) });
      });
      return 'renewed';
    }
    const gateway = this.deps.gateway();
    const method = row.payment_method;
    const id = newId();
    await this.knex('payments').insert({
      id,
      order_id: orderId,
      user_id: row.user_id,
      status: 'created',
      gateway: gateway.name,
      amount,
      currency: order.currency,
      card:
        row.card && method
          ? JSON.stringify({ ...row.card, customerId: method.customerId, paymentMethodId: method.paymentMethodId })
          : null,
      idempotency_key: `${renewalKey(row.id, dayOf(row.next_pay_date))}:${number}`,
      request_hash: digest({ order: orderId, amount, attempt: number }),
      history: JSON.stringify([]),
    });
    await this.knex.transaction(async (trx) => {
      await tryMove(trx, 'order', orderId, 'pending_payment', {
        actor: 'system',
        reason: `renewal attempt ${number + 1}`,
      });
      await movePayment(trx, id, 'processing', { actor: 'system', reason: 'sent to the gateway off-session' });
    });
    const outcome = await chargeOffSession(this.deps, gateway, {
      paymentId: id,
      order: { id: orderId, number: order.number, currency: order.currency },
      amount,
      card: method,
      actor: 'system',
      what: 'renewal',
    });
    return outcome === 'succeeded' ? 'renewed' : outcome === 'noCard' ? 'failed' : outcome;
  }

  /**
   * What `failed` failed attempts make of the subscription: past due until the next retry, or,
   * after the last, unpaid with its add-ons suspended. The member is mailed once per step.
   */
  private async afterFailures(subscriptionId: string, orderId: string, due: IsoDay, failed: number): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const row = (await trx('subscriptions')
        .where('id', subscriptionId)
        .forUpdate()
        .first('status', 'retry_on', 'modules')) as Pick<SubscriptionRow, 'status' | 'retry_on' | 'modules'>;
      if (row.status === 'cancelled' || row.status === 'unpaid') return;
      let mail: RenewalMailJob;
      if (failed >= RENEWAL_ATTEMPTS) {
        await tryMove(trx, 'subscription', subscriptionId, 'unpaid', {
          actor: 'system',
          reason: `renewal of ${due} failed ${failed} times`,
        });
        const modules = row.modules.map((module) =>
          module.monthPrice > 0 && module.status !== 'pending' ? { ...module, status: 'suspended' } : module,
        );
        await trx('subscriptions')
          .where('id', subscriptionId)
          .update({ modules: JSON.stringify(modules), retry_on: null });
        mail = { subscription: subscriptionId, order: orderId, kind: 'suspended' };
      } else {
        const retryOn = attemptDay(due, failed);
        if (row.status === 'past_due' && row.retry_on && dayOf(row.retry_on) === retryOn) return;
        if (row.status !== 'past_due')
          await tryMove(trx, 'subscription', subscriptionId, 'past_due', {
            actor: 'system',
            reason: `renewal of ${due} failed`,
          });
        await trx('subscriptions')
          .where('id', subscriptionId)
          .update({ retry_on: startOfDay(retryOn) });
        mail = { subscription: subscriptionId, order: orderId, kind: 'failed', retryOn };
      }
      await this.jobs.send(RENEWAL_MAIL_JOB, mail, trx);
      trx.executionPromise.then(
        () => this.jobs.wake(RENEWAL_MAIL_JOB),
        () => undefined,
      );
    });
  }
}
