import { BadRequest, Conflict, NotFound } from '@feathersjs/errors';
import type { Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { definitions } from '../../../domain/entities/index.ts';
import { UPGRADE_MESSAGES } from '../../../domain/orders/request.ts';
import { STAFF_ROLES } from '../../../domain/entities/types.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import { hiddenFields, stripResult } from '../../hooks/clean-output.ts';
import type { ServerApp } from '../types.ts';
import { moveOrder } from './transitions.ts';
import { RECORD_ID } from '../../db/ids.ts';

export interface FulfilmentAnswer {
  order: string;
  status: 'completed';
}

/**
 * `fulfilments` create `{order}` (staff): what a paid order bought is set up and delivered. The
 * order moves from `provisioning` to `completed`; an add-on order's modules turn from `pending`
 * to active on its subscription. The owner's live connections and staff hear of both changes.
 */
export class FulfilmentsService {
  private readonly app: ServerApp;
  private readonly knex: Knex;

  constructor(app: ServerApp, knex: Knex) {
    this.app = app;
    this.knex = knex;
  }

  async create(data: unknown, params: Params & { user?: { _id?: unknown } | null } = {}): Promise<FulfilmentAnswer> {
    const orderId =
      typeof data === 'object' && data !== null && !Array.isArray(data)
        ? (data as { order?: unknown }).order
        : undefined;
    if (typeof orderId !== 'string' || !RECORD_ID.test(orderId) || Object.keys(data as object).length !== 1) {
      throw new BadRequest('validation.failed', { errors: { order: 'validation.invalid' } });
    }
    const actor = params.user?._id ? String(params.user._id) : 'system';
    const subscriptionId = await this.knex.transaction(async (trx) => {
      const order = (await trx('orders')
        .where('id', orderId)
        .forUpdate()
        .first('id', 'status', 'kind', 'subscription_id')) as
        { id: string; status: string; kind: string; subscription_id: string | null } | undefined;
      if (!order) throw new NotFound(`No record found for id '${orderId}'`);
      if (order.status !== 'provisioning')
        throw new Conflict(UPGRADE_MESSAGES.notFulfillable, { status: order.status });
      await moveOrder(trx, order.id, 'completed', { actor, reason: 'set up and delivered' });
      if (order.kind !== 'addon' || !order.subscription_id) return null;
      const subscription = (await trx('subscriptions')
        .where('id', order.subscription_id)
        .forUpdate()
        .first('modules')) as { modules: { order?: string; status?: string }[] };
      const modules = subscription.modules.map((module) =>
        module.order === order.id && module.status === 'pending' ? { ...module, status: 'active' } : module,
      );
      await trx('subscriptions')
        .where('id', order.subscription_id)
        .update({ modules: JSON.stringify(modules), updated_at: trx.fn.now() });
      return order.subscription_id;
    });
    await this.announce(orderId, subscriptionId);
    return { order: orderId, status: 'completed' };
  }

  /** Tells the listeners (the owner, staff, other instances) of the changes, as a patch through the services would. */
  private async announce(orderId: string, subscriptionId: string | null): Promise<void> {
    const orders = this.app.service('orders');
    orders.emit('patched', stripResult(await orders.get(orderId), hiddenFields(definitions.orders)));
    if (!subscriptionId) return;
    const subscriptions = this.app.service('subscriptions');
    subscriptions.emit(
      'patched',
      stripResult(await subscriptions.get(subscriptionId), hiddenFields(definitions.subscriptions)),
    );
  }
}

/** The reference's word on `fulfilments` (decision 058). */
export const fulfilmentsDescription = describeService('fulfilments', {
  summary: 'Staff mark a paid order set up and delivered',
  access: { find: 'none', get: 'none', create: STAFF_ROLES, patch: 'none', remove: 'none' },
  methods: {
    create: {
      summary: 'Fulfil an order',
      request: { type: 'object', required: ['order'], properties: { order: { type: 'string' } } },
      answer: {
        type: 'object',
        required: ['order', 'status'],
        properties: { order: { type: 'string' }, status: { const: 'completed' } },
      },
      statuses: [404, 409],
    },
  },
});

export function configureFulfilments(app: ServerApp, knex: Knex): void {
  useCustomService(app, 'fulfilments', new FulfilmentsService(app, knex), fulfilmentsDescription, {
    methods: ['create'],
  });
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    fulfilments: FulfilmentsService;
  }
}
