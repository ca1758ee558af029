import { randomBytes } from 'node:crypto';
import { BadRequest, Forbidden, Unprocessable } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { appDefinition } from '../../../domain/apps/apps.ts';
import { deviceCodeOf, deviceLimit, pairingCodeOf } from '../../../domain/apps/devices.ts';
import { definitions } from '../../../domain/entities/index.ts';
import { type BeforeWrite, fieldsWritten } from '../entity/entity-service.ts';
import { registerEntityService } from '../entity/register.ts';
import type { ServerApp } from '../types.ts';

/*
 * The devices registered to a member's apps (decision 030): the generic entity service, whose
 * definition keeps each member to their own rows, with the rules of registering one. The owner is
 * the caller, always; the subscription is the caller's newest active one that has the module
 * active; the codes are the server's. All of it is read and written in one transaction that holds
 * the caller's active subscriptions, so two registrations at once cannot pass the limit together.
 */

/** What a refused registration says, in the caller's language. */
export const DEVICE_MESSAGES = {
  notActive: 'apps.errors.notActive',
  pending: 'apps.errors.pending',
  noDevices: 'apps.errors.noDevices',
  limit: 'apps.errors.limit',
} as const;

interface SubscriptionRow {
  id: string;
  modules: { id: string; count: number; status?: string }[];
}

/**
 * Before a device is written: on create, whose it is, which subscription it is on and its codes,
 * after checking the module is active on one of the caller's subscriptions and has room. A patch
 * writes the name alone (the hook below refuses a new module; the rest is read-only).
 */
export const deviceWrite: BeforeWrite = async (data, { id, params }) => {
  if (id !== undefined) return data;
  const caller = params.user;
  const trx = params.transaction;
  if (!caller || !trx) throw new BadRequest('A device is registered by its owner');
  const moduleId = String(data.module);
  const module = (await trx('modules').where('id', moduleId).first('id', 'key', 'counter')) as
    { id: string; key: string | null; counter: boolean } | undefined;
  // Every active subscription of the caller, held until the device is written.
  const subscriptions = (await trx('subscriptions')
    // A plan stopping at the end of its period, or with a renewal overdue, still runs (decision 031).
    .where({ user_id: String(caller._id) })
    .whereIn('status', ['active', 'non_renewing', 'past_due'])
    .orderBy('contract_start', 'desc')
    .forUpdate()
    .select('id', 'modules')) as SubscriptionRow[];
  const holding = subscriptions.flatMap((subscription) =>
    subscription.modules
      .filter((item) => item.id === moduleId)
      .map((item) => ({ subscription: subscription.id, item })),
  );
  const active = holding.find(({ item }) => item.status !== 'pending' && item.status !== 'suspended');
  if (!module || !active)
    throw new Unprocessable(holding.length > 0 ? DEVICE_MESSAGES.pending : DEVICE_MESSAGES.notActive);
  const prefix = appDefinition(module.key).devicePrefix;
  if (prefix === null) throw new Unprocessable(DEVICE_MESSAGES.noDevices);
  const limit = deviceLimit(module, active.item.count);
  const counted = (await trx('devices')
    .where({ subscription_id: active.subscription, module_id: moduleId })
    .count({ n: '*' })
    .first()) as { n: number | string } | undefined;
  if (Number(counted?.n ?? 0) >= limit) throw new Unprocessable(DEVICE_MESSAGES.limit, { limit });
  return {
    ...data,
    user: String(caller._id),
    subscription: active.subscription,
    code: deviceCodeOf(prefix, randomBytes(6)),
    pairingCode: pairingCodeOf(randomBytes(8)),
  };
};

/**
 * The devices service's own rules, inside the definition's: a registration is the caller's whatever
 * `user` it names (the row rules wrote the caller there; the write sets it from the caller itself)
 * and runs in a transaction; a device's module never changes, in any patch syntax.
 */
export function deviceRules(knex: Knex) {
  return async (context: HookContext, next: NextFunction) => {
    const { method, params } = context;
    if (method === 'patch' && fieldsWritten(context.data).has('module')) {
      throw new Forbidden('auth.fieldForbidden', { errors: { module: 'validation.notWritable' } });
    }
    if (method !== 'create') return next();
    if (typeof context.data === 'object' && context.data !== null && !Array.isArray(context.data)) {
      const { user: _owner, ...data } = context.data as Record<string, unknown>;
      context.data = data;
    }
    const outer = params.transaction as Knex.Transaction | undefined;
    const run = async (trx: Knex.Transaction) => {
      context.params = { ...params, transaction: trx };
      await next();
    };
    if (outer) await run(outer);
    else await knex.transaction(run);
  };
}

export function configureDevices(app: ServerApp, knex: Knex): void {
  registerEntityService(app, definitions.devices, { beforeWrite: deviceWrite, hooks: [deviceRules(knex)] });
}
