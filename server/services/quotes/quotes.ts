import { TooManyRequests } from '@feathersjs/errors';
import type { Application, Params } from '@feathersjs/feathers';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { OrderPrice } from '../../../domain/orders/pricing.ts';
import { PURCHASE_MESSAGES, quoteRequestSchema, withoutClientPrices } from '../../../domain/orders/request.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { consume } from '../../auth/limits.ts';
import { invalid } from '../entity/validate.ts';
import { parseRequest, priceChoice } from '../orders/price.ts';

/**
 * `quotes`: the price of a choice shipped to a country, as an order would be priced (public,
 * limited per address). What the order summary shows before anything is placed.
 */
export class QuotesService {
  private readonly app: Application;
  private readonly limiter: RateLimiterAbstract;

  constructor(app: Application, limiter: RateLimiterAbstract) {
    this.app = app;
    this.limiter = limiter;
  }

  async create(data: unknown, params: Params = {}): Promise<OrderPrice> {
    if (params.provider) {
      const wait = await consume(this.limiter, callerAddressKey(params));
      if (wait !== null) throw new TooManyRequests(PURCHASE_MESSAGES.tooManyQuotes, { retryAfter: wait });
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalid({ _: 'validation.invalid' });
    const request = parseRequest(quoteRequestSchema, withoutClientPrices(data as Record<string, unknown>));
    const { price } = await priceChoice(this.app, request, request.country);
    return price;
  }
}

export function configureQuotes(app: Application, limiter: RateLimiterAbstract): void {
  app.use('quotes', new QuotesService(app, limiter), { methods: ['create'], events: [] });
}
