import { TooManyRequests } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { errorsFor, NEWSLETTER_CAMPAIGNS, type NewsletterCampaign } from '../../../domain/validation/newsletter.ts';
import { consume } from '../../auth/limits.ts';
import { invalid } from '../entity/validate.ts';

/** The hidden field people never see: a value in it is a bot's. */
export const HONEYPOT = 'website_url';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * Subscribing from outside: limited per address (a filled honeypot counts too); a filled honeypot
 * answers as if it worked and stores nothing; the campaign's own form rules apply (the Singapore
 * phone and email checks); an address already subscribed to the campaign answers its existing
 * subscription instead of a second row.
 */
export function subscriberRules(limiter: RateLimiterAbstract) {
  return async (context: HookContext, next: NextFunction): Promise<void> => {
    if (context.method !== 'create' || !context.params.provider) return next();
    const wait = await consume(limiter, String((context.params as { ip?: string }).ip ?? 'unknown'));
    if (wait !== null) throw new TooManyRequests('newsletter.tooMany', { retryAfter: wait });
    if (typeof context.data !== 'object' || context.data === null || Array.isArray(context.data)) return next();
    await subscribe(context, next);
  };
}

async function subscribe(context: HookContext, next: NextFunction): Promise<void> {
  const { [HONEYPOT]: trap, ...data } = context.data as Record<string, unknown>;
  if (text(trap).trim()) {
    context.result = { subscribed: true };
    return;
  }
  const campaign = data.campaign;
  if ((NEWSLETTER_CAMPAIGNS as readonly unknown[]).includes(campaign)) {
    const problems = errorsFor(campaign as NewsletterCampaign, {
      name: text(data.name),
      companyName: text(data.companyName),
      phone: text(data.phone),
      email: text(data.email),
    });
    if (Object.keys(problems).length > 0) throw invalid(problems as Record<string, string>);
  }
  const email = text(data.email).trim().toLowerCase();
  context.data = { ...data, email };
  const existing = (await context.service.find({ query: { campaign, email, $limit: 1 }, paginate: { default: 1, max: 1 } })) as { data: unknown[] };
  if (existing.data[0]) {
    context.result = existing.data[0];
    return;
  }
  await next();
}
