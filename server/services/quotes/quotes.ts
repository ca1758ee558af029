import { NotAuthenticated, TooManyRequests } from '@feathersjs/errors';
import type { Application, Params } from '@feathersjs/feathers';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { OrderPrice } from '../../../domain/orders/pricing.ts';
import type { Knex } from 'knex';
import type { UpgradePrice } from '../../../domain/billing/upgrade.ts';
import {
  PURCHASE_MESSAGES,
  type QuoteRequest,
  quoteRequestSchema,
  type UpgradeQuoteRequest,
  upgradeQuoteSchema,
  withoutClientPrices,
} from '../../../domain/orders/request.ts';
import { clockOf } from '../../clock.ts';
import { useCustomService } from '../custom-service.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { consume } from '../../auth/limits.ts';
import { describeService } from '../../openapi/registry.ts';
import { invalid } from '../entity/validate.ts';
import { parseRequest, priceChoice } from '../orders/price.ts';
import { priceUpgradeOf, subscriptionToUpgrade, upgradeCatalogue } from '../orders/upgrade.ts';

type QuoteParams = Params & { user?: { _id?: unknown } | null };

/**
 * `quotes`: the price of a choice shipped to a country, as an order would be priced (public,
 * limited per address). What the order summary shows before anything is placed. With
 * `subscription`, the price of add-ons for the caller's own subscription today (decision 026).
 */
export class QuotesService {
  private readonly app: Application;
  private readonly limiter: RateLimiterAbstract;
  private readonly knex: Knex;

  constructor(app: Application, limiter: RateLimiterAbstract, knex: Knex) {
    this.app = app;
    this.limiter = limiter;
    this.knex = knex;
  }

  async create(data: QuoteRequest, params?: QuoteParams): Promise<OrderPrice>;
  async create(data: UpgradeQuoteRequest, params?: QuoteParams): Promise<UpgradePrice>;
  async create(data: unknown, params?: QuoteParams): Promise<OrderPrice | UpgradePrice>;
  async create(data: unknown, params: QuoteParams = {}): Promise<OrderPrice | UpgradePrice> {
    if (params.provider) {
      const wait = await consume(this.limiter, callerAddressKey(params));
      if (wait !== null) throw new TooManyRequests(PURCHASE_MESSAGES.tooManyQuotes, { retryAfter: wait });
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalid({ _: 'validation.invalid' });
    if ('subscription' in data) {
      // Add-ons for a subscription: its owner's alone (another member's is not found).
      const userId = params.user?._id;
      if (!userId) throw new NotAuthenticated('auth.notAuthenticated');
      const request = parseRequest(upgradeQuoteSchema, withoutClientPrices(data as Record<string, unknown>));
      const subject = await subscriptionToUpgrade(this.knex, request.subscription, String(userId));
      return priceUpgradeOf(subject, await upgradeCatalogue(this.app), request.addOns, clockOf(this.app)());
    }
    const request = parseRequest(quoteRequestSchema, withoutClientPrices(data as Record<string, unknown>));
    const { price } = await priceChoice(this.app, request, request.country);
    return price;
  }
}

/** The reference's word on `quotes` (decision 058). */
export const quotesDescription = describeService('quotes', {
  summary: 'Prices of a choice before it is ordered',
  description:
    'The price of a plan, hardware and add-ons shipped to a country, as an order would be priced; with `subscription`, ' +
    'the price of add-ons for the caller’s own subscription today. Limited per address (429).',
  access: { find: 'none', get: 'none', create: 'public', patch: 'none', remove: 'none' },
  methods: {
    create: {
      summary: 'Price a choice',
      request: [quoteRequestSchema, upgradeQuoteSchema],
      answer: { type: 'object', description: 'The price: lines, totals and currency.' },
    },
  },
});

export function configureQuotes(app: Application, limiter: RateLimiterAbstract, knex: Knex): void {
  // Public; a caller who sends a token is known (add-ons are priced for their own subscription only).
  useCustomService(app, 'quotes', new QuotesService(app, limiter, knex), quotesDescription, { methods: ['create'] });
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    quotes: QuotesService;
  }
}
