import { TooManyRequests } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { errorsFor, NEWSLETTER_CAMPAIGNS, type NewsletterCampaign } from '../../../domain/validation/newsletter.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { consume } from '../../auth/limits.ts';
import { isStaffRole } from '../../hooks/row-rules.ts';
import { invalid } from '../entity/validate.ts';

/** The hidden field people never see: a value in it is a bot's. */
export const HONEYPOT = 'website_url';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** What an outside caller who is not staff is told, whatever happened: nothing they did not send. */
export const SUBSCRIBED = Object.freeze({ subscribed: true });

/**
 * Subscribing from outside: limited per address (a filled honeypot counts too); a filled honeypot
 * answers as if it worked and stores nothing; the campaign's own form rules apply (the Singapore
 * phone and email checks); an address already subscribed to the campaign is not a second row.
 * Anyone but staff is answered `SUBSCRIBED` alone: the stored record (a name, a company, a phone)
 * is not theirs to read, and whether the address had subscribed before is not said either.
 */
export function subscriberRules(limiter: RateLimiterAbstract) {
  return async (context: HookContext, next: NextFunction): Promise<void> => {
    if (context.method !== 'create' || !context.params.provider) return next();
    const wait = await consume(limiter, callerAddressKey(context.params));
    if (wait !== null) throw new TooManyRequests('newsletter.tooMany', { retryAfter: wait });
    if (typeof context.data !== 'object' || context.data === null || Array.isArray(context.data)) return next();
    await subscribe(context, next);
    if (!isStaffRole((context.params.user as { role?: string } | undefined)?.role)) {
      // Staff watching the list still hear of the new subscription.
      if (context.result !== SUBSCRIBED) context.dispatch = context.result;
      context.result = SUBSCRIBED;
    }
  };
}

async function subscribe(context: HookContext, next: NextFunction): Promise<void> {
  const { [HONEYPOT]: trap, ...data } = context.data as Record<string, unknown>;
  if (text(trap).trim()) {
    context.result = SUBSCRIBED;
    return;
  }
  const campaign = data.campaign;
  // The lookup below is a query: only a known campaign and a text address reach it, never an operator.
  const problems: Record<string, string> = {};
  if (!(NEWSLETTER_CAMPAIGNS as readonly unknown[]).includes(campaign)) problems.campaign = campaign == null ? 'validation.required' : 'validation.invalid';
  if (typeof data.email !== 'string') problems.email = data.email == null ? 'validation.required' : 'validation.invalid';
  if (Object.keys(problems).length > 0) throw invalid(problems);
  const formProblems = errorsFor(campaign as NewsletterCampaign, {
    name: text(data.name),
    companyName: text(data.companyName),
    phone: text(data.phone),
    email: text(data.email),
  });
  if (Object.keys(formProblems).length > 0) throw invalid(formProblems as Record<string, string>);
  const email = text(data.email).trim().toLowerCase();
  context.data = { ...data, email };
  const existing = (await context.service.find({ query: { campaign, email, $limit: 1 }, paginate: { default: 1, max: 1 } })) as { data: unknown[] };
  if (existing.data[0]) {
    context.result = existing.data[0];
    return;
  }
  await next();
}
