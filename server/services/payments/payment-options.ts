import { NotAuthenticated, NotFound } from '@feathersjs/errors';
import type { Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { dayOf } from '../../../domain/billing/calendar.ts';
import { cardOnFileState, type PaymentOptions } from '../../../domain/orders/payment-options.ts';
import type { BillingAddressRecord } from '../../../domain/orders/records.ts';
import { clockOf } from '../../clock.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import type { PaymentGateway } from '../../payments/gateway.ts';
import type { ServerApp } from '../types.ts';
import { RECORD_ID } from '../../db/ids.ts';

/*
 * `paymentOptions.get(subscription)` (decision 063): what the payment step of an order for a
 * subscription offers its owner before anything is placed: the card on file, with whether one
 * press can pay with it now (the gateway in use holds it and it has not expired), and the billing
 * address of the member's last order that had one. The gateway's references stay on the server.
 */

type Caller = { _id: unknown };

export class PaymentOptionsService {
  private readonly app: ServerApp;
  private readonly knex: Knex;

  constructor(app: ServerApp, knex: Knex) {
    this.app = app;
    this.knex = knex;
  }

  async get(id: string, params: Params & { user?: Caller | null } = {}): Promise<PaymentOptions> {
    const userId = params.user?._id;
    if (!userId) throw new NotAuthenticated('auth.notAuthenticated');
    const subscriptionId = String(id);
    // Another member's subscription, or none: the same 404.
    const row = RECORD_ID.test(subscriptionId)
      ? ((await this.knex('subscriptions')
          .where({ id: subscriptionId, user_id: String(userId) })
          .first('id', 'card', 'payment_method')) as
          | {
              id: string;
              card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
              payment_method: { gateway: string } | null;
            }
          | undefined)
      : undefined;
    if (!row) throw new NotFound(`No record found for id '${subscriptionId}'`);
    const gateway = (this.app.get('paymentGateway') as PaymentGateway).name;
    const today = dayOf(clockOf(this.app)());
    // The newest paid order whose card was given a billing address (a renewal charged off-session has none).
    const last = (await this.knex('payments')
      .where({ user_id: String(userId), status: 'succeeded' })
      .whereNotNull('billing_address')
      .orderBy('created_at', 'desc')
      .first('billing_address')) as { billing_address: BillingAddressRecord } | undefined;
    const card = row.card;
    return {
      subscription: row.id,
      card: card
        ? {
            brand: card.brand,
            last4: card.last4,
            expMonth: card.expMonth,
            expYear: card.expYear,
            state: cardOnFileState(card, row.payment_method?.gateway ?? null, gateway, today),
          }
        : null,
      billingAddress: last?.billing_address ?? null,
    };
  }
}

/** The reference's word on `paymentOptions` (decision 058). */
export const paymentOptionsDescription = describeService('paymentOptions', {
  summary: 'How the owner can pay for an order of their subscription',
  description:
    'The card on file (brand, last four digits, expiry, and whether one press can pay with it now: `ready`, ' +
    '`expired`, or `unavailable` when no gateway in use holds it) and the billing address of the member’s last ' +
    'order, which the payment step fills in. Pay with the card on file by `POST /api/payments` with ' +
    '`cardOnFile: true`. Another member’s subscription is not found.',
  access: { find: 'none', get: 'authenticated', create: 'none', patch: 'none', remove: 'none' },
  methods: {
    get: {
      summary: 'The card on file and the billing address to fill in',
      answer: {
        type: 'object',
        required: ['subscription', 'card', 'billingAddress'],
        properties: {
          subscription: { type: 'string' },
          card: {
            type: ['object', 'null'],
            required: ['brand', 'last4', 'expMonth', 'expYear', 'state'],
            properties: {
              brand: { type: 'string' },
              last4: { type: 'string' },
              expMonth: { type: 'integer' },
              expYear: { type: 'integer' },
              state: { enum: ['ready', 'expired', 'unavailable'] },
            },
          },
          billingAddress: { type: ['object', 'null'] },
        },
      },
      statuses: [404],
    },
  },
});

export function configurePaymentOptions(app: ServerApp, knex: Knex): void {
  useCustomService(app, 'paymentOptions', new PaymentOptionsService(app, knex), paymentOptionsDescription, {
    methods: ['get'],
  });
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    paymentOptions: PaymentOptionsService;
  }
}
