import { TooManyRequests } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { EntityDef } from '../../../domain/entities/types.ts';
import { HONEYPOT_FIELD } from '../../../domain/forms/messages.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { consume } from '../../auth/limits.ts';
import { isStaffRole } from '../../hooks/row-rules.ts';
import { validateCreate } from '../entity/validate.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** What an outside caller who is not staff is told, whatever happened: nothing they did not send. */
export const SUBSCRIBED = Object.freeze({ subscribed: true });

/**
 * Subscribing from outside: limited per address (a filled honeypot counts too); a filled honeypot
 * answers as if it worked and stores nothing; an address already subscribed to the campaign is not
 * a second row. The campaign's form rules are the definition's (its record rules), checked once.
 * Anyone but staff is answered `SUBSCRIBED` alone: the stored record (a name, a company, a phone)
 * is not theirs to read, and whether the address had subscribed before is not said either.
 */
export function subscriberRules(def: EntityDef, limiter: RateLimiterAbstract) {
  return async (context: HookContext, next: NextFunction): Promise<void> => {
    if (context.method !== 'create' || !context.params.provider) return next();
    const wait = await consume(limiter, callerAddressKey(context.params));
    if (wait !== null) throw new TooManyRequests('newsletter.tooMany', { retryAfter: wait });
    if (typeof context.data !== 'object' || context.data === null || Array.isArray(context.data)) return next();
    await subscribe(def, context, next);
    if (!isStaffRole((context.params.user as { role?: string } | undefined)?.role)) {
      // Staff watching the list still hear of the new subscription.
      if (context.result !== SUBSCRIBED) context.dispatch = context.result;
      context.result = SUBSCRIBED;
    }
  };
}

async function subscribe(def: EntityDef, context: HookContext, next: NextFunction): Promise<void> {
  const { [HONEYPOT_FIELD]: trap, ...data } = context.data as Record<string, unknown>;
  if (text(trap).trim()) {
    context.result = SUBSCRIBED;
    return;
  }
  // Checked here, and not again by the service: the lookup below is a query, and only a known
  // campaign and a text address may reach it, never an operator.
  const subscription = validateCreate(def, data);
  const { campaign, email } = subscription;
  const existing = (await context.service.find({
    query: { campaign, email, $limit: 1 },
    paginate: { default: 1, max: 1 },
  })) as { data: unknown[] };
  if (existing.data[0]) {
    context.result = existing.data[0];
    return;
  }
  context.data = subscription;
  await next();
}
