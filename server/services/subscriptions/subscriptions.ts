import { BadRequest, Conflict, NotFound, TooManyRequests } from '@feathersjs/errors';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { dayOf, startOfDay } from '../../../domain/billing/calendar.ts';
import {
  cancellationOf,
  type Cancellation,
  isRemovable,
  removalCredit,
  type RemovableModule,
} from '../../../domain/billing/lifecycle.ts';
import { newId, RECORD_ID } from '../../db/ids.ts';
import { billingTermsOf } from '../../../domain/billing/overview.ts';
import { localeOf } from '../../../domain/locales.ts';
import { isCurrency } from '../../../domain/money.ts';
import { clockOf } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import { cardChangeSchema } from '../../../domain/forms/card-change.ts';
import { askPeriodically } from '../../jobs/jobs.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { MailJobs } from '../../mail/deliveries.ts';
import { renewalMail } from '../../mail/renewal-mail.ts';
import type { CardSummary, PaymentGateway } from '../../payments/gateway.ts';
import { PAYMENT_MESSAGES } from '../../../domain/orders/payment-request.ts';
import { createLimiter } from '../../auth/limits.ts';
import { paymentsOf } from '../payments/payments.ts';
import { tryMove } from '../orders/transitions.ts';
import type { ServerApp } from '../types.ts';
import { RENEWAL_MAIL_JOB, type RenewalMailJob, type RenewalOutcome, Renewals } from './renewals.ts';
import { TerminationsService } from './terminations.ts';
import { announce } from './announce.ts';

/** The queue whose job brings every subscription's renewals up to date, and how often it is asked for. */
export const RENEWAL_QUEUE = 'renewals';
export const RENEWAL_PERIOD_SECONDS = 15 * 60;

/** The messages of a change a member asks for and cannot have. */
export const CHANGE_MESSAGES = {
  notActive: 'renewal.notActive',
  notStopping: 'renewal.notStopping',
  tooManyCards: 'renewal.tooManyCards',
  notRemovable: 'renewal.notRemovable',
  notRunning: 'renewal.notRunning',
} as const;

const ACTIONS = ['cancel', 'resume', 'removeAddOn'] as const;
type Action = (typeof ACTIONS)[number];

export interface SubscriptionChange {
  subscription: string;
  status: string;
  /** The day it stops (after `cancel`), null after `resume`. */
  cancelAt: string | null;
  cancellation: Cancellation;
  /** After `removeAddOn`: what went to the balance, and the monthly charge now. */
  removed?: { module: string; credit: number; monthly: number };
}

type Caller = { _id: unknown; role?: string };

/**
 * `subscriptionChanges` create `{subscription, action}`: the owner stops the plan (`cancel`: it
 * goes on until the day the terms allow, then ends, decision 031), keeps it after all
 * (`resume`), or removes a bought add-on (`removeAddOn` with `module`: its unused share of the
 * period goes to the balance, taken off the next charge). Another member's subscription is 404;
 * the answer says the day it stops, or what the removal credited.
 */
export class SubscriptionChanges {
  private readonly app: ServerApp;
  private readonly knex: Knex;

  constructor(app: ServerApp, knex: Knex) {
    this.app = app;
    this.knex = knex;
  }

  async create(data: unknown, params: Params & { user?: Caller | null } = {}): Promise<SubscriptionChange> {
    const body =
      typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    const errors: Record<string, string> = {};
    if (typeof body.subscription !== 'string' || !RECORD_ID.test(body.subscription))
      errors.subscription = 'validation.invalid';
    if (!(ACTIONS as readonly unknown[]).includes(body.action)) errors.action = 'validation.invalid';
    if (body.action === 'removeAddOn' && (typeof body.module !== 'string' || !RECORD_ID.test(body.module)))
      errors.module = 'validation.invalid';
    const known = body.action === 'removeAddOn' ? ['subscription', 'action', 'module'] : ['subscription', 'action'];
    for (const field of Object.keys(body)) if (!known.includes(field)) errors[field] = 'validation.unknownField';
    if (Object.keys(errors).length > 0) throw new BadRequest('validation.failed', { errors });
    const subscriptionId = body.subscription as string;
    const action = body.action as Action;
    const userId = String(params.user?._id ?? '');
    const now = clockOf(this.app)();

    const answer = await this.knex.transaction(async (trx) => {
      const row = (await trx('subscriptions').where({ id: subscriptionId, user_id: userId }).forUpdate().first()) as
        | {
            id: string;
            user_id: string;
            status: string;
            currency: string;
            cancel_at: Date | null;
            contract_start: Date;
            billing_anchor_day: number;
            prepaid_months: number;
            contract_months: number;
            period: 'monthly' | 'annual';
            monthly: number;
            modules: (RemovableModule & { id: string })[];
          }
        | undefined;
      if (!row) throw new NotFound(`No record found for id '${subscriptionId}'`);
      const terms = billingTermsOf({
        contractStart: row.contract_start,
        billingAnchorDay: row.billing_anchor_day,
        prepaidMonths: row.prepaid_months,
        contractMonths: row.contract_months,
        period: row.period,
      } as Parameters<typeof billingTermsOf>[0]);
      const cancellation = cancellationOf(terms, dayOf(now), row.monthly);
      const actor = userId;
      if (action === 'removeAddOn') {
        // A plan overdue or ended changes nothing until it is paid (decision 031).
        if (row.status !== 'active' && row.status !== 'non_renewing')
          throw new Conflict(CHANGE_MESSAGES.notRunning, { status: row.status });
        const module = row.modules.find((item) => item.id === body.module);
        if (!module || !isRemovable(module))
          throw new BadRequest('validation.failed', { errors: { module: CHANGE_MESSAGES.notRemovable } });
        const { credit, proration } = removalCredit(terms, module, dayOf(now));
        const monthly =
          (module.billing ?? 'monthly') === 'monthly' ? row.monthly - module.monthPrice * module.count : row.monthly;
        await trx('subscriptions')
          .where('id', row.id)
          .update({
            modules: JSON.stringify(row.modules.filter((item) => item !== module)),
            monthly,
            history: trx.raw(`history || ?::jsonb`, [
              JSON.stringify([
                {
                  from: row.status,
                  to: row.status,
                  at: now.toISOString(),
                  actor,
                  reason: `add-on ${module.id} removed, ${credit} credited`,
                },
              ]),
            ]),
            updated_at: trx.fn.now(),
          });
        if (credit > 0 && proration.period) {
          await trx('balance_entries').insert({
            id: newId(),
            user_id: row.user_id,
            subscription_id: row.id,
            kind: 'credit',
            amount: credit,
            currency: row.currency,
            reason: 'addon_removed',
            module_id: module.id,
            details: JSON.stringify({
              count: module.count,
              unitPrice: module.monthPrice,
              from: dayOf(now),
              to: proration.period.end,
              remainingDays: proration.remainingDays,
              periodDays: proration.periodDays,
            }),
          });
        }
        return {
          status: row.status,
          cancelAt: row.cancel_at ? dayOf(row.cancel_at) : null,
          cancellation,
          removed: { module: module.id, credit, monthly },
        };
      }
      if (action === 'cancel') {
        if (row.status === 'non_renewing')
          return {
            status: row.status,
            cancelAt: row.cancel_at ? dayOf(row.cancel_at) : cancellation.endsOn,
            cancellation,
          };
        if (
          !(await tryMove(trx, 'subscription', row.id, 'non_renewing', {
            actor,
            reason: `stop asked for, on ${cancellation.endsOn}`,
          }))
        ) {
          throw new Conflict(CHANGE_MESSAGES.notActive, { status: row.status });
        }
        await trx('subscriptions')
          .where('id', row.id)
          .update({ cancel_at: startOfDay(cancellation.endsOn), updated_at: trx.fn.now() });
        return { status: 'non_renewing', cancelAt: cancellation.endsOn, cancellation };
      }
      if (row.status !== 'non_renewing') throw new Conflict(CHANGE_MESSAGES.notStopping, { status: row.status });
      await tryMove(trx, 'subscription', row.id, 'active', { actor, reason: 'kept after all' });
      await trx('subscriptions').where('id', row.id).update({ cancel_at: null, updated_at: trx.fn.now() });
      return { status: 'active', cancelAt: null, cancellation };
    });
    await announce(this.app, subscriptionId);
    return { subscription: subscriptionId, ...answer };
  }
}

export interface SubscriptionsDependencies {
  config: Config;
  knex: Knex;
  logger: Logger;
  jobs: JobQueue;
  mail: MailJobs;
  redis: Redis | null;
}

/**
 * What keeps subscriptions going (decision 031): the renewals job, asked for every quarter of
 * an hour by each instance and run by one (the first a quarter of an hour after start: a
 * restart loop never charges); the member's mails about failed renewals; and the
 * member's own changes: stopping the plan, keeping it, ending it for its fee, another card.
 */
const OWNER_WRITE = { find: 'none', get: 'none', create: 'authenticated', patch: 'none', remove: 'none' } as const;

/** The reference's word on `subscriptionChanges` (decision 058). */
export const subscriptionChangesDescription = describeService('subscriptionChanges', {
  summary: 'The owner stops a plan at the end its terms allow, keeps it, or removes an add-on',
  access: OWNER_WRITE,
  methods: {
    create: {
      summary: 'Cancel, resume, or remove an add-on',
      request: {
        type: 'object',
        required: ['subscription', 'action'],
        properties: {
          subscription: { type: 'string' },
          action: { enum: ['cancel', 'resume', 'removeAddOn'] },
          module: { type: 'string', description: 'The add-on, for `removeAddOn`.' },
        },
      },
      answer: {
        type: 'object',
        required: ['subscription', 'status', 'cancellation'],
        properties: {
          subscription: { type: 'string' },
          status: { type: 'string' },
          cancelAt: { type: ['string', 'null'] },
          cancellation: { type: 'object' },
        },
      },
      statuses: [404, 409],
    },
  },
});

/** The reference's word on `terminations` (decision 058). */
export const terminationsDescription = describeService('terminations', {
  summary: 'Ending a plan inside its minimum term now, for its fee',
  description:
    'Charged off-session on the card on file and invoiced. 409 when the plan is not in such a term; 402 when the card is not charged.',
  access: OWNER_WRITE,
  methods: {
    create: {
      summary: 'Terminate a plan',
      request: {
        type: 'object',
        required: ['subscription'],
        properties: { subscription: { type: 'string' }, expectedFee: { type: 'number' } },
      },
      answer: {
        type: 'object',
        required: ['subscription', 'status', 'fee'],
        properties: { subscription: { type: 'string' }, status: { const: 'cancelled' }, fee: { type: 'number' } },
      },
      statuses: [402, 404, 409],
    },
  },
});

/** The reference's word on `cardChanges` (decision 058). */
export const cardChangesDescription = describeService('cardChanges', {
  summary: 'The owner replaces the card on file',
  description: 'An overdue renewal is tried on the new card at once. Limited per account (429).',
  access: OWNER_WRITE,
  methods: {
    create: {
      summary: 'Replace the card',
      request: cardChangeSchema,
      answer: {
        type: 'object',
        required: ['subscription', 'card', 'status'],
        properties: { subscription: { type: 'string' }, card: { type: 'object' }, status: { type: 'string' } },
      },
      statuses: [402, 404, 409],
    },
  },
});

export function configureSubscriptions(
  app: ServerApp,
  { config, knex, logger, jobs, mail, redis }: SubscriptionsDependencies,
): Renewals {
  const log = logger.child({ component: 'renewals' });
  const renewals = new Renewals({
    knex,
    logger: log,
    jobs,
    gateway: () => app.get('paymentGateway') as PaymentGateway,
  });
  app.set('renewals', renewals);

  useCustomService(app, 'subscriptionChanges', new SubscriptionChanges(app, knex), subscriptionChangesDescription, {
    methods: ['create'],
  });

  // Ending a plan inside its minimum term, for its fee (decision 044): the owner, or an admin for any member.
  const terminations = new TerminationsService(app, {
    knex,
    logger: logger.child({ component: 'terminations' }),
    jobs,
    gateway: () => app.get('paymentGateway') as PaymentGateway,
  });
  useCustomService(app, 'terminations', terminations, terminationsDescription, { methods: ['create'] });

  const cardChangeLimiter = createLimiter(redis, `${config.redisPrefix}:limit:cardChanges`, CARD_CHANGE_LIMIT);
  useCustomService(app, 'cardChanges', new CardChanges(app, knex, cardChangeLimiter), cardChangesDescription, {
    methods: ['create'],
  });

  jobs.define(RENEWAL_QUEUE, { retryLimit: 3, retryDelay: 60, retryDelayMax: 600 }, async () => {
    const counts = await renewals.runDue(clockOf(app)());
    log.info(counts, 'renewals run');
  });
  mail.define<RenewalMailJob>(RENEWAL_MAIL_JOB, async (job, send) => {
    const row = (await knex('subscriptions as s')
      .join('users as u', 'u.id', 's.user_id')
      .join('orders as o', 'o.id', knex.raw('?', [job.order]))
      .where('s.id', job.subscription)
      .first('u.email', 'u.name', 'u.locale', 'o.number', 'o.total', 'o.currency')) as
      | { email: string; name: string | null; locale: string | null; number: string; total: number; currency: string }
      | undefined;
    if (!row || !isCurrency(row.currency)) return;
    const failure = (await knex('payments')
      .where({ order_id: job.order, status: 'failed' })
      .orderBy('created_at', 'desc')
      .first('failure_message')) as { failure_message: string | null } | undefined;
    const locale = localeOf(row.locale);
    await send(
      renewalMail({
        kind: job.kind,
        to: row.email,
        name: row.name,
        locale,
        brand: config.site.brandName,
        order: row.number,
        amount: Number(row.total),
        currency: row.currency,
        ...(job.retryOn ? { retryOn: job.retryOn } : {}),
        reason: failure?.failure_message ?? null,
        ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      }),
      locale,
    );
    await announce(app, job.subscription).catch(() => undefined);
  });

  askPeriodically(app, jobs, RENEWAL_QUEUE, RENEWAL_PERIOD_SECONDS, log);
  return renewals;
}

/** The app's renewals (set by configureSubscriptions). */
export function renewalsOf(app: { get(name: string): unknown }): Renewals {
  const renewals = app.get('renewals');
  if (!(renewals instanceof Renewals)) throw new Error('renewals are not configured');
  return renewals;
}

/** How many cards a member may put in (each is checked at the gateway): per member and hour. */
export const CARD_CHANGE_LIMIT = { points: 10, duration: 60 * 60 };

export interface CardChange {
  subscription: string;
  card: { brand: string; last4: string; expMonth: number; expYear: number };
  /** What trying the overdue renewal again with the new card did (`none` when nothing was due). */
  renewal: RenewalOutcome;
  status: string;
}

/**
 * `cardChanges` create `{subscription, paymentMethodId}`: the owner replaces the card on file with
 * one the provider's own fields tokenised (as at checkout: the number never reaches us). The card
 * is attached to the member's customer at the gateway first, so a card it refuses changes
 * nothing; a renewal overdue is then tried on it at once (decision 031).
 */
export class CardChanges {
  private readonly app: ServerApp;
  private readonly knex: Knex;
  private readonly limiter: RateLimiterAbstract;

  constructor(app: ServerApp, knex: Knex, limiter: RateLimiterAbstract) {
    this.app = app;
    this.knex = knex;
    this.limiter = limiter;
  }

  async create(data: unknown, params: Params & { user?: Caller | null } = {}): Promise<CardChange> {
    const body =
      typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    const errors: Record<string, string> = {};
    if (typeof body.subscription !== 'string' || !RECORD_ID.test(body.subscription))
      errors.subscription = 'validation.invalid';
    if (
      typeof body.paymentMethodId !== 'string' ||
      body.paymentMethodId.length < 1 ||
      body.paymentMethodId.length > 255
    )
      errors.paymentMethodId = 'validation.invalid';
    for (const field of Object.keys(body))
      if (field !== 'subscription' && field !== 'paymentMethodId') errors[field] = 'validation.unknownField';
    if (Object.keys(errors).length > 0) throw new BadRequest('validation.failed', { errors });
    const subscriptionId = body.subscription as string;
    const paymentMethodId = body.paymentMethodId as string;
    const userId = String(params.user?._id ?? '');

    const row = (await this.knex('subscriptions')
      .where({ id: subscriptionId, user_id: userId })
      .first('id', 'status')) as { id: string; status: string } | undefined;
    if (!row) throw new NotFound(`No record found for id '${subscriptionId}'`);
    if (row.status === 'cancelled') throw new Conflict(CHANGE_MESSAGES.notActive, { status: row.status });
    try {
      await this.limiter.consume(userId);
    } catch {
      throw new TooManyRequests(CHANGE_MESSAGES.tooManyCards);
    }
    const account = (await this.knex('users').where('id', userId).first('email', 'name')) as {
      email: string;
      name: string | null;
    };
    const payments = paymentsOf(this.app);
    const gateway = payments.gateway;
    const customerId = await payments.customerFor(userId, account, gateway);
    let card: CardSummary;
    try {
      card = await gateway.attachPaymentMethod({ customerId, paymentMethodId });
    } catch (error) {
      throw payments.gatewayFailure(error, { paymentMethodId: PAYMENT_MESSAGES.paymentMethodInvalid });
    }
    const onFile = { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
    await this.knex('subscriptions')
      .where('id', row.id)
      .update({
        card: JSON.stringify(onFile),
        payment_method: JSON.stringify({ gateway: gateway.name, customerId, paymentMethodId }),
        updated_at: this.knex.fn.now(),
      });
    const renewal =
      row.status === 'past_due' || row.status === 'unpaid'
        ? await renewalsOf(this.app).renew(row.id, clockOf(this.app)(), { force: true })
        : 'none';
    await announce(this.app, row.id);
    const after = (await this.knex('subscriptions').where('id', row.id).first('status')) as { status: string };
    return { subscription: row.id, card: onFile, renewal, status: after.status };
  }
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    subscriptionChanges: SubscriptionChanges;
    cardChanges: CardChanges;
  }
}
