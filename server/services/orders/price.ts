import { BadRequest } from '@feathersjs/errors';
import type { Application } from '@feathersjs/feathers';
import type { z } from '../../../domain/zod.ts';
import type { ShippingCountry } from '../../../domain/orders/countries.ts';
import {
  type ModuleToPrice,
  type OrderPrice,
  OrderPricingError,
  type OrderPricingProblem,
  priceOrder,
  type TemplateToPrice,
} from '../../../domain/orders/pricing.ts';
import { PURCHASE_MESSAGES } from '../../../domain/orders/request.ts';
import type { ExchangeRates } from '../../../domain/pricing.ts';
import { fieldErrors, invalid } from '../entity/validate.ts';

const PROBLEM_MESSAGES: Record<OrderPricingProblem, string> = {
  enterprise: PURCHASE_MESSAGES.enterprise,
  prepaidMonths: PURCHASE_MESSAGES.prepaidMonths,
  unknownAddOn: PURCHASE_MESSAGES.unknownAddOn,
  includedAddOn: PURCHASE_MESSAGES.includedAddOn,
  duplicateAddOn: PURCHASE_MESSAGES.duplicateAddOn,
  count: PURCHASE_MESSAGES.addOnCount,
  currency: PURCHASE_MESSAGES.unknownPlan,
};

/** Parses a request with its schema, or throws a 400 with a message key per field. */
export function parseRequest<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw invalid(fieldErrors(parsed.error, '', data));
  return parsed.data;
}

export interface PricedChoice {
  template: TemplateToPrice & { industry: string };
  price: OrderPrice;
}

/**
 * Prices a choice with the catalogue as stored now (the calculator's `quote()` through
 * `priceOrder`): the plan by its id or key, released add-ons only. A choice that cannot be sold
 * is a 400 naming the field.
 */
export async function priceChoice(
  app: Application,
  choice: { plan: string; addOns: { id: string; count: number }[]; prepaidMonths: number },
  country: ShippingCountry,
  rates?: ExchangeRates,
): Promise<PricedChoice> {
  const [template] = (await app.service('appTemplates').find({
    paginate: false,
    query: { $or: [{ _id: choice.plan }, { key: choice.plan }], $limit: 1 },
  })) as (TemplateToPrice & { industry: string })[];
  if (!template) throw invalid({ plan: PURCHASE_MESSAGES.unknownPlan });
  const catalogue = (await app.service('modules').find({ paginate: false })) as ModuleToPrice[];
  try {
    return { template, price: priceOrder(template, catalogue, choice, country, rates) };
  } catch (error) {
    if (error instanceof OrderPricingError)
      throw new BadRequest('validation.failed', { errors: { [error.field]: PROBLEM_MESSAGES[error.problem] } });
    throw error;
  }
}

/** The columns of an order's row that its price fills (the order service's and the demo seed's). */
export function priceColumns(price: OrderPrice) {
  return {
    seller: price.seller,
    items: JSON.stringify(price.items),
    currency: price.currency,
    prepaid_months: price.prepaidMonths,
    contract_months: price.contractMonths,
    monthly: price.monthly,
    yearly: price.yearly,
    one_time: price.oneTime,
    subtotal: price.subtotal,
    tax_rate: price.taxRate,
    tax: price.tax,
    total: price.total,
  };
}
