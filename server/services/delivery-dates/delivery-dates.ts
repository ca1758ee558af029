import type { Application, Params } from '@feathersjs/feathers';
import type { DeliveryDatesAnswer } from '../../../domain/entities/services.ts';
import { SHIPPING_COUNTRIES, type ShippingCountry } from '../../../domain/orders/countries.ts';
import { PURCHASE_MESSAGES } from '../../../domain/orders/request.ts';
import { deliveryDates } from '../../purchase/delivery-dates.ts';
import { invalid } from '../entity/validate.ts';
import { describeService } from '../../openapi/registry.ts';

/** `deliveryDates`: the days the date picker offers for a country (public, read-only). */
export class DeliveryDatesService {
  private readonly now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.now = now;
  }

  async find(params: Params = {}): Promise<DeliveryDatesAnswer> {
    const country = (params.query as { country?: unknown } | undefined)?.country;
    if (typeof country !== 'string' || !(SHIPPING_COUNTRIES as readonly string[]).includes(country)) {
      throw invalid({ country: PURCHASE_MESSAGES.countryRequired });
    }
    return {
      country: country as ShippingCountry,
      dates: deliveryDates(country as ShippingCountry, { now: this.now() }),
    };
  }
}

/** The reference's word on `deliveryDates` (decision 058). */
export const deliveryDatesDescription = describeService('deliveryDates', {
  summary: 'The days a delivery to a country can be booked on',
  description: 'Ask with `?country=HK`; the answer lists days as YYYY-MM-DD, soonest first.',
  access: { find: 'public', get: 'none', create: 'none', patch: 'none', remove: 'none' },
  methods: {
    find: {
      summary: 'Delivery days',
      answer: {
        type: 'object',
        required: ['country', 'dates'],
        properties: {
          country: { enum: SHIPPING_COUNTRIES },
          dates: { type: 'array', items: { type: 'string', format: 'date' } },
        },
      },
    },
  },
});

export function configureDeliveryDates(app: Application, now?: () => Date): void {
  app.use('deliveryDates', new DeliveryDatesService(now), { methods: ['find'], events: [] });
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    deliveryDates: DeliveryDatesService;
  }
}
